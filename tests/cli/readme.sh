#!/bin/sh
# readme.sh SYNCSCOPE ROOT: the `syncscope lint` commands of the README's "Building by hand"
# work as written (run from the source root, build/release read as this build's folder): each
# exits 0 or 1 (findings) and prints no error.
set -u
SS=$(realpath "$1") ROOT=$(realpath "$2")
BUILD=$(dirname "$(dirname "$SS")")
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
cd "$ROOT" || exit 1
fail=0
commands=$(sed -n '/^## Building by hand/,/^## /p' README.md |
    sed -n 's|^\./build/release/cli/syncscope \(lint [^#]*\).*|\1|p')
[ -n "$commands" ] || {
    echo "FAIL: no lint command in the README's \"Building by hand\""
    exit 1
}
printf '%s\n' "$commands" | while read -r command; do
    # shellcheck disable=SC2086 # the command's words, as written
    set -- $(printf '%s' "$command" | sed "s|build/release|$BUILD|g")
    "$SS" "$@" --no-cache >"$WORK/out" 2>"$WORK/err"
    rc=$?
    if grep -q 'syncscope: error' "$WORK/err"; then
        echo "FAIL: syncscope $command: $(cat "$WORK/err")"
        exit 1
    fi
    [ "$rc" -le 1 ] || {
        echo "FAIL: syncscope $command: exit $rc, expected 0 or 1: $(head -5 "$WORK/err")"
        exit 1
    }
done || fail=1
exit $fail
