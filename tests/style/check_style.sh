#!/bin/sh
# check_style.sh: the project's C sources are formatted by the checked-in .clang-format and
# use none of the banned calls (style.md). Every .c and .h file is checked, the lint test
# inputs among them; the .cu/.cpp test inputs are not (their layout is part of what they test).
# Usage: check_style.sh SOURCE_DIR [CLANG_FORMAT]
set -u
root=${1:?usage: check_style.sh SOURCE_DIR [CLANG_FORMAT]}
clang_format=${2:-clang-format}
cd "$root" || exit 2
if ! command -v "$clang_format" >/dev/null 2>&1; then
    echo "check_style: $clang_format not found (Debian package clang-format)" >&2
    exit 1
fi
files=$(git ls-files '*.c' '*.h' 2>/dev/null)
if [ -z "$files" ]; then
    files=$(find . -name '*.[ch]' -not -path './build*' | sed 's|^\./||')
fi
status=0
for f in $files; do
    if ! "$clang_format" --dry-run -Werror "$f" >/dev/null 2>&1; then
        echo "check_style: $f is not formatted (clang-format -i $f)"
        status=1
    fi
done
# Banned calls: unbounded string writes. A word boundary keeps snprintf/strncpy allowed.
banned=$(grep -nE '(^|[^a-zA-Z0-9_])(sprintf|vsprintf|strcpy|strcat|gets)[[:space:]]*\(' $files)
if [ -n "$banned" ]; then
    echo "check_style: banned calls (use snprintf, memcpy with a length, or getline):"
    echo "$banned"
    status=1
fi
count=$(echo "$files" | wc -w)
[ "$status" = 0 ] && echo "check_style: $count files formatted, no banned calls"
exit $status
