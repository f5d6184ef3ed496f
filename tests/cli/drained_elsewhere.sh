#!/bin/sh
# drained_elsewhere.sh SYNCSCOPE DATA_DIR: a wait for the whole device that opens each piece of a
# loop, with nothing queued there because the previous piece ended with a wait and, before the
# first, the last calls were another unit's methods (-p; "Nothing to wait for", docs/lint.md;
# held-out-19's shape AL). sweep.cu's sweep() calls Frontier::rebuild() (pieces.cu: a launch,
# then synchronous readbacks) and Pieces::cut() (host arithmetic): the opening wait at line 19
# is a note that names both summaries; so is sweep_grid()'s at line 67, through the members of
# class templates that pieces.cu instantiates (Grid<float>::refresh(), Slicer<float>::slice(),
# whose operators and constructions on dependent types are host work, as resolved ones are).
# After Frontier::touch() (it launches and does not wait, line 35) and after a virtual call
# (line 51) they stay warnings, and so does everything without pieces.cu in the run. The same at
# -j 1 and -j 2, with and without the cache, and with the units in the other order (exact output).
set -u
SS=$(realpath "$1") DATA=$(realpath "$2")/drained_elsewhere HERE=$(dirname "$(realpath "$0")")
fail=0
. "$HERE/assert.sh"
. "$HERE/units.sh"
workspace "$DATA"

WAIT="'cudaDeviceSynchronize' in"
DRAINS="the GPU drains and idles while the host catches up"
R401="[SYNC401 sync-in-loop]"
EVERY="blocks the host on every iteration of a for loop"
NOTHING="drained: the device has nothing queued here"
BETWEEN="and no work is queued between it and this call on any way the unit reaches it: the wait waits for nothing else"
N19="src/sweep.cu:19:13: note: $WAIT 'sweep' $EVERY (line 18) that also enqueues device work (kernel 'relax' is launched at line 21): $DRAINS; $NOTHING: 'cudaDeviceSynchronize' at sweep.cu:22 drained it, $BETWEEN (across units: 'Pieces::cut()', defined in pieces.cu:26, queues no device work; 'Frontier::rebuild()', defined in pieces.cu:12, ends with the device drained (by 'cudaMemcpy' at pieces.cu:16)) $R401"
W19="src/sweep.cu:19:13: warning: $WAIT 'sweep' $EVERY (line 18) that also enqueues device work (kernel 'relax' is launched at line 21): $DRAINS $R401"
W35="src/sweep.cu:35:13: warning: $WAIT 'sweep_touched' $EVERY (line 34) that also enqueues device work (kernel 'relax' is launched at line 37): $DRAINS $R401"
W51="src/sweep.cu:51:13: warning: $WAIT 'sweep_virtual' $EVERY (line 50) that also enqueues device work (kernel 'relax' is launched at line 53): $DRAINS $R401"
N67="src/sweep.cu:67:13: note: $WAIT 'sweep_grid' $EVERY (line 66) that also enqueues device work (kernel 'relax' is launched at line 69): $DRAINS; $NOTHING: 'cudaDeviceSynchronize' at sweep.cu:70 drained it, $BETWEEN (across units: 'Slicer::slice()', defined in pieces.cu:43, queues no device work; 'Grid::refresh()', defined in pieces.cu:36, ends with the device drained (by 'cudaMemcpy' at pieces.cu:39)) $R401"
W67="src/sweep.cu:67:13: warning: $WAIT 'sweep_grid' $EVERY (line 66) that also enqueues device work (kernel 'relax' is launched at line 69): $DRAINS $R401"

# The opening waits only: the closing ones (lines 22, 38, 54, 70) are another rule's concern.
opening() {
    grep -E '^src/sweep\.cu:(19|35|51|67):.*SYNC401' out >sync401
}

for order in "pieces.cu sweep.cu" "sweep.cu pieces.cu"; do
    # shellcheck disable=SC2086
    database $order
    for run in "no cache, -j 1" "no cache, -j 2" "cold cache" "warm cache"; do
        lint_way "$run"
        status "$order, $run" 1
        opening
        text "$order, $run: SYNC401" sync401 "$N19
$W35
$W51
$N67"
    done
    rm -rf cache
done

# Without pieces.cu, its methods are not known to leave nothing queued: warnings.
database pieces.cu sweep.cu
ss lint --no-cache --color never --cuda-path none -p build src/sweep.cu
opening
text "without pieces.cu: SYNC401" sync401 "$W19
$W35
$W51
$W67"
exit $fail
