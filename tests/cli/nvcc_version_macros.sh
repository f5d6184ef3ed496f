#!/bin/sh
# nvcc_version_macros.sh SYNCSCOPE [CUDA_ROOT]: nvcc defines __CUDACC_VER_MAJOR__,
# __CUDACC_VER_MINOR__ and __CUDACC_VER_BUILD__ for every unit it compiles; lint defines them
# too, from the toolkit's version (version.json, else what bin/nvcc --version says, else cuda.h's
# CUDA_VERSION, without the build number), for the units of nvcc's commands only, before the
# command's own arguments (its -D and -U win), and --verbose shows them; never __NVCC__. A
# toolkit made up here (C++ units: nothing of it is parsed in CUDA mode), also behind a compiler
# launcher (ccache nvcc), and with CUDA_ROOT a real one for a .cu unit (exact output).
set -u
SS=$(realpath "$1") HERE=$(dirname "$(realpath "$0")")
CUDA=${2:-}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
cd "$WORK" || exit 1
fail=0
. "$HERE/assert.sh"

mkdir -p cuda/include cuda/bin
echo '#pragma once' >cuda/include/cuda_runtime.h
printf '{\n  "cuda" : {"name" : "CUDA SDK", "version" : "12.9.1"},\n  "cuda_nvcc" : {"name" : "CUDA NVCC", "version" : "12.9.86"}\n}\n' \
    >cuda/version.json
cat >a.cpp <<'SRC'
#if !defined(__CUDACC_VER_MAJOR__) || !defined(__CUDACC_VER_MINOR__)
#error no nvcc version
#elif __CUDACC_VER_MAJOR__ < 9
#error a compiler older than CUDA 9
#elif __CUDACC_VER_MAJOR__ != 12 || __CUDACC_VER_MINOR__ != 9
#error another version
#endif
#if defined(__CUDACC_VER_BUILD__) && __CUDACC_VER_BUILD__ != 86
#error another build
#endif
#ifdef __NVCC__
#error __NVCC__
#endif
int f(void) { return 0; }
SRC
# database COMPILER ARGS...: the compile command of a.cpp.
database() {
    compiler=$1
    shift
    args=""
    for a in "$@"; do args="$args\"$a\", "; done
    printf '[{"directory": "%s", "file": "%s/a.cpp", "arguments": ["%s", %s"-c", "a.cpp"]}]\n' \
        "$WORK" "$WORK" "$compiler" "$args" >compile_commands.json
}
lint() {
    ss lint --no-cache --color never --cuda-path cuda -p . "$@"
}

database /usr/local/cuda/bin/nvcc
lint
status "nvcc, version.json" 0
text "nvcc, version.json" out "1 file, 0 findings"
lint --verbose
grep 'before them' err >before
text "nvcc: --verbose" before "syncscope: a.cpp: arguments lint adds before them: -x c++ -idirafter /__syncscope__/include/openmp -Wno-error=reserved-user-defined-literal -D__CUDACC_VER_MAJOR__=12 -D__CUDACC_VER_MINOR__=9 -D__CUDACC_VER_BUILD__=86 -w -ferror-limit=0"

database nvcc -D__CUDACC_VER_MAJOR__=8
lint
status "the command's -D" 2
text "the command's -D" out "a.cpp:4:2: error: a compiler older than CUDA 9"
database nvcc -D__CUDACC_VER_BUILD__=1
lint
text "the command's -D of the build" out "a.cpp:9:2: error: another build"
database nvcc -U__CUDACC_VER_MINOR__
lint
text "the command's -U" out "a.cpp:2:2: error: no nvcc version"

# A compiler launcher in front of the compiler (CMake's CUDA_COMPILER_LAUNCHER, CC="ccache
# g++"): the command is the compiler's, so nvcc's macros are there behind one and not behind a
# launched g++.
for launcher in ccache /usr/bin/sccache; do
    database "$launcher" /usr/local/cuda/bin/nvcc
    lint
    status "$launcher nvcc" 0
    text "$launcher nvcc" out "1 file, 0 findings"
done
database ccache g++
lint
status "ccache g++" 2
text "ccache g++" out "a.cpp:2:2: error: no nvcc version"

for compiler in g++ clang++ /usr/bin/clang-16; do
    database "$compiler"
    lint
    status "$compiler" 2
    text "$compiler" out "a.cpp:2:2: error: no nvcc version"
done

# Without version.json: what bin/nvcc --version says, else cuda.h's CUDA_VERSION (no build).
rm cuda/version.json
printf '#!/bin/sh\necho "nvcc: NVIDIA (R) Cuda compiler driver"\necho "Cuda compilation tools, release 12.9, V12.9.86"\n' \
    >cuda/bin/nvcc
chmod +x cuda/bin/nvcc
database nvcc
lint
status "bin/nvcc --version" 0
text "bin/nvcc --version" out "1 file, 0 findings"
rm cuda/bin/nvcc
echo '#define CUDA_VERSION 12090' >cuda/include/cuda.h
lint --verbose
status "cuda.h" 0
text "cuda.h" out "1 file, 0 findings"
grep -q ' -D__CUDACC_VER_MAJOR__=12 -D__CUDACC_VER_MINOR__=9 -w ' err ||
    fails "cuda.h: --verbose" "$(grep 'before them' err)"
rm cuda/include/cuda.h
lint
status "no version known" 2
text "no version known" out "a.cpp:2:2: error: no nvcc version"

# A real toolkit: cuhnsw's test, which the parse without the macros took for a compiler older
# than CUDA 9.
if [ -n "$CUDA" ] && [ -f "$CUDA/include/cuda_runtime.h" ]; then
    cat >v.cu <<'SRC'
#include <cuda_runtime.h>
#if !defined(__CUDACC_VER_MAJOR__)
#error no nvcc version
#elif __CUDACC_VER_MAJOR__ < 9
#error a compiler older than CUDA 9
#endif
__global__ void k() {}
SRC
    printf '[{"directory": "%s", "file": "%s/v.cu", "arguments": ["nvcc", "-c", "v.cu"]},
{"directory": "%s", "file": "%s/w.cu", "arguments": ["clang++", "-x", "cuda", "-c", "w.cu"]}]\n' \
        "$WORK" "$WORK" "$WORK" "$WORK" >compile_commands.json
    cp v.cu w.cu
    ss lint --no-cache --color never --cuda-path "$CUDA" -p .
    status "a real toolkit" 2
    text "a real toolkit" out "w.cu:3:2: error: no nvcc version"
fi
exit $fail
