#!/bin/sh
# setup.sh [--build]: installs what syncscope needs on Debian 12 (apt, npm): to build it and
# run the whole test suite (scripts/test.sh), or with --build only what a release build needs
# (scripts/demo.sh): no test tools, no browser, no Node.js.
# Idempotent: installs only what is missing. Run as root or with sudo available. apt waits up
# to SYNCSCOPE_APT_LOCK_TIMEOUT seconds (600) for another apt or dpkg (an unattended upgrade
# at boot) to let go of its lock, instead of failing at once.
set -eu

# What a release build of every part needs.
BUILD_PACKAGES="build-essential cmake pkg-config ninja-build
libclang-16-dev libcjson-dev libyaml-dev libdw-dev libelf-dev zlib1g-dev"
# What the tests need besides: Check, the fuzz build's clang, libclang 14 and 15 (lint built
# against Debian 12's default libclang and 15 too), the style check, the browser
# tests (Node.js, Chromium), the CI integrations (pre-commit, PyYAML, git), the manual page
# and package checks (man-db, bsdextrautils' col, lintian).
TEST_PACKAGES="clang-16 libclang-rt-16-dev libclang-14-dev libclang-15-dev check clang-format
nodejs npm chromium fonts-dejavu-core
pre-commit python3-yaml git man-db bsdextrautils lintian"

build_only=0
case ${1:-} in
--build) build_only=1 ;;
'') ;;
*)
    echo "usage: setup.sh [--build]" >&2
    exit 2
    ;;
esac
APT_PACKAGES=$BUILD_PACKAGES
if [ "$build_only" = 0 ]; then APT_PACKAGES="$BUILD_PACKAGES $TEST_PACKAGES"; fi

SUDO=""
if [ "$(id -u)" != 0 ]; then SUDO=sudo; fi
LOCK="-o DPkg::Lock::Timeout=${SYNCSCOPE_APT_LOCK_TIMEOUT:-600}"

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
    # shellcheck disable=SC2086 # $LOCK and $missing are words
    $SUDO apt-get $LOCK update -qq
    # shellcheck disable=SC2086
    $SUDO env DEBIAN_FRONTEND=noninteractive apt-get $LOCK install -y -qq --no-install-recommends $missing
fi
if [ "$build_only" = 1 ]; then exit 0; fi

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
