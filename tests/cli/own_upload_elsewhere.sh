#!/bin/sh
# own_upload_elsewhere.sh SYNCSCOPE DATA_DIR: event waits in functions that another unit calls
# from a loop (-p). pipeline.cu's batch() waits for the event it records right after uploading
# its pinned table of lanes, rewrites the table right after the wait, and launches a kernel
# behind the record (the constructor pins the table, the only store into it in the unit): a
# note ("own upload": the host waits for its own earlier upload, the device works through the
# kernel). batch_kernel() records its event after a kernel: a warning.
# The same at -j 1 and -j 2, with and without the cache (exact output).
set -u
SS=$(realpath "$1") DATA=$(realpath "$2")/own_upload_elsewhere HERE=$(dirname "$(realpath "$0")")
fail=0
. "$HERE/assert.sh"
. "$HERE/units.sh"
workspace "$DATA"
database pipeline.cu driver.cpp

DRAINS="the GPU drains and idles while the host catches up"
R401="[SYNC401 sync-in-loop]"
N7="src/pipeline.cu:7:5: note: 'cudaEventSynchronize' in 'Pipeline::batch()' blocks the host on every call of 'Pipeline::batch()', which also enqueues device work ('cudaMemcpyAsync' enqueues work at line 10): $DRAINS; own upload: it waits for its own earlier upload from 'h_lanes', the host buffer that line 8 rewrites next: 'ev' is recorded only right after an upload from it (line 10), with device work queued behind the record (line 12), which the device works through while the host waits; it runs on every iteration: 'Pipeline::batch()' is called from the loop at driver.cpp:6, in 'main' (another unit) $R401"
W17="src/pipeline.cu:17:5: warning: 'cudaEventSynchronize' in 'Pipeline::batch_kernel()' blocks the host on every call of 'Pipeline::batch_kernel()', which also enqueues device work ('cudaMemcpyAsync' enqueues work at line 20): $DRAINS; it runs on every iteration: 'Pipeline::batch_kernel()' is called from the loop at driver.cpp:6, in 'main' (another unit) $R401"

for run in "no cache, -j 1" "no cache, -j 2" "cold cache" "warm cache"; do
    lint_way "$run"
    status "$run" 1
    grep SYNC401 out >sync401
    text "$run: SYNC401" sync401 "$N7
$W17"
done
exit $fail
