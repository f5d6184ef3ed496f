#!/bin/sh
# free_helper_elsewhere.sh SYNCSCOPE DATA_DIR: a stream wait right before cudaFreeArray of an
# array that another unit's function makes through a reference parameter (held-out-28's shape
# CB, ASTRA's fan_fp.cu and util.cu's createArrayAndTextureObject2D; -p; docs/lint.md, "A wait
# right before a free that waits anyway"). fan.cu's forward_one() tests make_array() of util.cu
# ('if (!make_array(...)) return false;'), which makes the array with cudaMallocArray on every
# way it does not return false: the wait is a note, "drained anyway", once util.cu's facts are
# in the run. After make_array_early() (it may return true without making the array) or an
# untested call, and without util.cu in the run, warnings. The same at -j 1 and -j 2, with and
# without the cache, and with the units in the other order (exact output).
set -u
SS=$(realpath "$1") DATA=$(realpath "$2")/free_helper_elsewhere HERE=$(dirname "$(realpath "$0")")
fail=0
. "$HERE/assert.sh"
. "$HERE/units.sh"
workspace "$DATA"

LOOP="called from the loop at fan.cu:49 blocks the host on every iteration of that for loop, which also enqueues device work (kernel 'project' is launched at line 17): the GPU drains and idles while the host catches up"
R401="[SYNC401 sync-in-loop]"
ANYWAY="drained anyway: the next device call, 'cudaFreeArray' at line 19, a free of a CUDA array that 'make_array()', of another unit, makes (through its argument 2, on every way it does not return false; the 'if' around the call returns otherwise), waits for the whole device before it returns (where the CUDA calls succeed), and so for all the work this wait is for, and only statements that stay on the host or destroy a texture object or a stream run between them: the stall is that free's, this wait adds no stall of its own (its unit: it makes it with 'cudaMallocArray')"
N18="src/fan.cu:18:21: note: 'cudaStreamSynchronize' in 'forward_one()' $LOOP; $ANYWAY $R401"
W18="src/fan.cu:18:21: warning: 'cudaStreamSynchronize' in 'forward_one()' $LOOP $R401"
REST="src/fan.cu:31:21: warning: 'cudaStreamSynchronize' in 'forward_early()' $LOOP $R401
src/fan.cu:43:5: warning: 'cudaStreamSynchronize' in 'forward_untested()' $LOOP $R401"

for order in "util.cu fan.cu" "fan.cu util.cu"; do
    # shellcheck disable=SC2086
    database $order
    for run in "no cache, -j 1" "no cache, -j 2" "cold cache" "warm cache"; do
        lint_way "$run"
        status "$order, $run" 1
        grep 'SYNC401' out >sync401
        text "$order, $run: SYNC401" sync401 "$N18
$REST"
    done
    rm -rf cache
done

# Without util.cu, make_array() is not known to make the array: a warning.
database util.cu fan.cu
ss lint --no-cache --color never --cuda-path none -p build src/fan.cu
grep 'SYNC401' out >sync401
text "without util.cu: SYNC401" sync401 "$W18
$REST"
exit $fail
