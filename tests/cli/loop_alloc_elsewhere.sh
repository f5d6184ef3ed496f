#!/bin/sh
# loop_alloc_elsewhere.sh SYNCSCOPE DATA_DIR: allocations and frees (SYNC402) in functions that
# another unit calls from a loop (-p). solver.cu defines the functions, none of them called in a
# loop of its own; driver.c (C) only declares them. run()'s step loop calls advance(), which
# calls relaxGrid() (a launch: the loop's work, through another unit) and then:
# - rebin(), whose static helper histogram() makes a cudaMalloc and a cudaFree around a launch;
# - stageRows(), whose grow guard records the size in a local that every call starts at 0: it
#   guards nothing;
# each a SYNC402 note that names the step loop (driver.c:34, 'run') and the work it queues, and
# says why it is a note (whether hoisting is worth it is decided across units);
# - reserveBins() (a grow guard at its call of resizeBins(), on the way up), growScratch() (a
#   grow guard around its calls) and attachHalo() (allocated while unset): nothing, as such
#   guards make a note within one unit;
# - resizeTable() (a cudaFree and a cudaMalloc, no guard in solver.cu), which advance() calls
#   under a grow guard of its own (driver.c:26, 'tableCap' recorded): nothing, the guard lying on
#   the way from the loop, in the loop's unit.
# setupLevels()'s loop calls relaxGrid() and seedLevel() (a cudaMalloc and a cudaFree): notes
# with the set-up reason. newGrid() runs once, from main outside any loop, and probeMemory() from
# survey()'s loop, which queues no device work: nothing. The same at -j 1 and -j 2, with and
# without the cache (exact output); without driver.c in the run, nothing is reported.
set -u
SS=$(realpath "$1") DATA=$(realpath "$2")/loop_alloc_elsewhere HERE=$(dirname "$(realpath "$0")")
fail=0
. "$HERE/assert.sh"
. "$HERE/units.sh"
workspace "$DATA"
database solver.cu driver.c

R402="[SYNC402 device-wide-sync-call]"
STEP="it runs on every iteration: 'advance()', which reaches it, is called from the loop at driver.c:34, in 'run' (another unit); the loop queues device work through 'advance()', which reaches a function of another unit that does; a note: whether it is worth hoisting out of the loop is decided across units (the loop in one, the call in another), which lint does not weigh $R402"
SETUP="it runs on every iteration: 'seedLevel()' is called from the loop at driver.c:40, in 'setupLevels' (another unit); the loop queues device work through 'relaxGrid()' (another unit); set-up: the loop at line 40 runs during set-up: 'setupLevels' sets up (its name says so) $R402"
N21="src/solver.cu:21:5: note: 'cudaMalloc' in 'histogram()' called from 'rebin()' synchronizes the whole device on every call of 'rebin()'; $STEP"
N23="src/solver.cu:23:5: note: 'cudaFree' in 'histogram()' called from 'rebin()' synchronizes the whole device on every call of 'rebin()'; $STEP"
N72="src/solver.cu:72:9: note: 'cudaMalloc' in 'stageRows()' synchronizes the whole device on every call of 'stageRows()'; $STEP"
N76="src/solver.cu:76:5: note: 'cudaFree' in 'stageRows()' synchronizes the whole device on every call of 'stageRows()'; $STEP"
N82="src/solver.cu:82:5: note: 'cudaMalloc' in 'seedLevel()' synchronizes the whole device on every call of 'seedLevel()'; $SETUP"
N84="src/solver.cu:84:5: note: 'cudaFree' in 'seedLevel()' synchronizes the whole device on every call of 'seedLevel()'; $SETUP"

for run in "no cache, -j 1" "no cache, -j 2" "cold cache" "warm cache"; do
    lint_way "$run"
    status "$run" 0
    grep -E 'SYNC(202|401|402)' out >found
    text "$run: SYNC402" found "$N21
$N23
$N72
$N76
$N82
$N84"
done

# With warnings failing the run: all six are notes, the status stays 0.
ss lint --no-cache --color never --cuda-path none --fail-on warning -p build
status "--fail-on warning" 0

# Without the unit with the loops: nothing calls the functions from a loop, nothing is reported.
database solver.cu
ss lint --no-cache --color never --cuda-path none -p build
grep -E 'SYNC(202|401|402)' out >found
text "without driver.c: SYNC402" found ""
exit $fail
