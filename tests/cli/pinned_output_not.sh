#!/bin/sh
# pinned_output_not.sh SYNCSCOPE DATA_DIR: waits for a kernel's output that are not inherent,
# though a caller seems to read it after the call (-p; "A kernel's output every caller reads",
# docs/lint.md). reads/: the statement after the call writes the memory (memset, 'h[0] = 0'),
# does not evaluate the read (sizeof), may not run it ('?:', '&&'), or only computes 'h + 0';
# object/: the call gives another object's field ('next.h_') and the read is this one's, or
# std::swap takes the pointers by reference; isystem/: a third unit includes the function's
# header with -isystem and calls it in a hot loop without reading; missing/: a third unit whose
# header is not found calls it as an undeclared name. Every wait stays a warning.
set -u
SS=$(realpath "$1") DATA=$(realpath "$2")/pinned_output_not HERE=$(dirname "$(realpath "$0")")
fail=0
. "$HERE/assert.sh"
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

# case NAME ENTRIES...: lints DATA/NAME's files with the database of ENTRIES ("FILE COMPILER
# [ARG]"), the SYNC401 findings as "file:line severity" in the file sync401.
case_db() {
    name=$1
    shift
    rm -rf "$WORK/$name" && mkdir -p "$WORK/$name/build" && cp -r "$DATA/$name" "$WORK/$name/src"
    cd "$WORK/$name" || exit 1
    sep='['
    for e in "$@"; do
        set -- $e
        extra=""
        [ $# -gt 2 ] && extra="\"$3\", \"src\", "
        printf '%s{"directory": "%s", "file": "%s/src/%s", "arguments": ["%s", %s"-c", "src/%s"]}' \
            "$sep" "$WORK/$name" "$WORK/$name" "$1" "$2" "$extra" "$1"
        sep=', '
    done >build/compile_commands.json
    echo ']' >>build/compile_commands.json
    ss lint --no-cache --color never --cuda-path none -p build
    grep SYNC401 out | sed -E 's/^([^:]+:[0-9]+):[0-9]+: (warning|note): .*/\1 \2/' >sync401
}

case_db reads "kernels.cu nvcc" "main.cpp g++"
text "reads" sync401 "src/kernels.cu:3 warning
src/kernels.cu:4 warning
src/kernels.cu:5 warning
src/kernels.cu:6 warning
src/kernels.cu:7 warning
src/kernels.cu:8 warning
src/kernels.cu:9 warning"
case_db object "kernels.cu nvcc" "main.cpp g++"
text "object" sync401 "src/kernels.cu:3 warning
src/kernels.cu:4 warning"
case_db isystem "kernels.cu nvcc" "main.cpp g++" "extra.cpp g++ -isystem"
text "isystem" sync401 "src/kernels.cu:3 warning"
case_db missing "kernels.cu nvcc" "main.cpp g++" "extra.cpp g++"
text "missing" sync401 "src/kernels.cu:3 warning"
exit $fail
