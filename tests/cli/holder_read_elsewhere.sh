#!/bin/sh
# holder_read_elsewhere.sh SYNCSCOPE DATA_DIR: stream waits that complete a readback, in
# functions that another unit calls from a loop (-p). coder.cu's encode_packed() copies the
# coefficients into a member of the coder it is given, waits, records an optional timer's event
# and hands the coder to pack(); encode_segments() reads the copied segment table in a loop
# under an 'if' right after its wait: notes, "inherent: the next statement needs the value", as
# for a loop in the unit. encode_unread() reads only another member after its wait: a warning.
# The same at -j 1 and -j 2, with and without the cache (exact output).
set -u
SS=$(realpath "$1") DATA=$(realpath "$2")/holder_read_elsewhere HERE=$(dirname "$(realpath "$0")")
fail=0
. "$HERE/assert.sh"
. "$HERE/units.sh"
workspace "$DATA"
database coder.cu driver.cpp

DRAINS="the GPU drains and idles while the host catches up"
R401="[SYNC401 sync-in-loop]"
N9="src/coder.cu:9:5: note: 'cudaStreamSynchronize' in 'encode_packed()' blocks the host on every call of 'encode_packed()', which also enqueues device work (kernel 'quantize' is launched at line 7): $DRAINS; inherent: the next statement needs the value (line 13 passes 'c', which holds 'h_coef', to 'pack()', past line 10, which only records an event); it runs on every iteration: 'encode_packed()' is called from the loop at driver.cpp:7, in 'main' (another unit) $R401"
N20="src/coder.cu:20:5: note: 'cudaStreamSynchronize' in 'encode_segments()' blocks the host on every call of 'encode_segments()', which also enqueues device work (kernel 'quantize' is launched at line 18): $DRAINS; inherent: the next statement needs the value (line 22 reads 'h_segs' in a loop (line 23)); it runs on every iteration: 'encode_segments()' is called from the loop at driver.cpp:7, in 'main' (another unit) $R401"
W33="src/coder.cu:33:5: warning: 'cudaStreamSynchronize' in 'encode_unread()' blocks the host on every call of 'encode_unread()', which also enqueues device work (kernel 'quantize' is launched at line 31): $DRAINS; it runs on every iteration: 'encode_unread()' is called from the loop at driver.cpp:7, in 'main' (another unit) $R401"

for run in "no cache, -j 1" "no cache, -j 2" "cold cache" "warm cache"; do
    lint_way "$run"
    status "$run" 1
    grep SYNC401 out >sync401
    text "$run: SYNC401" sync401 "$N9
$N20
$W33"
done
exit $fail
