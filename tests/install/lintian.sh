#!/bin/sh
# lintian.sh DEB: Debian's package checker finds no error in the .deb of CPack (a copyright
# file, a changelog, stripped binaries, compressed manual pages, a valid Maintainer, python3
# in Depends for the Python module). Warnings are printed, not judged.
set -u
DEB=$1
out=$(lintian --tag-display-limit 0 --fail-on error "$DEB" 2>&1)
rc=$?
printf '%s\n' "$out"
errors=$(printf '%s\n' "$out" | grep '^E: ')
if [ -n "$errors" ] || [ "$rc" != 0 ]; then
    printf 'FAIL: lintian exit %s, errors:\n%s\n' "$rc" "$errors"
    exit 1
fi
exit 0
