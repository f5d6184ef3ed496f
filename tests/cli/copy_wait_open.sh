#!/bin/sh
# copy_wait_open.sh SYNCSCOPE: a device-wide wait right before a synchronous copy to the host
# (before_copy) and one right after it (after_copy), in loops, each a note only where the copy
# waits for everything the wait could wait for: the unit's work all on the legacy stream or on
# blocking streams it creates, and no code run but its own and known code (the CUDA API, the C
# and C++ standard libraries, Thrust, CUB). One unit, its loops given one more statement or
# declaration each time: nothing, or a blocking stream of its own: notes. A call through a
# function pointer, a virtual call, another unit's function, a library function of an
# -isystem header (or an -I one), a std::function, a non-blocking stream, a stream of unread
# flags or priority, the per-thread default stream (compiled so, or named), a stream parameter
# beside a blocking stream: warnings.
set -u
SS=$(realpath "$1") HERE=$(dirname "$(realpath "$0")")
fail=0
. "$HERE/assert.sh"
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
mkdir -p "$WORK/vendor" && echo 'void fastlib_denoise(float *d);' >"$WORK/vendor/fastlib.h"

# case_unit NAME INCLUDE DECL CALL ARGS EXPECTED: a.cu with INCLUDE, DECL at namespace scope and
# CALL in each loop, compiled with nvcc ARGS (JSON strings); the SYNC401 findings of its two
# functions, "function severity", are EXPECTED.
case_unit() {
    rm -rf "$WORK/case" && mkdir -p "$WORK/case/build" && cd "$WORK/case" || exit 1
    cat >a.cu <<EOT
#include <cuda_runtime.h>
$2
__global__ void fill(float *d) { d[threadIdx.x] = 1.0f; }
$3
float before_copy(float *d, int iters)
{
    float h = 0;
    for (int i = 0; i < iters; i++) {
        $4
        fill<<<1, 32>>>(d);
        cudaDeviceSynchronize();
        cudaMemcpy(&h, d, sizeof h, cudaMemcpyDeviceToHost);
    }
    return h;
}
float after_copy(float *d, int iters)
{
    float h = 0;
    for (int i = 0; i < iters; i++) {
        $4
        fill<<<1, 32>>>(d);
        cudaMemcpy(&h, d, sizeof h, cudaMemcpyDeviceToHost);
        cudaDeviceSynchronize();
    }
    return h;
}
EOT
    printf '[{"directory": "%s", "file": "%s/a.cu", "arguments": ["nvcc", %s"-c", "a.cu"]}]\n' \
        "$WORK/case" "$WORK/case" "$5" >build/compile_commands.json
    ss lint --no-cache --color never --cuda-path none -p build
    grep SYNC401 out | sed -E "s/^[^:]+:[0-9]+:[0-9]+: (warning|note): 'cudaDeviceSynchronize' in '([a-z_]+)'.*/\2 \1/" >sync401
    text "$1" sync401 "$6"
}

NOTES='before_copy note
after_copy note'
WARNINGS='before_copy warning
after_copy warning'
VENDOR="\"-isystem\", \"$WORK/vendor\", "
case_unit "closed" "" "" "" "" "$NOTES"
case_unit "blocking stream" "" "static cudaStream_t s;
void make() { cudaStreamCreate(&s); }" "fill<<<1, 32, 0, s>>>(d);" "" "$NOTES"
case_unit "function pointer" "" "void (*hook)(float *);" "hook(d);" "" "$WARNINGS"
case_unit "virtual call" "" "struct Stage { virtual void run(float *) {} };
Stage *stage;" "stage->run(d);" "" "$WARNINGS"
case_unit "another unit's function" "" "void denoise(float *d);" "denoise(d);" "" "$WARNINGS"
case_unit "-isystem library" "#include <fastlib.h>" "" "fastlib_denoise(d);" "$VENDOR" "$WARNINGS"
case_unit "-I library" "#include <fastlib.h>" "" "fastlib_denoise(d);" "\"-I$WORK/vendor\", " "$WARNINGS"
case_unit "std::function" "#include <functional>" "std::function<void(float *)> work;" "work(d);" \
    "" "$WARNINGS"
case_unit "non-blocking stream" "" "static cudaStream_t s;
void make() { cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking); }" "" "" "$WARNINGS"
case_unit "unread flags" "" "static cudaStream_t s;
void make(unsigned f) { cudaStreamCreateWithFlags(&s, f); }" "" "" "$WARNINGS"
case_unit "priority stream" "" "static cudaStream_t s;
void make() { cudaStreamCreateWithPriority(&s, cudaStreamNonBlocking, -1); }" "" "" "$WARNINGS"
case_unit "per-thread" "" "" "" "\"--default-stream\", \"per-thread\", " "$WARNINGS"
case_unit "cudaStreamPerThread" "" "" "fill<<<1, 32, 0, cudaStreamPerThread>>>(d);" "" "$WARNINGS"
case_unit "stream parameter" "" "static cudaStream_t s;
void make() { cudaStreamCreate(&s); }
void use(cudaStream_t t, float *d) { fill<<<1, 32, 0, t>>>(d); }" "" "" "$WARNINGS"
exit $fail
