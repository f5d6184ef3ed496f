#!/bin/sh
# loop_copy_elsewhere.sh SYNCSCOPE DATA_DIR: synchronous copies in functions that another unit
# calls from a loop, through functions of its own (-p). neurons.cu defines launchStep() (two
# kernels) and four functions that each make one synchronous cudaMemcpy and nothing else, with
# no stream and no loop: no finding in their unit. net.cpp only declares them: Net::run()'s step
# loop calls Net::advance(), whose loop over the groups calls launchStep(), and
# Net::fetchSpikeCount(), whose loop over the groups calls copySpikeCount() (the direction a
# parameter, given cudaMemcpyDeviceToHost): a SYNC202 note at the copy that names the step loop
# and the work it queues through another unit, and says why it is a note (what the loop's host
# code does with the data is not followed across units). The same copy chain from set-up code stays a
# note: the constructor's loop (copyPotentials) and setupNet's (copyWeights), which launch too.
# copyLabels() is called once (Net::sample() from main) and from summarize()'s loop, which
# queues no device work: no finding. The same at -j 1 and -j 2, with and without the cache
# (exact output); without net.cpp in the run, nothing is reported.
set -u
SS=$(realpath "$1") DATA=$(realpath "$2")/loop_copy_elsewhere HERE=$(dirname "$(realpath "$0")")
fail=0
. "$HERE/assert.sh"
. "$HERE/units.sh"
workspace "$DATA"
database neurons.cu net.cpp main.cpp

COPY="until the device has finished the work queued before it: copies and kernels never overlap"
R202="[SYNC202 sync-copy-in-pipeline]"
W15="src/neurons.cu:15:5: note: synchronous copy 'cudaMemcpy' in 'copySpikeCount()' blocks the host on every call of 'copySpikeCount()' $COPY; it runs on every iteration: 'Net::fetchSpikeCount()', which reaches it, is called from the loop at net.cpp:37, in 'Net::run' (another unit); the loop queues device work through 'Net::advance()', which reaches a function of another unit that does; a note: whether the loop's host code needs the copied data at once is decided in another unit, which lint does not follow for a copy $R202"
N20="src/neurons.cu:20:5: note: synchronous copy 'cudaMemcpy' in 'copyPotentials()' blocks the host on every call of 'copyPotentials()' $COPY; it runs on every iteration: 'copyPotentials()' is called from the loop at net.cpp:45, in 'Net::Net' (another unit); the loop queues device work through 'launchStep()' (another unit); set-up: the loop at line 45 runs during set-up: 'Net::Net' is a constructor $R202"
N25="src/neurons.cu:25:5: note: synchronous copy 'cudaMemcpy' in 'copyWeights()' blocks the host on every call of 'copyWeights()' $COPY; it runs on every iteration: 'copyWeights()' is called from the loop at net.cpp:53, in 'setupNet' (another unit); the loop queues device work through 'launchStep()' (another unit); set-up: the loop at line 53 runs during set-up: 'setupNet' sets up (its name says so) $R202"

for run in "no cache, -j 1" "no cache, -j 2" "cold cache" "warm cache"; do
    lint_way "$run"
    status "$run" 0
    grep -E 'SYNC(202|301|401)' out >found
    text "$run: SYNC202" found "$W15
$N20
$N25"
done

# Without the unit with the loops: nothing calls the functions from a loop, nothing is reported.
database neurons.cu main.cpp
ss lint --no-cache --color never --cuda-path none -p build
grep -E 'SYNC(202|301|401)' out >found
text "without net.cpp: SYNC202" found ""
exit $fail
