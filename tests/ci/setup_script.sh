#!/bin/sh
# setup_script.sh SOURCE: scripts/setup.sh with stand-ins for id, dpkg-query, apt-get and sudo
# (nothing is installed): with --build (demo.sh) it installs only what a build needs, without
# the test tools, the browser or Node.js; without, everything; apt-get always waits for a busy
# lock (DPkg::Lock::Timeout) instead of failing; sudo only when not root; an unknown argument
# is refused. Exact apt-get command lines.
set -u
SOURCE=$(realpath "$1")
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
STUBS=$WORK/stubs
mkdir -p "$STUBS"
fail=0
check() { # what expected actual
    if [ "$2" != "$3" ]; then
        printf 'FAIL: %s\n--- expected\n%s\n--- actual\n%s\n' "$1" "$2" "$3"
        fail=1
    fi
}
record='printf "%s" "$(basename "$0")" >>"$CALLS"; for a in "$@"; do printf " %s" "$a" >>"$CALLS"; done; echo >>"$CALLS"'
printf '#!/bin/sh\n%s\n' "$record" >"$STUBS/apt-get"
printf '#!/bin/sh\n%s\nexec "$@"\n' "$record" >"$STUBS/sudo"
printf '#!/bin/sh\necho "$FAKE_UID"\n' >"$STUBS/id"
printf '#!/bin/sh\nexit 1\n' >"$STUBS/dpkg-query" # nothing is installed
printf '#!/bin/sh\nexit 0\n' >"$STUBS/nvcc"
chmod +x "$STUBS"/*
export CALLS=$WORK/calls SYNCSCOPE_SKIP_NPM=1 PATH="$STUBS:$PATH"

BUILD="build-essential cmake pkg-config ninja-build libclang-16-dev libcjson-dev libyaml-dev libdw-dev libelf-dev zlib1g-dev"
TESTS="clang-16 libclang-rt-16-dev libclang-14-dev libclang-15-dev check clang-format nodejs npm chromium fonts-dejavu-core pre-commit python3-yaml git man-db bsdextrautils lintian"
# npm counts as installed where an npm command exists (NodeSource's nodejs bundles it).
if command -v npm >/dev/null 2>&1; then TESTS=$(echo "$TESTS" | sed 's/ npm / /'); fi

: >"$CALLS"
out=$(FAKE_UID=0 sh "$SOURCE/scripts/setup.sh" --build 2>&1)
check "--build: status" 0 "$?"
check "--build: what it says" "syncscope setup: installing $BUILD" "$out"
check "--build: apt-get, as root" "apt-get -o DPkg::Lock::Timeout=600 update -qq
apt-get -o DPkg::Lock::Timeout=600 install -y -qq --no-install-recommends $BUILD" "$(cat "$CALLS")"

: >"$CALLS"
FAKE_UID=1000 SYNCSCOPE_APT_LOCK_TIMEOUT=30 sh "$SOURCE/scripts/setup.sh" >/dev/null 2>&1
check "everything: status" 0 "$?"
check "everything: apt-get through sudo" "sudo apt-get -o DPkg::Lock::Timeout=30 update -qq
apt-get -o DPkg::Lock::Timeout=30 update -qq
sudo env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=30 install -y -qq --no-install-recommends $BUILD $TESTS
apt-get -o DPkg::Lock::Timeout=30 install -y -qq --no-install-recommends $BUILD $TESTS" "$(cat "$CALLS")"

: >"$CALLS"
out=$(FAKE_UID=0 sh "$SOURCE/scripts/setup.sh" --tests 2>&1)
check "an unknown argument: status" 2 "$?"
check "an unknown argument: message" "usage: setup.sh [--build]" "$out"
check "an unknown argument: nothing installed" "" "$(cat "$CALLS")"

# demo.sh runs setup.sh --build.
check "demo.sh" "./scripts/setup.sh --build" "$(grep -o '^\./scripts/setup\.sh.*' "$SOURCE/scripts/demo.sh")"
exit $fail
