#!/bin/sh
# drained_free_elsewhere.sh SYNCSCOPE DATA_DIR: allocations and frees (SYNC402) in loops whose
# device work is followed by a call of another unit's function (-p; "Nothing to wait for",
# docs/lint.md). train.cu's first loop frees its buffer right after solve() of solver.cu, which
# launches and then waits for the whole device on every way out: the free, and the next
# iteration's allocation, have nothing queued to wait for, notes that name solve()'s wait. After
# solve_sometimes() (it waits on one branch only) or smooth() (it launches and does not wait)
# they stay warnings, and so does everything without solver.cu in the run. The same at -j 1 and
# -j 2, with and without the cache, and with the units in the other order (exact output).
set -u
SS=$(realpath "$1") DATA=$(realpath "$2")/drained_free_elsewhere HERE=$(dirname "$(realpath "$0")")
fail=0
. "$HERE/assert.sh"
. "$HERE/units.sh"
workspace "$DATA"

LOOP="inside a for loop (line 8) that enqueues device work (kernel 'build' is launched at line 11) synchronizes the whole device on every iteration"
SOLVED="drained: the device has nothing queued here: 'solve' at train.cu:13 drained it, and no work is queued between it and this call on any way the unit reaches it"
WAITS="('solve()', defined in solver.cu:5, waits for the whole device ('cudaDeviceSynchronize' at solver.cu:8))"
R402="[SYNC402 device-wide-sync-call]"
N10="src/train.cu:10:9: note: 'cudaMalloc' in 'train' $LOOP; $SOLVED: the allocation waits for nothing else $WAITS $R402"
N14="src/train.cu:14:9: note: 'cudaFree' in 'train' $LOOP; $SOLVED: the free waits for nothing else $WAITS $R402"
W10="src/train.cu:10:9: warning: 'cudaMalloc' in 'train' $LOOP $R402"
W14="src/train.cu:14:9: warning: 'cudaFree' in 'train' $LOOP $R402"
CHECKED="in 'train_checked' inside a for loop (line 19) that enqueues device work (kernel 'build' is launched at line 22) synchronizes the whole device on every iteration $R402"
SMOOTHED="in 'train_smoothed' inside a for loop (line 29) that enqueues device work (kernel 'build' is launched at line 32) synchronizes the whole device on every iteration $R402"
REST="src/train.cu:21:9: warning: 'cudaMalloc' $CHECKED
src/train.cu:24:9: warning: 'cudaFree' $CHECKED
src/train.cu:31:9: warning: 'cudaMalloc' $SMOOTHED
src/train.cu:34:9: warning: 'cudaFree' $SMOOTHED"

for order in "solver.cu train.cu" "train.cu solver.cu"; do
    # shellcheck disable=SC2086
    database $order
    for run in "no cache, -j 1" "no cache, -j 2" "cold cache" "warm cache"; do
        lint_way "$run"
        status "$order, $run" 1
        grep 'SYNC402' out >sync402
        text "$order, $run: SYNC402" sync402 "$N10
$N14
$REST"
    done
    rm -rf cache
done

# Without solver.cu, solve() is not known to wait: warnings.
database solver.cu train.cu
ss lint --no-cache --color never --cuda-path none -p build src/train.cu
grep 'SYNC402' out >sync402
text "without solver.cu: SYNC402" sync402 "$W10
$W14
$REST"
exit $fail
