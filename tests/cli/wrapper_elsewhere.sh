#!/bin/sh
# wrapper_elsewhere.sh SYNCSCOPE DATA_DIR: a wait for the whole device through another unit's
# wrapper, in a function that a third unit calls from a loop (-p). device.cpp defines
# Device::Finish (a cudaDeviceSynchronize wrapper) and Device::FinishStream (a stream wait);
# grid.cu's functions launch kernels and call them; scene.cpp calls Grid::rebuild(),
# Grid::query() and Grid::prefetch() from its step loop, Grid::InitBins() from a set-up loop and
# Grid::summary() outside any loop. rebuild's two calls of Device::Finish are SYNC401 warnings
# at the call that name the loop and the wrapper's wait; InitBins's is a note (set-up);
# prefetch's, before any work, a note (the loop waited for the device right before the call);
# query's stream wrapper and summary's call are not reported. The same at -j 1 and -j 2, with
# and without the cache, and with the units in another order (exact output); without
# device.cpp or without scene.cpp in the run, nothing is reported at the wrapper's calls.
set -u
SS=$(realpath "$1") DATA=$(realpath "$2")/wrapper_elsewhere HERE=$(dirname "$(realpath "$0")")
fail=0
. "$HERE/assert.sh"
. "$HERE/units.sh"
workspace "$DATA"

DRAINS="the GPU drains and idles while the host catches up"
R401="[SYNC401 sync-in-loop]"
WHOLE="through 'Device::Finish()', defined in device.cpp:6, which waits for the whole device ('cudaDeviceSynchronize' at device.cpp:8)"
# Device::ScrubFinish queues a memset before its wait: its calls are not taken for waits at the
# start of Grid::scrubbed (nothing to wait for there would be false), and its own wait is the
# one finding, where it is.
D15="src/device.cpp:15:5: warning: 'cudaDeviceSynchronize' in 'Device::ScrubFinish()' blocks the host on every call of 'Device::ScrubFinish()', which also enqueues device work ('cudaMemsetAsync' enqueues work at line 14): $DRAINS; it runs on every iteration: 'Grid::scrubbed()', which reaches it, is called from the loop at scene.cpp:14, in 'main' (another unit) $R401"
REBUILD="'Device::Finish' in 'Grid::rebuild()' blocks the host on every call of 'Grid::rebuild()', which also enqueues device work (kernel 'bin' is launched at line 14): $DRAINS; it runs on every iteration: 'Grid::rebuild()' is called from the loop at scene.cpp:14, in 'main' (another unit); $WHOLE $R401"
N10="src/grid.cu:10:5: note: 'Device::Finish' in 'Grid::InitBins()' blocks the host on every call of 'Grid::InitBins()', which also enqueues device work (kernel 'bin' is launched at line 9): $DRAINS; it runs on every iteration: 'Grid::InitBins()' is called from the loop at scene.cpp:5, in 'InitLevels' (another unit); set-up: the loop at line 5 runs during set-up: 'InitLevels' sets up (its name says so); $WHOLE $R401"
W15="src/grid.cu:15:5: warning: $REBUILD"
W17="src/grid.cu:17:5: warning: $REBUILD"
N26="src/grid.cu:26:5: note: 'Device::Finish' in 'Grid::prefetch()' blocks the host on every call of 'Grid::prefetch()', which also enqueues device work (kernel 'bin' is launched at line 27): $DRAINS; it runs on every iteration: 'Grid::prefetch()' is called from the loop at scene.cpp:14, in 'main' (another unit); idle: where the loop at scene.cpp:14 calls it (line 18), the device was synchronized at line 17 and nothing was queued since, and 'Grid::prefetch()' waits before it queues anything: the wait has nothing to wait for; $WHOLE $R401"

for order in "device.cpp grid.cu scene.cpp" "scene.cpp grid.cu device.cpp"; do
    # shellcheck disable=SC2086
    database $order
    for run in "no cache, -j 1" "no cache, -j 2" "cold cache" "warm cache"; do
        lint_way "$run"
        status "$order, $run" 1
        grep SYNC401 out >sync401
        text "$order, $run: SYNC401" sync401 "$D15
$N10
$W15
$W17
$N26"
    done
    rm -rf cache
done

# A unit left out: without the wrapper's summary or without the loop, nothing is reported.
database device.cpp grid.cu scene.cpp
ss lint --no-cache --color never --cuda-path none -p build src/grid.cu src/scene.cpp
grep SYNC401 out >sync401
text "without device.cpp: SYNC401" sync401 ""
ss lint --no-cache --color never --cuda-path none -p build src/device.cpp src/grid.cu
grep SYNC401 out >sync401
text "without scene.cpp: SYNC401" sync401 ""
exit $fail
