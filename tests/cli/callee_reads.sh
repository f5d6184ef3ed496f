#!/bin/sh
# callee_reads.sh SYNCSCOPE DATA_DIR: a wait for the whole device right before a call of another
# unit's function whose first device work, on every way, is a synchronous copy between the host
# and the device on the legacy stream, which waits for the same work (-p; held-out-12's shape M
# across units, as hot's reduction.cu:26 calls copy_buffer; "Nothing to wait for", docs/lint.md).
# steps.cu's first loops launch, wait and call fetch.cu's functions and never read what they copy
# back (the next iteration's copy overwrites it): the copy's stall is the loop's to remove, so
# every wait there is a warning (12, 17, 83 too, whose callees open with a copy), as are read_if
# (a copy on one branch only, 22), launch_then_read (launches first, 27), read_async (async.cu,
# a stream it creates non-blocking, 32), read_twice (another build launches first,
# fetch_launch.cu, 37), read_weak (weak.cu, 42), read_broken (its unit has an error, 47), and a
# read of managed memory between the wait and the call (60); a timer's read between them keeps
# the loop's timing note (72). steps_read's loops read what the callee copies back after the
# call: notes, "drained anyway", for read_back (97), read_either with a constant 'false' that
# rules out its upload arm (103), read_back into a local ('&one', 110) and read_checked (its
# copy in a checking macro written as 'do { ... } while (0)', 148); a warning where the loop
# reads the copy on one way of a '?:' only (154) or names it only in a 'decltype' (160);
# warnings where read_either's
# flag is not a constant (116), the loop writes the copied data before reading it (122), a
# '__managed__' variable is read between the wait and the call (129), a reference is read in
# the call's arguments (136), and read_counted reads a global before its copy (142). With
# broken_decl.cu in the run, a unit with an error that declares fetch.h's functions (it may
# define them otherwise, unseen), those notes are warnings too, and so they are in a run of
# some units of the database only (a unit left out may define the callee otherwise).
# reduce.cu's finish, which another unit's loop calls, launches, waits and calls read_back into
# its pointer parameter as its last statement (it hands the data to its caller, hot's
# finish_sum_reduce) with no drain before the wait: a note (10) only where every unit of the
# run says its streams block and none has errors; with async.cu in the run, a warning, from the
# cache too, while steps_read's notes stay; with broken.cu, a unit with errors, every note
# across units is a warning. The same at -j 1 and -j 2, with and without the cache, in either
# order (exact output). Fails before the summary of such copies.
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
N72="src/steps.cu:72:9: note: $(loop 70 steps_timed); the loop times its iterations ('gettimeofday' at line 73): the wait is part of a measurement $R401"
READS="and the caller reads the data it copies back after the call (or hands it to its own caller)"
# note LINE NAME ACROSS: the note at the wait on LINE of steps_read, before the call of NAME,
# ACROSS what that function does.
note() {
    echo "src/steps.cu:$1:9: note: $(loop $(($1 - 2)) steps_read); $(again $(($1 + 1)) "$2"), $SINCE: $STALL (across units: '$2()', defined in $3) $R401"
}
BACK="fetch.cu:7, opens with a synchronous copy from the device ('cudaMemcpy' at fetch.cu:9), $LEGACY, $READS, and it ends with the device drained (by 'cudaMemcpy' at fetch.cu:9)"
EITHER="fetch.cu:12, opens with a synchronous copy between the host and the device on each of its ways ('cudaMemcpy' at fetch.cu:15, 'cudaMemcpy' at fetch.cu:17), $LEGACY, $READS, and it ends with the device drained (by 'cudaDeviceSynchronize' at fetch.cu:19)"
CHECKED="fetch.cu:46, opens with a synchronous copy from the device ('cudaMemcpy' at fetch.cu:48), $LEGACY, $READS, and it ends with the device drained (by 'cudaMemcpy' at fetch.cu:48)"
FINISH="src/reduce.cu:10:5: %s: 'cudaDeviceSynchronize' in 'finish()' blocks the host on every call of 'finish()', which also enqueues device work (kernel 'fold' is launched at line 9): $DRAINS; it runs on every iteration: 'finish()' is called from the loop at steps.cu:50, in 'steps' (another unit)"
# shellcheck disable=SC2059
W10="$(printf "$FINISH" warning) $R401"
# shellcheck disable=SC2059
N10="$(printf "$FINISH" note); $(again 11 read_back), and every unit of the program queues its work on the legacy default stream or on streams it creates blocking, whose work such a copy waits for too: $STALL (across units: 'read_back()', defined in fetch.cu:7, opens with a synchronous copy from the device ('cudaMemcpy' at fetch.cu:9), $LEGACY, $READS; no unit of the run creates a stream that does not block or holds a stream it did not create, and the run leaves none out) $R401"
# wread LINE: the warning at the wait on LINE of steps_read.
wread() {
    echo "src/steps.cu:$1:9: warning: $(loop $(($1 - 2)) steps_read) $R401"
}
# expect FINISH_LINE [WARN]: the SYNC401 findings at the waits, reduce.cu's as given; with WARN,
# steps_read's notes are warnings.
expect() {
    printf '%s\n' "$1" "$(warn 12)" "$(warn 17)" "$(warn 22)" "$(warn 27)" "$(warn 32)" "$(warn 37)" \
        "$(warn 42)" "$(warn 47)" "$(warn 60 steps_managed)" "$N72" "$(warn 83 steps_checked)"
    if [ -n "${2:-}" ]; then
        wread 97 && wread 103 && wread 110
    else
        note 97 read_back "$BACK" && note 103 read_either "$EITHER" && note 110 read_back "$BACK"
    fi
    wread 116 && wread 122 && wread 129 && wread 136 && wread 142
    if [ -n "${2:-}" ]; then wread 148; else note 148 read_checked "$CHECKED"; fi
    wread 154 && wread 160
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

# A unit with an error (broken.cu): read_broken has no summary, and the run is not whole: no
# note across units (a unit with errors may define a callee otherwise, unseen).
database steps.cu fetch.cu fetch_launch.cu weak.cu broken.cu reduce.cu
lint_way "no cache, -j 1"
status "broken.cu" 2
waits
text "broken.cu: SYNC401" sync401 "$(expect "$W10" warn)"
# A unit with an error that declares read_back and read_either (broken_decl.cu, through
# fetch.h): their notes rest on no unit with errors declaring them, so they are warnings too.
database steps.cu fetch.cu fetch_launch.cu weak.cu broken_decl.cu reduce.cu
lint_way "no cache, -j 1"
status "broken_decl.cu" 2
waits
text "broken_decl.cu: SYNC401" sync401 "$(expect "$W10" warn)"
# A run of some units of the database only (broken_decl.cu, in the database, left out): a unit
# left out may define a callee otherwise, so the notes are warnings.
ss lint --no-cache -j 1 --color never --cuda-path none -p build src/steps.cu src/fetch.cu \
    src/fetch_launch.cu src/weak.cu src/reduce.cu
status "some units" 1
waits
text "some units: SYNC401" sync401 "$(expect "$W10" warn)"
exit $fail
