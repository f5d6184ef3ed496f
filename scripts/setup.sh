#!/bin/sh
# setup.sh: installs what syncscope needs to build and test on Debian 12 (apt, npm).
# Idempotent: installs only what is missing. Run as root or with sudo available.
set -eu

APT_PACKAGES="build-essential cmake pkg-config ninja-build
libclang-16-dev clang-16 libclang-rt-16-dev
libcjson-dev libyaml-dev libdw-dev libelf-dev
check clang-format
nodejs npm
zlib1g-dev chromium fonts-dejavu-core
pre-commit python3-yaml git man-db bsdextrautils lintian"

SUDO=""
if [ "$(id -u)" != 0 ]; then SUDO=sudo; fi

missing=""
for p in $APT_PACKAGES; do
    # NodeSource's nodejs bundles npm and conflicts with Debian's npm package.
    if [ "$p" = npm ] && command -v npm >/dev/null 2>&1; then continue; fi
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
# folder so nothing global changes. 4.x crashes in 'validate' on Linux; 5.7.0 works. The
# package ships a self-contained native binary (no dotnet needed); npm may skip its
# postinstall chmod, so it is done here.
TOOLS_DIR="$(cd "$(dirname "$0")/.." && pwd)/build/tools"
SARIF_MULTITOOL_VERSION=5.7.0
SARIF_MULTITOOL_BIN="$TOOLS_DIR/node_modules/@microsoft/sarif-multitool-linux/Sarif.Multitool"
if [ "${SYNCSCOPE_SKIP_NPM:-0}" != 1 ] &&
    ! grep -qs "\"version\": \"$SARIF_MULTITOOL_VERSION\"" \
        "$TOOLS_DIR/node_modules/@microsoft/sarif-multitool-linux/package.json"; then
    mkdir -p "$TOOLS_DIR"
    echo "syncscope setup: installing @microsoft/sarif-multitool@$SARIF_MULTITOOL_VERSION into $TOOLS_DIR"
    (cd "$TOOLS_DIR" && npm install --silent --no-audit --no-fund --prefix "$TOOLS_DIR" \
        "@microsoft/sarif-multitool@$SARIF_MULTITOOL_VERSION" >/dev/null)
    chmod u+x "$SARIF_MULTITOOL_BIN"
fi

# playwright-core drives the Debian chromium in the HTML report tests (tests/html/); it
# downloads no browser of its own.
if [ "${SYNCSCOPE_SKIP_NPM:-0}" != 1 ] && [ ! -f "$TOOLS_DIR/node_modules/playwright-core/package.json" ]; then
    mkdir -p "$TOOLS_DIR"
    echo "syncscope setup: installing playwright-core into $TOOLS_DIR"
    (cd "$TOOLS_DIR" && npm install --silent --no-audit --no-fund --prefix "$TOOLS_DIR" \
        playwright-core@1 >/dev/null)
fi

# The CUDA toolkit is optional: lint works without it (bundled declarations); the
# interposer and samples need it (nvcc, CUPTI headers).
if ! command -v nvcc >/dev/null 2>&1 && [ ! -x /usr/local/cuda/bin/nvcc ]; then
    echo "syncscope setup: no CUDA toolkit found; lint still works, 'run' and the samples are not built"
fi
