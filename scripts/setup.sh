#!/bin/sh
# setup.sh: installs what syncscope needs to build and test on Debian 12 (apt, npm).
# Idempotent: installs only what is missing. Run as root or with sudo available.
set -eu

APT_PACKAGES="build-essential cmake pkg-config ninja-build
libclang-16-dev clang-16
libcjson-dev libyaml-dev libdw-dev libelf-dev
check
nodejs npm"

SUDO=""
if [ "$(id -u)" != 0 ]; then SUDO=sudo; fi

missing=""
for p in $APT_PACKAGES; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
        missing="$missing $p"
    fi
done
if [ -n "$missing" ]; then
    echo "syncscope setup: installing$missing"
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends $missing
fi

# The SARIF validator used by the tests (Microsoft's SARIF Multitool), in a project-local
# folder so nothing global changes.
TOOLS_DIR="$(cd "$(dirname "$0")/.." && pwd)/build/tools"
if [ "${SYNCSCOPE_SKIP_NPM:-0}" != 1 ] && [ ! -x "$TOOLS_DIR/node_modules/.bin/sarif-multitool" ]; then
    mkdir -p "$TOOLS_DIR"
    echo "syncscope setup: installing @microsoft/sarif-multitool into $TOOLS_DIR"
    (cd "$TOOLS_DIR" && npm install --silent --no-audit --no-fund --prefix "$TOOLS_DIR" \
        @microsoft/sarif-multitool@4 >/dev/null)
fi

# The CUDA toolkit is optional: lint works without it (bundled declarations); the
# interposer and samples need it (nvcc, CUPTI headers).
if ! command -v nvcc >/dev/null 2>&1 && [ ! -x /usr/local/cuda/bin/nvcc ]; then
    echo "syncscope setup: no CUDA toolkit found; lint still works, 'run' and the samples are not built"
fi
