#!/bin/sh
# deep.sh SYNCSCOPE: lint on expressions nested 80,000 deep (`1+1+...`, a tree as deep as it
# is long): the parse and the walk run on workers with a large stack, so the file is analyzed
# (its finding at its line, exit 1, in about a second); with a stack too small for it
# (SYNCSCOPE_LINT_STACK=8M, the stack libclang parses on by default), lint exits 2 with a
# message naming the file, never with a signal. Exact statuses and messages.
set -u
SS=$(realpath "$1")
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
cd "$WORK" || exit 1
unset SYNCSCOPE_LINT_STACK
fail=0

# terms N: "1+1+...+1", N terms.
terms() {
    awk -v n="$1" 'BEGIN { printf "1"; for (i = 1; i < n; i++) printf "+1" }'
}
# A global initializer, a kernel argument and a statement, each 80,000 terms deep; the launch
# without a stream is the one finding (a warning: the unit uses another stream, 'run' has one
# at hand, its parameter 's', which it does not pass, and train()'s loop calls 'run' on every
# iteration: a warning needs a loop).
{
    printf '#include <cuda_runtime.h>\n'
    printf '__global__ void scale(float *x) { x[threadIdx.x] *= 2.0f; }\n'
    printf 'int terms = '
    terms 80000
    printf ';\nvoid run(float *x, int n, cudaStream_t s)\n{\n    scale<<<1, 32>>>(x + ('
    terms 80000
    printf '));\n    n = '
    terms 80000
    printf ';\n}\n'
    printf 'void streamed(float *x, cudaStream_t s) { scale<<<1, 32, 0, s>>>(x); }\n'
    printf 'void train(float *x, int n, cudaStream_t s, int steps) { for (int i = 0; i < steps; i++) run(x, n, s); }\n'
} >deep.cu
cp deep.cu 'other deep.cu'

# run NAME STATUS EXPECTED_STDOUT EXPECTED_STDERR ARGS...: lint ARGS (bundled CUDA declarations,
# no cache, GitHub annotations) with the exact status and outputs.
run() {
    name=$1 want=$2 want_out=$3 want_err=$4
    shift 4
    "$SS" lint --cuda-path=none --no-cache --format github "$@" >out 2>err </dev/null
    rc=$?
    if [ "$rc" != "$want" ] || [ "$(cat out)" != "$want_out" ] || [ "$(cat err)" != "$want_err" ]; then
        echo "FAIL: $name: exit $rc (expected $want)"
        echo "--- stdout"
        cut -c1-200 out
        echo "--- expected"
        printf '%s\n' "$want_out"
        echo "--- stderr"
        cut -c1-200 err
        echo "--- expected"
        printf '%s\n' "$want_err"
        fail=1
    else
        echo "ok: $name"
    fi
}

FINDING="::warning file=deep.cu,line=6,col=5,title=SYNC101 default-stream-launch::kernel 'scale' is launched in 'run' without a stream: it runs on the legacy default stream; it runs on every iteration: 'run()' is called from the loop at deep.cu:10, which enqueues device work%0Apass an explicit stream created with cudaStreamNonBlocking, or compile with --default-stream per-thread"
run "80,000 deep: analyzed" 1 "$FINDING" "" deep.cu
run "80,000 deep: analyzed, -j 1" 1 "$FINDING" "" -j 1 deep.cu

overflow() { # FILE: the two lines of a stack overflow in FILE
    printf 'syncscope: error: %s: the analysis ran out of stack (an expression or statement nested too deep?)\n' "$1"
    printf 'syncscope: nothing was written: no report, no baseline; SYNCSCOPE_LINT_STACK sets the stack of each worker (default 1G)'
}
export SYNCSCOPE_LINT_STACK=8M
run "8M stack: exit 2 naming the file" 2 "" "$(overflow deep.cu)" deep.cu
run "8M stack: exit 2 naming the file, -j 1" 2 "" "$(overflow 'other deep.cu')" -j 1 'other deep.cu'
printf 'int shallow = 1+1;\n' >shallow.cu
run "8M stack: a shallow file is analyzed" 0 "" "" shallow.cu
cp shallow.cu shallow2.cu
SYNCSCOPE_LINT_STACK=8 run "a stack size that is not one: said once" 0 "" \
    "syncscope: warning: SYNCSCOPE_LINT_STACK='8' is not a stack size from 64K (such as 256M or 2G): 1073741824 bytes are used" \
    -j 2 shallow.cu shallow2.cu
exit $fail
