#!/bin/sh
# lambda_stored.sh SYNCSCOPE DATA_DIR: lambdas written in another unit's loop (-p). main.cpp's
# loop in build() pushes a lambda calling stored() into a vector of std::function, assigns one
# calling assigned() to a std::function that it calls after the loop, hands one calling handed()
# to on_devices() (declared only: it may call it), invokes one calling invoked() where it is
# written, and keeps one calling bound() in a local std::function that it calls. work.cu defines
# the five, each of which launches and waits for the device. The loop runs the last three, whose
# waits are SYNC401 warnings naming it; stored() and assigned() run after the loop, and their
# waits are not reported. The same at -j 1 and -j 2, with and without the cache, and with the
# units in another order.
set -u
SS=$(realpath "$1") DATA=$(realpath "$2")/lambda_stored HERE=$(dirname "$(realpath "$0")")
fail=0
. "$HERE/assert.sh"
. "$HERE/units.sh"
workspace "$DATA"

EVERY="the GPU drains and idles while the host catches up; it runs on every iteration"
W16="src/work.cu:16:5: warning: 'cudaDeviceSynchronize' in 'handed()' blocks the host on every call of 'handed()', which also enqueues device work (kernel 'gain' is launched at line 15): $EVERY: 'handed()' is called from the loop at main.cpp:8, in 'build' (another unit) [SYNC401 sync-in-loop]"
W21="src/work.cu:21:5: warning: 'cudaDeviceSynchronize' in 'invoked()' blocks the host on every call of 'invoked()', which also enqueues device work (kernel 'gain' is launched at line 20): $EVERY: 'invoked()' is called from the loop at main.cpp:8, in 'build' (another unit) [SYNC401 sync-in-loop]"
W26="src/work.cu:26:5: warning: 'cudaDeviceSynchronize' in 'bound()' blocks the host on every call of 'bound()', which also enqueues device work (kernel 'gain' is launched at line 25): $EVERY: 'bound()' is called from the loop at main.cpp:8, in 'build' (another unit) [SYNC401 sync-in-loop]"

for order in "main.cpp work.cu" "work.cu main.cpp"; do
    # shellcheck disable=SC2086
    database $order
    for run in "no cache, -j 1" "no cache, -j 2" "cold cache" "warm cache"; do
        lint_way "$run"
        status "$order, $run" 1
        grep SYNC401 out >sync401
        text "$order, $run: SYNC401" sync401 "$W16
$W21
$W26"
    done
    rm -rf cache
done
exit $fail
