#!/bin/sh
# callee_reads.sh SYNCSCOPE DATA_DIR: a wait for the whole device right before a call of another
# unit's function whose first device work, on every way, is a synchronous copy between the host
# and the device on the legacy stream, which waits for the same work (-p; held-out-12's shape M
# across units, as hot's reduction.cu:26 calls copy_buffer; "Nothing to wait for", docs/lint.md).
# steps.cu's loops launch, wait and call fetch.cu's functions: read_back (a readback) and
# read_either (a copy each way of an 'if') make notes at lines 12 and 17, "drained anyway", since
# the wait drained the device on the loop's previous iteration, and so does read_checked (its copy
# in a checking macro written as 'do { ... } while (0)', 83). Warnings: read_if copies on one
# branch only (22), launch_then_read launches first (27), read_async (async.cu) copies on a
# stream it creates non-blocking (32), read_twice has another build that launches first
# (fetch_launch.cu, 37), read_weak is weak (weak.cu, 42), read_broken's unit has an error
# (broken.cu, 47), and a read of managed memory between the wait and the call (60); with
# broken_decl.cu in the run, a unit with an error that declares fetch.h's functions (it may
# define them otherwise, unseen), the notes at 12, 17 and 83 are warnings too. A timer's
# read between them keeps the loop's timing note (72). reduce.cu's finish, which another unit's
# loop calls, launches, waits and calls read_back with no drain before the wait: a note (10)
# only where every unit of the run says its streams block and none has errors; with async.cu or
# broken.cu in the run, a warning, from the cache too. The same at -j 1 and -j 2, with and
# without the cache, in either order (exact output). Fails before the summary of such copies.
set -u
SS=$(realpath "$1") DATA=$(realpath "$2")/callee_reads HERE=$(dirname "$(realpath "$0")")
fail=0
. "$HERE/assert.sh"
. "$HERE/units.sh"
workspace "$DATA"

DRAINS="the GPU drains and idles while the host catches up"
R401="[SYNC401 sync-in-loop]"
# loop LINE FUNCTION: the start of the finding at the wait of the loop at LINE in FUNCTION, whose
# relax launch is on the next line.
loop() {
    echo "'cudaDeviceSynchronize' in '$2' blocks the host on every iteration of a for loop (line $1) that also enqueues device work (kernel 'relax' is launched at line $(($1 + 1))): $DRAINS"
}
# warn LINE [FUNCTION]: the warning at the wait of the loop at LINE - 2.
warn() {
    echo "src/steps.cu:$1:9: warning: $(loop $(($1 - 2)) "${2:-steps}") $R401"
}
LEGACY="which returns only once the work queued before it on the legacy default stream is done"
# again LINE NAME: "drained anyway" for the call of NAME on LINE.
again() {
    echo "drained anyway: the next statement calls '$2()' (line $1), defined in another unit, whose first device work, a synchronous copy between the host and the device on the legacy default stream, waits for the same work: it returns only once the work queued before it there is done, and only statements that stay on the host run between them"
}
STALL="the stall is that copy's, this wait adds none of its own"
SINCE="and since this wait drained the device on the loop's previous iteration no work on another stream is queued on any way the unit reaches it"
N12="src/steps.cu:12:9: note: $(loop 10 steps); $(again 13 read_back), $SINCE: $STALL (across units: 'read_back()', defined in fetch.cu:7, opens with a synchronous copy from the device ('cudaMemcpy' at fetch.cu:9), $LEGACY, and it ends with the device drained (by 'cudaMemcpy' at fetch.cu:9)) $R401"
N17="src/steps.cu:17:9: note: $(loop 15 steps); $(again 18 read_either), $SINCE: $STALL (across units: 'read_either()', defined in fetch.cu:12, opens with a synchronous copy between the host and the device on each of its ways ('cudaMemcpy' at fetch.cu:15, 'cudaMemcpy' at fetch.cu:17), $LEGACY, and it ends with the device drained (by 'cudaDeviceSynchronize' at fetch.cu:19)) $R401"
N72="src/steps.cu:72:9: note: $(loop 70 steps_timed); the loop times its iterations ('gettimeofday' at line 73): the wait is part of a measurement $R401"
N83="src/steps.cu:83:9: note: $(loop 81 steps_checked); $(again 84 read_checked), $SINCE: $STALL (across units: 'read_checked()', defined in fetch.cu:46, opens with a synchronous copy from the device ('cudaMemcpy' at fetch.cu:48), $LEGACY, and it ends with the device drained (by 'cudaMemcpy' at fetch.cu:48)) $R401"
FINISH="src/reduce.cu:10:5: %s: 'cudaDeviceSynchronize' in 'finish()' blocks the host on every call of 'finish()', which also enqueues device work (kernel 'fold' is launched at line 9): $DRAINS; it runs on every iteration: 'finish()' is called from the loop at steps.cu:50, in 'steps' (another unit)"
# shellcheck disable=SC2059
W10="$(printf "$FINISH" warning) $R401"
# shellcheck disable=SC2059
N10="$(printf "$FINISH" note); $(again 11 read_back), and every unit of the program queues its work on the legacy default stream or on streams it creates blocking, whose work such a copy waits for too: $STALL (across units: 'read_back()', defined in fetch.cu:7, opens with a synchronous copy from the device ('cudaMemcpy' at fetch.cu:9), $LEGACY; no unit of the run creates a stream that does not block or holds a stream it did not create, and the run leaves none out) $R401"
# expect FINISH_LINE: the SYNC401 findings at the waits, reduce.cu's as given.
expect() {
    printf '%s\n' "$1" "$N12" "$N17" "$(warn 22)" "$(warn 27)" "$(warn 32)" "$(warn 37)" \
        "$(warn 42)" "$(warn 47)" "$(warn 60 steps_managed)" "$N72" "$N83"
}
waits() {
    grep -E "^src/(steps|reduce)\.cu:[0-9]+:[0-9]+: [a-z]+: 'cudaDeviceSynchronize' in .*SYNC401" out >sync401
}

for order in "steps.cu fetch.cu fetch_launch.cu weak.cu reduce.cu" \
    "reduce.cu weak.cu fetch_launch.cu fetch.cu steps.cu"; do
    # shellcheck disable=SC2086
    database $order
    for run in "no cache, -j 1" "no cache, -j 2" "cold cache" "warm cache"; do
        lint_way "$run"
        status "$order, $run" 1
        waits
        text "$order, $run: SYNC401" sync401 "$(expect "$N10")"
    done
    # A unit that creates a stream non-blocking joins the run (the others' entries cached): the
    # wait in finish() is a warning again; the loop's waits, drained before, stay notes.
    # shellcheck disable=SC2086
    database $order async.cu
    lint_way "warm cache"
    status "$order async.cu, warm cache" 1
    waits
    text "$order async.cu, warm cache: SYNC401" sync401 "$(expect "$W10")"
    rm -rf cache
done

# A unit with an error (broken.cu): read_broken has no summary, and the run is not whole.
database steps.cu fetch.cu fetch_launch.cu weak.cu broken.cu reduce.cu
lint_way "no cache, -j 1"
status "broken.cu" 2
waits
text "broken.cu: SYNC401" sync401 "$(expect "$W10")"
# A unit with an error that declares read_back and read_either (broken_decl.cu, through
# fetch.h): their notes rest on no unit with errors declaring them, so they are warnings too.
database steps.cu fetch.cu fetch_launch.cu weak.cu broken_decl.cu reduce.cu
lint_way "no cache, -j 1"
status "broken_decl.cu" 2
waits
printf '%s\n' "$W10" "$(warn 12)" "$(warn 17)" "$(warn 22)" "$(warn 27)" "$(warn 32)" "$(warn 37)" \
    "$(warn 42)" "$(warn 47)" "$(warn 60 steps_managed)" "$N72" "$(warn 83 steps_checked)" >declared
text "broken_decl.cu: SYNC401" sync401 "$(cat declared)"
exit $fail
