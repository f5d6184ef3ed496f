#!/bin/sh
# callers_free_elsewhere.sh SYNCSCOPE DATA_DIR: a wait that ends a function whose every call in its
# unit is followed by a free that waits (docs/lint.md, "A wait that ends a function whose
# callers free next") is a note in that unit; but another unit may call the function (external
# linkage), and where a loop of another unit of the run calls it, the project pass makes it a
# warning again (-p). bp.cu's back_project() waits and returns, reconstruct() frees next; hot.cu
# calls back_project() in a loop with no free: a warning, "drained anyway in this unit only". With bp.cu alone,
# the note. The same at -j 1 and -j 2, with and without the cache, in either order (exact
# output).
set -u
SS=$(realpath "$1") DATA=$(realpath "$2")/callers_free_elsewhere HERE=$(dirname "$(realpath "$0")")
fail=0
. "$HERE/assert.sh"
. "$HERE/units.sh"
workspace "$DATA"

LOOP="called from the loop at bp.cu:21 blocks the host on every iteration of that for loop, which also enqueues device work (kernel 'spread' is launched at line 15): the GPU drains and idles while the host catches up"
R401="[SYNC401 sync-in-loop]"
ANYWAY="drained anyway: 'back_project()' ends here, and its one call in this unit, in 'reconstruct()', is followed by a free that waits for the whole device before it returns (where the CUDA calls succeed), 'cudaFree' at line 25, a free of device memory from 'cudaMalloc', and so for all the work this wait is for; only statements that stay on the host or destroy a texture object or a stream run between them: the stall is that free's, this wait adds no stall of its own (calls from other units are not seen)"
BACK="drained anyway in this unit only: another unit calls 'back_project()' in the loop at hot.cu:9, where no free after the call is seen"
W16="src/bp.cu:16:5: warning: 'cudaStreamSynchronize' in 'back_project()' $LOOP; $BACK $R401"
N16="src/bp.cu:16:5: note: 'cudaStreamSynchronize' in 'back_project()' $LOOP; $ANYWAY $R401"

for order in "bp.cu hot.cu" "hot.cu bp.cu"; do
    # shellcheck disable=SC2086
    database $order
    for run in "no cache, -j 1" "no cache, -j 2" "cold cache" "warm cache"; do
        lint_way "$run"
        grep 'SYNC401' out >sync401
        text "$order, $run: SYNC401" sync401 "$W16"
    done
    rm -rf cache
done

# Without hot.cu, no loop of another unit is seen: the note.
database bp.cu hot.cu
ss lint --no-cache --color never --cuda-path none -p build src/bp.cu
grep 'SYNC401' out >sync401
text "without hot.cu: SYNC401" sync401 "$N16"
exit $fail
