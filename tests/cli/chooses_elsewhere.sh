#!/bin/sh
# chooses_elsewhere.sh SYNCSCOPE DATA_DIR: waits for a readback in functions that another unit
# calls from its loop (-p; docs/lint.md, "Waits in a function another unit calls from a loop"):
# render.cu's render() waits for a hit count that each branch of an 'if' on another value needs
# first, to size a launch or an allocation ("inherent: ... which chooses the next device work"),
# a note, as in a loop of the unit; render_argument() passes the count to a kernel only, and
# its wait stays a warning. The same at -j 1 and -j 2, with and without the cache (exact output).
CASE=chooses_elsewhere
. "$(dirname "$(realpath "$0")")/project_case.sh"
database render.cu main.cpp

DRAINS="blocks the host on every call of 'frame()', which also enqueues device work (in the functions it calls): the GPU drains and idles while the host catches up"
LOOP="it runs on every iteration: 'frame()' is called from the loop at main.cpp:6, in 'main' (another unit) [SYNC401 sync-in-loop]"
N19="src/render.cu:19:5: note: 'cudaStreamSynchronize' in 'render()' called from 'frame()' $DRAINS; inherent: it waits for the value read back at line 18, which chooses the next device work (each branch of line 20's 'if' needs it first: line 21 sizes a launch with it; line 23 sizes an allocation with it); as written: to remove the stall, let the kernels read the value on the device and read it back only every few iterations, launching for the last value read; $LOOP"
W34="src/render.cu:34:5: warning: 'cudaStreamSynchronize' in 'render_argument()' called from 'frame()' $DRAINS; $LOOP"

for run in "no cache, -j 1" "no cache, -j 2" "cold cache" "warm cache"; do
    lint_way "$run"
    grep SYNC401 out >sync401
    text "$run: SYNC401" sync401 "$N19
$W34"
done
exit $fail
