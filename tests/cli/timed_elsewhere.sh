#!/bin/sh
# timed_elsewhere.sh SYNCSCOPE DATA_DIR: a timer's event wait in a function another unit calls
# from a loop (-p; "Waits in a function another unit calls from a loop", docs/lint.md).
# extract() of sift.cu launches, reads a count back, launches again and reads its timer
# (TimerGPU-like: record, cudaEventSynchronize, cudaEventElapsedTime); timed.cpp's loop calls it
# twice an iteration and prints: the loop times its iterations, the wait is a note, as with the
# loop in the same unit. The wait stays a warning where the loop also calls another function of
# another unit outside the calls it times (other.cpp), where it reaches extract() through a
# function of its own (via.cpp), where more device work follows the wait in the same call (a
# stage's timer, sift_stage.cu), and where extract() reads no clock (sift_noclock.cu). A
# warm-up's wait before the event that starts a timed region is a note (warm_up.cu). level.cu
# with readback.cpp: a device-wide wait right after a synchronous copy to the host (a note
# between ed9fc25 and its revert, which review 22 found unsound: functions called through
# pointers, virtually or from libraries may queue work on streams of their own) and one with a
# launch between are warnings where another unit's loop calls them. The same from the cache
# (exact output).
set -u
SS=$(realpath "$1") DATA=$(realpath "$2")/timed_elsewhere HERE=$(dirname "$(realpath "$0")")
fail=0
. "$HERE/assert.sh"
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

# case_db CU CPP WAY: lints CU (with nvcc) and CPP (with g++) of DATA (or of the folder WORK),
# two units, the way WAY (lint_way), the SYNC401 findings as "file:line severity" in sync401.
case_db() {
    rm -rf "$WORK/case" && mkdir -p "$WORK/case/build" "$WORK/case/src"
    for f in "$1" "$2"; do
        if [ -f "$WORK/$f" ]; then cp "$WORK/$f" "$WORK/case/src/"; else cp "$DATA/$f" "$WORK/case/src/"; fi
    done
    cd "$WORK/case" || exit 1
    printf '[{"directory": "%s", "file": "%s/src/%s", "arguments": ["nvcc", "-c", "src/%s"]}, {"directory": "%s", "file": "%s/src/%s", "arguments": ["g++", "-c", "src/%s"]}]\n' \
        "$WORK/case" "$WORK/case" "$1" "$1" "$WORK/case" "$WORK/case" "$2" "$2" >build/compile_commands.json
    lint_way "$3"
    grep SYNC401 out | sed -E 's/^([^:]+:[0-9]+):[0-9]+: (warning|note): .*/\1 \2/' >sync401
}

# extract() with its timer's wait and no clock: the record and the wait written out.
sed 's/    printf("%.2f ms\\n", timer.read());/    cudaEventRecord(timer.stop, 0);\
    cudaEventSynchronize(timer.stop);/' "$DATA/sift.cu" >"$WORK/sift_noclock.cu"
# extract() reading a wall clock (a log line's stamp) after the wait, and no event's time.
sed 's/^#include <cstdio>/&\
#include <ctime>/; s/    printf("%.2f ms\\n", timer.read());/    cudaEventRecord(timer.stop, 0);\
    cudaEventSynchronize(timer.stop);\
    timespec ts;\
    clock_gettime(CLOCK_MONOTONIC, \&ts);\
    printf("%ld\\n", (long)ts.tv_sec);/' "$DATA/sift.cu" >"$WORK/sift_wallclock.cu"
# A stage's timer: more device work follows the timer's wait in the same call of extract().
sed 's/^    printf("%.2f ms\\n", timer.read());/&\
    find<<<1, 1>>>(d_count);/' "$DATA/sift.cu" >"$WORK/sift_stage.cu"
# warm_up.cu: a warm-up launch, a wait, then the timed launches between two events, as a
# benchmark writes it (the developer blog's nvml/matrixMul.cu, held-out-34's shape CK): the wait
# lets the timed region start on an idle device, a note; with a launch between the wait and the
# start event, a warning.
sed 's/^    cudaEventRecord(start, 0);/    find<<<1, 1>>>(d_count);\
&/' "$DATA/warm_up.cu" >"$WORK/warm_up_launch.cu"
# warm_up_once.cu: the region runs the work once, as a stage that times its own step does (no
# benchmark's repetitions): the wait stalls every call and the events time the work without
# it, a warning (review 41). warm_up_if.cu: the start is recorded only on some runs, a warning.
sed '/^    for (int i = 0; i < 300; i++)$/d' "$DATA/warm_up.cu" >"$WORK/warm_up_once.cu"
sed 's/^    cudaEventRecord(start, 0);/    if (d_count != NULL)\
    &/' "$DATA/warm_up.cu" >"$WORK/warm_up_if.cu"
WARM_UP="the next device call, 'cudaEventRecord' at line 16, records the event that starts a timed region: the wait lets the region start on an idle device, part of a measurement"
MEASURE="; the loop times its iterations ('cudaEventElapsedTime' at sift.cu:12, in 'extract()', which it calls): the wait is part of a measurement [SYNC401 sync-in-loop]"
for way in "no cache, -j 1" "cold cache" "warm cache"; do
    case_db sift.cu timed.cpp "$way"
    text "timed, $way" sync401 "src/sift.cu:11 note"
    grep -qF "$MEASURE" out || fails "timed, $way" "no '$MEASURE' in $(cat out)"
    case_db sift.cu other.cpp "$way"
    text "other, $way" sync401 "src/sift.cu:11 warning"
    case_db sift.cu via.cpp "$way"
    text "via, $way" sync401 "src/sift.cu:11 warning"
    case_db sift_stage.cu timed.cpp "$way"
    text "stage, $way" sync401 "src/sift_stage.cu:11 warning"
    case_db sift_noclock.cu timed.cpp "$way"
    text "noclock, $way" sync401 "src/sift_noclock.cu:24 warning"
    case_db sift_wallclock.cu timed.cpp "$way"
    text "wall clock, $way" sync401 "src/sift_wallclock.cu:25 warning"
    case_db warm_up.cu timed.cpp "$way"
    text "warm-up, $way" sync401 "src/warm_up.cu:8 note
src/warm_up.cu:20 note"
    grep -qF "$WARM_UP" out || fails "warm-up, $way" "no '$WARM_UP' in $(cat out)"
    case_db warm_up_launch.cu timed.cpp "$way"
    text "warm-up then a launch, $way" sync401 "src/warm_up_launch.cu:8 warning
src/warm_up_launch.cu:21 note"
    case_db warm_up_once.cu timed.cpp "$way"
    text "warm-up, one timed launch, $way" sync401 "src/warm_up_once.cu:8 warning
src/warm_up_once.cu:19 note"
    case_db warm_up_if.cu timed.cpp "$way"
    text "warm-up, a record under a condition, $way" sync401 "src/warm_up_if.cu:8 warning
src/warm_up_if.cu:21 note"
    case_db level.cu readback.cpp "$way"
    text "readback, $way" sync401 "src/level.cu:7 warning
src/level.cu:13 warning"
done
exit $fail
