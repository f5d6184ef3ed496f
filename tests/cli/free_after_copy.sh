#!/bin/sh
# free_after_copy.sh SYNCSCOPE DATA_DIR: a free right after a synchronous readback on the legacy
# stream, in a unit that creates no stream (-p; held-out-42's AE, gnss_gpu's find_peak_and_snr;
# "Nothing to wait for", docs/lint.md). peak.cu's search loop calls peak(), which allocates two
# scratch buffers, reduces into one, reads it back with cudaMemcpy and frees both: the copy
# waits for the legacy stream only, the free for every stream, so the first free is a warning
# in the unit alone (another unit may queue work on a stream of its own); in a run of every
# entry whose units all queue their work on streams that block (pipe.cu creates its stream
# blocking), a note saying so; with async.cu in the run (a stream it creates non-blocking),
# refparam.cu (a stream handed in by reference), handle.cu (a stream cast from an integer
# handle), or with peak.cu linted alone, a warning. The second free follows the first, which surely frees
# cudaMalloc's memory: a note in every run. The same at -j 1 and -j 2, with and without the
# cache, in either order (exact output).
set -u
SS=$(realpath "$1") DATA=$(realpath "$2")/free_after_copy HERE=$(dirname "$(realpath "$0")")
fail=0
. "$HERE/assert.sh"
. "$HERE/units.sh"
workspace "$DATA"

LOOP="in 'peak()' called from the loop at peak.cu:26, a for loop that enqueues device work (kernel 'reduce' is launched at line 27), synchronizes the whole device on every iteration"
R402="[SYNC402 device-wide-sync-call]"
W14="src/peak.cu:14:5: warning: 'cudaMalloc' $LOOP $R402
src/peak.cu:15:5: warning: 'cudaMalloc' $LOOP $R402"
W19="src/peak.cu:19:5: warning: 'cudaFree' $LOOP $R402"
N19="src/peak.cu:19:5: note: 'cudaFree' $LOOP; drained: the device has nothing queued here: 'cudaMemcpy' at peak.cu:17 drained it (a synchronous copy, which waits for all work: the unit creates no stream and names none but the legacy one, so all its work is queued there), and no work is queued between it and this call on any way the unit reaches it: the free waits for nothing else (across units: no unit of the run creates a stream that does not block or holds a stream it did not create, and the run leaves none out) $R402"
N20="src/peak.cu:20:5: note: 'cudaFree' $LOOP; drained: the device has nothing queued here: 'cudaFree' at peak.cu:19 drained it (it frees 'd_max', which 'cudaMalloc' allocated at line 14: such a free waits for all work on the device, every stream, where that allocation succeeded with a size above 0), and no work is queued between it and this call on any way the unit reaches it: the free waits for nothing else $R402"

for order in "peak.cu pipe.cu" "pipe.cu peak.cu"; do
    # shellcheck disable=SC2086
    database $order
    for run in "no cache, -j 1" "no cache, -j 2" "cold cache" "warm cache"; do
        lint_way "$run"
        status "$order, $run" 1
        grep 'SYNC402' out >sync402
        text "$order, $run: SYNC402" sync402 "$W14
$N19
$N20"
    done
    rm -rf cache
done

# A unit with a non-blocking stream in the run: the copy may not have waited for its work.
database peak.cu pipe.cu async.cu
for run in "no cache, -j 1" "no cache, -j 2"; do
    lint_way "$run"
    grep 'SYNC402' out >sync402
    text "with async.cu, $run: SYNC402" sync402 "$W14
$W19
$N20"
done

# A stream the run did not create: handed in by reference (refparam.cu) or cast from an integer
# handle (handle.cu), each beside a stream its unit creates blocking: a warning.
for other in refparam.cu handle.cu; do
    database peak.cu pipe.cu "$other"
    lint_way "no cache, -j 1"
    grep 'SYNC402' out >sync402
    text "with $other: SYNC402" sync402 "$W14
$W19
$N20"
done

# peak.cu alone (the run leaves pipe.cu out): a warning.
database peak.cu pipe.cu
ss lint --no-cache --color never --cuda-path none -p build src/peak.cu
grep 'SYNC402' out >sync402
text "peak.cu alone: SYNC402" sync402 "$W14
$W19
$N20"
exit $fail
