#!/bin/sh
# cmake_makefiles.sh: lints a real CMake "Unix Makefiles" build through its compile database,
# where CMake writes the include paths to response files (nvcc: --options-file FILE, the host
# compiler: @FILE); the findings must be those of a complete command line. Exit 77 (skipped)
# without cmake or make; the CUDA source takes part when nvcc is found.
# usage: cmake_makefiles.sh SYNCSCOPE PROJECT_DIR WORK_DIR
set -u
syncscope=$1
project=$2
work=$3
command -v cmake >/dev/null 2>&1 && command -v make >/dev/null 2>&1 || exit 77
with_cuda=OFF
command -v nvcc >/dev/null 2>&1 && with_cuda=ON
rm -rf "$work"
mkdir -p "$work"
if ! cmake -S "$project" -B "$work/build" -G "Unix Makefiles" -DCMAKE_EXPORT_COMPILE_COMMANDS=ON \
    -DSS_WITH_CUDA=$with_cuda -DCMAKE_CUDA_ARCHITECTURES=80 >"$work/cmake.log" 2>&1; then
    cat "$work/cmake.log"
    exit 1
fi
fail() {
    echo "FAIL: $*"
    exit 1
}
db=$work/build/compile_commands.json
grep -q '@CMakeFiles/' "$db" || fail "CMake wrote no @FILE response file into $db"
if [ $with_cuda = ON ]; then
    grep -q -- '--options-file CMakeFiles/' "$db" || fail "CMake wrote no --options-file into $db"
fi
cd "$work" || exit 1
"$syncscope" lint -p build --no-cache --cuda-path none --color never --fail-on note \
    >out.txt 2>err.txt
rc=$?
[ $rc -eq 1 ] || fail "exit status $rc, not 1: $(cat out.txt err.txt)"
[ -s err.txt ] && fail "unexpected stderr: $(cat err.txt)"
grep -q ': error: ' out.txt && fail "parse errors: $(cat out.txt)"
# Each finding as FILE:LINE:COLUMN RULE (the wording is the rules' business).
sed -n "s#^$project/\([^ ]*:[0-9]*:[0-9]*\): [a-z]*: .*\[\(SYNC[0-9]*\) [a-z0-9-]*\]\$#\1 \2#p" \
    out.txt >got.txt
{
    echo "host.cpp:10:5 SYNC103"
    [ $with_cuda = ON ] && echo "kernels.cu:12:5 SYNC101"
} >expected.txt
diff -u expected.txt got.txt || fail "unexpected findings"
echo "PASS (CUDA: $with_cuda)"
