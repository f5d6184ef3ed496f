#!/bin/sh
# drained_opening.sh SYNCSCOPE DATA_DIR: a wait for the whole device right before a call of
# another unit's function whose first device work is Thrust work that synchronizes the legacy
# stream when it ends (-p; "Nothing to wait for", docs/lint.md; held-out-10's shape J as
# held-out-20 met it). rounds.cu's loops launch, wait and call sums.cu: unit_sum() and side_sum()
# (through a helper whose arms each open with a filled device vector, or only throw) open so, and
# the loops queue nothing on another stream (must(), an extern "C" check of the wait's status,
# queues no work): notes at lines 14 and 25 naming each summary. halve_all() (a transform with
# 'par_nosync'), shift_all() (a launch) and a wait for a stream handed in: warnings (lines 35, 44,
# 54), and so are all five without sums.cu in the run or in a run of some units of the
# database only; with sums_twin.cu (another definition of unit_sum() that launches first) in the
# database, the note at 14 is a warning. The same at -j 1 and -j 2, with and
# without the cache, and with the units in the other order (exact output).
set -u
SS=$(realpath "$1") DATA=$(realpath "$2")/drained_opening HERE=$(dirname "$(realpath "$0")")
STUB=$(realpath "$HERE/../lint/include")
fail=0
. "$HERE/assert.sh"
. "$HERE/units.sh"
workspace "$DATA"

# database_stub FILE...: as database (units.sh), the Thrust stand-in of the lint tests on the
# include path and C++17.
database_stub() {
    sep='['
    for f in "$@"; do
        printf '%s{"directory": "%s", "file": "%s/src/%s", "arguments": ["nvcc", "-std=c++17", "-I%s", "-c", "src/%s"]}' \
            "$sep" "$WORK" "$WORK" "$f" "$STUB" "$f"
        sep=', '
    done >build/compile_commands.json
    echo ']' >>build/compile_commands.json
}

DRAINS="the GPU drains and idles while the host catches up"
R401="[SYNC401 sync-in-loop]"
EVERY="blocks the host on every iteration of a for loop"
SINCE="it synchronizes that stream when it ends, and since this wait drained the device on the loop's previous iteration no work on another stream is queued on any way the unit reaches it"
FILLED="opens with the construction of a 'thrust::device_vector<float>' filled with a value, whose fill runs with the synchronous policy"
WHEN="which synchronizes the legacy default stream when it ends, and it queues work on the legacy default stream only"
N14="src/rounds.cu:14:14: note: 'cudaDeviceSynchronize' in 'unit_rounds' $EVERY (line 12) that also enqueues device work (kernel 'spread' is launched at line 13): $DRAINS; drained anyway: the next statement calls 'unit_sum()' (line 15), defined in another unit, whose first device work waits for the same work on the legacy default stream: $SINCE (across units: 'unit_sum()', defined in sums.cu:21, $FILLED (at sums.cu:23), $WHEN; 'must()', defined in sums.cu:53, queues no device work) $R401"
W14="src/rounds.cu:14:14: warning: 'cudaDeviceSynchronize' in 'unit_rounds' $EVERY (line 12) that also enqueues device work (kernel 'spread' is launched at line 13): $DRAINS $R401"
N25="src/rounds.cu:25:9: note: 'cudaDeviceSynchronize' in 'side_rounds' $EVERY (line 23) that also enqueues device work (kernel 'spread' is launched at line 24): $DRAINS; drained anyway: the next statement calls 'side_sum()' (line 26), defined in another unit, whose first device work waits for the same work on the legacy default stream: $SINCE (across units: 'side_sum()', defined in sums.cu:40, $FILLED (at sums.cu:30), $WHEN) $R401"
W25="src/rounds.cu:25:9: warning: 'cudaDeviceSynchronize' in 'side_rounds' $EVERY (line 23) that also enqueues device work (kernel 'spread' is launched at line 24): $DRAINS $R401"
W35="src/rounds.cu:35:9: warning: 'cudaDeviceSynchronize' in 'halve_rounds' $EVERY (line 33) that also enqueues device work (kernel 'spread' is launched at line 34): $DRAINS $R401"
W44="src/rounds.cu:44:9: warning: 'cudaDeviceSynchronize' in 'shift_rounds' $EVERY (line 42) that also enqueues device work (kernel 'spread' is launched at line 43): $DRAINS $R401"
W54="src/rounds.cu:54:9: warning: 'cudaStreamSynchronize' in 'stream_rounds' $EVERY (line 52) that also enqueues device work (kernel 'spread' is launched at line 53): $DRAINS $R401"

waits() {
    grep -E '^src/rounds\.cu:[0-9]+:[0-9]+: .*SYNC401' out >sync401
}

for order in "sums.cu rounds.cu" "rounds.cu sums.cu"; do
    # shellcheck disable=SC2086
    database_stub $order
    for run in "no cache, -j 1" "no cache, -j 2" "cold cache" "warm cache"; do
        lint_way "$run"
        status "$order, $run" 1
        waits
        text "$order, $run: SYNC401" sync401 "$N14
$N25
$W35
$W44
$W54"
    done
    rm -rf cache
done

# Without sums.cu, what its functions do is not known: warnings.
database_stub sums.cu rounds.cu
ss lint --no-cache --color never --cuda-path none -p build src/rounds.cu
waits
text "without sums.cu: SYNC401" sync401 "$W14
$W25
$W35
$W44
$W54"

# With sums_twin.cu, another definition of unit_sum() that launches first, in the database:
# every definition must open with Thrust work (the note at 14 is a warning; 25's stays), and a
# run of some units of the database only (sums_twin.cu left out) answers no opening.
database_stub sums.cu rounds.cu sums_twin.cu
ss lint --no-cache --color never --cuda-path none -p build
status "sums_twin.cu" 1
waits
text "sums_twin.cu: SYNC401" sync401 "$W14
$N25
$W35
$W44
$W54"
ss lint --no-cache --color never --cuda-path none -p build src/rounds.cu src/sums.cu
status "sums_twin.cu left out" 1
waits
text "sums_twin.cu left out: SYNC401" sync401 "$W14
$W25
$W35
$W44
$W54"
exit $fail
