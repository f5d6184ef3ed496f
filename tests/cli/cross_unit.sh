#!/bin/sh
# cross_unit.sh SYNCSCOPE DATA_DIR: waits through functions another unit defines (-p). utils.cpp
# defines SynchronizeDevice and Timer::Stop, which wait for the whole device on every way out;
# learner.cu only declares them. Their calls in learner.cu's per-split loops are SYNC401
# warnings at the call's line that name the function and its wait, the one in a set-up loop a
# note; the calls of a stream wait, of a wait on one branch only, of a wait followed by a copy,
# and the one outside any loop are not reported. A launch on the legacy stream between two
# waits for the whole device with no work on another stream between is a note (line 16 through
# the wrappers, line 35 through cudaDeviceSynchronize itself); one followed by a launch on a
# stream (37) or by a wrapper that is no such wait (40) stays a warning. The same at -j 1 and
# -j 2, with and without the cache (exact output); without utils.cpp in the run, no SYNC401
# at the wrappers' calls, and line 16 stays a warning.
set -u
SS=$(realpath "$1") DATA=$(realpath "$2")/cross_unit HERE=$(dirname "$(realpath "$0")")
fail=0
. "$HERE/assert.sh"
. "$HERE/units.sh"
workspace "$DATA"
database utils.cpp learner.cu

DRAINS="the GPU drains and idles while the host catches up"
LOOP="blocks the host on every iteration of a for loop (line 13) that also enqueues device work (kernel 'split' is launched at line 14): $DRAINS"
SETUP="blocks the host on every iteration of a for loop (line 26) that also enqueues device work (kernel 'split' is launched at line 27): $DRAINS; set-up: the loop at line 26 runs during set-up: 'InitLeaves' sets up (its name says so)"
STEP="blocks the host on every iteration of a for loop (line 33) that also enqueues device work (kernel 'update' is launched at line 35): $DRAINS"
WHOLE="waits for the whole device ('cudaDeviceSynchronize' at utils.cpp:15)"
DEVICE="through 'SynchronizeDevice()', defined in utils.cpp:13, which $WHOLE"
R401="[SYNC401 sync-in-loop]" R101="[SYNC101 default-stream-launch]"
W15="src/learner.cu:15:9: warning: 'SynchronizeDevice' in 'Train' $LOOP; $DEVICE $R401"
W17="src/learner.cu:17:9: warning: 'SynchronizeDevice' in 'Train' $LOOP; $DEVICE $R401"
W21="src/learner.cu:21:9: warning: 'Timer::Stop' in 'Train' $LOOP; through 'Timer::Stop()', defined in utils.cpp:31, which $WHOLE $R401"
N28="src/learner.cu:28:9: note: 'SynchronizeDevice' in 'InitLeaves' $SETUP; $DEVICE $R401"
W34="src/learner.cu:34:9: warning: 'cudaDeviceSynchronize' in 'Step' $STEP $R401"
W36="src/learner.cu:36:9: warning: 'cudaDeviceSynchronize' in 'Step' $STEP $R401"
W39="src/learner.cu:39:9: warning: 'SynchronizeDevice' in 'Step' $STEP; $DEVICE $R401"
# SynchronizeThenCopy waits for the whole device and then queues a copy: not such a wait, so its
# call at learner.cu:20 is not reported; its own wait is, as a wait in a function that
# learner.cu's loop calls on every iteration (project_loops.c).
W28="src/utils.cpp:28:5: warning: 'cudaDeviceSynchronize' in 'SynchronizeThenCopy()' blocks the host on every call of 'SynchronizeThenCopy()', which also enqueues device work ('cudaMemcpyAsync' enqueues work at line 29): $DRAINS; it runs on every iteration: 'SynchronizeThenCopy()' is called from the loop at learner.cu:13, in 'Train' (another unit) $R401"

LEGACY="without a stream: it runs on the legacy default stream"
NOTHING="with no work on another stream queued between them on any way the unit reaches this call: there is nothing for the legacy stream to hold up or wait for"
EVERY="it runs on every iteration of the loop at line"
N8="src/learner.cu:8:5: note: kernel 'split' is launched in 'Init' $LEGACY; it runs once: outside any loop, and 'Init' sets up, checks or tears down (its name says so) $R101"
W16="src/learner.cu:16:9: warning: kernel 'update' is launched in 'Train' $LEGACY; $EVERY 13, which enqueues device work $R101"
N16="src/learner.cu:16:9: note: kernel 'update' is launched in 'Train' $LEGACY; $EVERY 13, which enqueues device work; between waits: 'SynchronizeDevice' at learner.cu:15 drained the device and 'SynchronizeDevice' at learner.cu:17 waits for it next, $NOTHING ('SynchronizeDevice()', defined in utils.cpp:13, $WHOLE) $R101"
N27="src/learner.cu:27:9: note: kernel 'split' is launched in 'InitLeaves' on the legacy default stream (stream '0'); set-up: the loop at line 26 runs during set-up: 'InitLeaves' sets up (its name says so) $R101"
N35="src/learner.cu:35:9: note: kernel 'update' is launched in 'Step' $LEGACY; between waits: 'cudaDeviceSynchronize' at learner.cu:34 drained the device and 'cudaDeviceSynchronize' at learner.cu:36 waits for it next, $NOTHING $R101"
W37="src/learner.cu:37:9: warning: kernel 'update' is launched in 'Step' $LEGACY; $EVERY 33, which enqueues device work $R101"
W40="src/learner.cu:40:9: warning: kernel 'update' is launched in 'Step' $LEGACY; $EVERY 33, which enqueues device work $R101"

for run in "no cache, -j 1" "no cache, -j 2" "cold cache" "warm cache"; do
    lint_way "$run"
    status "$run" 1
    grep SYNC401 out >sync401
    text "$run: SYNC401" sync401 "$W15
$W17
$W21
$N28
$W34
$W36
$W39
$W28"
    grep SYNC101 out >sync101
    text "$run: SYNC101" sync101 "$N8
$N16
$N27
$N35
$W37
$W40"
done

# Without the unit that defines the waits: no SYNC401 at their calls, line 16 a warning.
ss lint --no-cache --color never --cuda-path none -p build src/learner.cu
grep SYNC401 out >sync401
text "learner.cu alone: SYNC401" sync401 "$W34
$W36"
grep SYNC101 out >sync101
text "learner.cu alone: SYNC101" sync101 "$N8
$W16
$N27
$N35
$W37
$W40"
exit $fail
