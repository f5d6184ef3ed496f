#!/bin/sh
# loop_elsewhere.sh SYNCSCOPE DATA_DIR: waits in functions that another unit calls from a loop
# (-p). solver.cu defines advance(), InitGrid(), report(), reset() and relax(), each launching
# kernels and waiting; driver.cpp only declares them and calls advance() and reset() from its
# step loop, InitGrid() from the loop of a set-up function, report() outside any loop, and
# smooth() of stepper.cpp, which calls relax() outside any loop, from the step loop. The waits
# reached from advance() (the error check of guard.h after a kernel, and a stream wait) and
# relax's (through smooth()) are SYNC401 warnings that name driver.cpp's loop; InitGrid's is a
# note (set-up), reset's (through the static scratch()) a note (periodic: every 100 steps);
# report's is not reported. The same at -j 1 and -j 2, with and without the cache (exact
# output); without driver.cpp in the run, nothing is reported, as before.
set -u
SS=$(realpath "$1") DATA=$(realpath "$2")/loop_elsewhere HERE=$(dirname "$(realpath "$0")")
fail=0
. "$HERE/assert.sh"
. "$HERE/units.sh"
workspace "$DATA"
database solver.cu driver.cpp stepper.cpp

DRAINS="the GPU drains and idles while the host catches up"
STEP="it runs on every iteration: 'advance()' is called from the loop at driver.cpp:15, in 'main' (another unit)"
R401="[SYNC401 sync-in-loop]"
W5="src/guard.h:5:21: warning: 'cudaDeviceSynchronize' in 'guard_kernel()' called from 'advance()' blocks the host on every call of 'advance()', which also enqueues device work (kernel 'flux' is launched at line 6): $DRAINS; $STEP $R401"
W9="src/solver.cu:9:5: warning: 'cudaStreamSynchronize' in 'advance()' blocks the host on every call of 'advance()', which also enqueues device work (kernel 'flux' is launched at line 6): $DRAINS; $STEP $R401"
N14="src/solver.cu:14:5: note: 'cudaDeviceSynchronize' in 'InitGrid()' blocks the host on every call of 'InitGrid()', which also enqueues device work (kernel 'flux' is launched at line 13): $DRAINS; it runs on every iteration: 'InitGrid()' is called from the loop at driver.cpp:8, in 'InitLevels' (another unit); set-up: the loop at line 8 runs during set-up: 'InitLevels' sets up (its name says so) $R401"
W30="src/solver.cu:30:5: warning: 'cudaDeviceSynchronize' in 'relax()' blocks the host on every call of 'relax()', which also enqueues device work (kernel 'update' is launched at line 29): $DRAINS; it runs on every iteration: 'smooth()', which reaches it, is called from the loop at driver.cpp:15, in 'main' (another unit) $R401"
N24="src/solver.cu:24:5: note: 'cudaDeviceSynchronize' in 'scratch()' called from 'reset()' blocks the host on every call of 'reset()', which also enqueues device work (in the functions it calls): $DRAINS; it runs on every iteration: 'reset()' is called from the loop at driver.cpp:15, in 'main' (another unit); periodic: it runs once in a while (line 18 tests 'step % 100 == 0') $R401"

for run in "no cache, -j 1" "no cache, -j 2" "cold cache" "warm cache"; do
    lint_way "$run"
    status "$run" 1
    grep SYNC401 out >sync401
    text "$run: SYNC401" sync401 "$W5
$W9
$N14
$N24
$W30"
done

# Without the unit with the loops: no loop calls the functions, nothing is reported.
ss lint --no-cache --color never --cuda-path none -p build src/solver.cu
grep SYNC401 out >sync401
text "solver.cu alone: SYNC401" sync401 ""
exit $fail
