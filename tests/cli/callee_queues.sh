#!/bin/sh
# callee_queues.sh SYNCSCOPE DATA_DIR: a call of another unit's function that waits for the
# whole device, in a loop that does device work, after a wait that drained the device (-p;
# "Across units", docs/lint.md). halo.cu's wrap_halo, zero_then_settle and wrap_if_periodic
# queue work of their own (a launch, a memset, a launch on one branch) before their wait: their
# calls at advance.cu:17, 27, 37 are SYNC401 warnings, which name that work (the wait before the
# call drained nothing their wait waits for). settle only waits and settle_then_zero clears a
# buffer after its wait: their calls at 22 and 32 stay "drained" notes. In advance_twice the
# wait before the second call is settle() (another unit's too): wrap_halo's call (48) is a
# warning, the second settle() (53) a note, "across units". With halo_off.cu, another build of
# wrap_halo that only waits, beside halo.cu the weaker build answers (warnings); with it alone,
# notes. The same at -j 1 and -j 2, with and without the cache, in either order (exact output).
set -u
SS=$(realpath "$1") DATA=$(realpath "$2")/callee_queues HERE=$(dirname "$(realpath "$0")")
fail=0
. "$HERE/assert.sh"
. "$HERE/units.sh"
workspace "$DATA"

DRAINS="the GPU drains and idles while the host catches up"
R401="[SYNC401 sync-in-loop]"
# loop LINE: the loop of 'advance' at LINE, whose relax launch is on the next line.
loop() {
    echo "blocks the host on every iteration of a for loop (line $1) that also enqueues device work (kernel 'relax' is launched at line $(($1 + 1))): $DRAINS"
}
# drained LINE: the wait at advance.cu:LINE drained the device.
drained() {
    echo "drained: the device has nothing queued here: 'cudaDeviceSynchronize' at advance.cu:$1 drained it, and no work is queued between it and this call on any way the unit reaches it: the wait waits for nothing else"
}
OWN="that wait waits for it, whatever was drained before the call"
WRAP="through 'wrap_halo()', defined in halo.cu:6, which waits for the whole device ('cudaDeviceSynchronize' at halo.cu:9) after queuing work of its own (kernel 'wrap_cells' launched at halo.cu:8): $OWN"
SETTLE="through 'settle()', defined in halo.cu:11, which waits for the whole device ('cudaDeviceSynchronize' at halo.cu:11)"
W17="src/advance.cu:17:9: warning: 'wrap_halo' in 'advance' $(loop 14); $WRAP $R401"
N22="src/advance.cu:22:9: note: 'settle' in 'advance' $(loop 19); $(drained 21); $SETTLE $R401"
W27="src/advance.cu:27:9: warning: 'zero_then_settle' in 'advance' $(loop 24); through 'zero_then_settle()', defined in halo.cu:12, which waits for the whole device ('cudaDeviceSynchronize' at halo.cu:15) after queuing work of its own ('cudaMemset' at halo.cu:14): $OWN $R401"
N32="src/advance.cu:32:9: note: 'settle_then_zero' in 'advance' $(loop 29); $(drained 31); through 'settle_then_zero()', defined in halo.cu:17, which waits for the whole device ('cudaDeviceSynchronize' at halo.cu:19) $R401"
W37="src/advance.cu:37:9: warning: 'wrap_if_periodic' in 'advance' $(loop 34); through 'wrap_if_periodic()', defined in halo.cu:22, which waits for the whole device ('cudaDeviceSynchronize' at halo.cu:26) after queuing work of its own (kernel 'wrap_cells' launched at halo.cu:25): $OWN $R401"
W47="src/advance.cu:47:9: warning: 'settle' in 'advance_twice' $(loop 45); $SETTLE $R401"
W48="src/advance.cu:48:9: warning: 'wrap_halo' in 'advance_twice' $(loop 45); $WRAP $R401"
W52="src/advance.cu:52:9: warning: 'settle' in 'advance_twice' $(loop 50); $SETTLE $R401"
N53="src/advance.cu:53:9: note: 'settle' in 'advance_twice' $(loop 50); $SETTLE; drained: the device has nothing queued here: 'settle' at advance.cu:52 drained it, and no work is queued between it and this call on any way the unit reaches it: the wait waits for nothing else (across units: 'settle()', defined in halo.cu:11, ends with the device drained (by 'cudaDeviceSynchronize' at halo.cu:11)) $R401"
ALL="$W17
$N22
$W27
$N32
$W37
$W47
$W48
$W52
$N53"

# The SYNC401 findings at the calls of halo.cu's functions (the loops' own waits aside).
calls() {
    grep -E "^src/advance\.cu:[0-9]+:9: [a-z]+: '[a-z_]+' in 'advance(_twice)?' .*SYNC401" out |
        grep -v "'cudaDeviceSynchronize' in" >sync401
}

for order in "halo.cu advance.cu" "advance.cu halo.cu"; do
    # shellcheck disable=SC2086
    database $order
    for run in "no cache, -j 1" "no cache, -j 2" "cold cache" "warm cache"; do
        lint_way "$run"
        status "$order, $run" 1
        calls
        text "$order, $run: SYNC401" sync401 "$ALL"
    done
    rm -rf cache
done

# Two builds of wrap_halo: the one that queues work answers, in either order, from the cache too.
OFF_WRAP=$(printf '%s\n' "$W17" "$W48")
for order in "halo_off.cu halo.cu advance.cu" "halo.cu advance.cu halo_off.cu"; do
    # shellcheck disable=SC2086
    database $order
    for run in "no cache, -j 2" "cold cache" "warm cache"; do
        lint_way "$run"
        status "$order, $run" 1
        calls
        grep "'wrap_halo' in" sync401 >wrap
        text "$order, $run: wrap_halo" wrap "$OFF_WRAP"
    done
    rm -rf cache
done

# The build that only waits, alone: the calls are "drained" notes as before (line 48 is not
# drained: settle(), which would drain it, has no summary without halo.cu).
database halo_off.cu advance.cu
lint_way "no cache, -j 1"
status "halo_off.cu alone" 1
calls
PLAIN_WRAP="through 'wrap_halo()', defined in halo_off.cu:3, which waits for the whole device ('cudaDeviceSynchronize' at halo_off.cu:7)"
text "halo_off.cu alone: SYNC401" sync401 "src/advance.cu:17:9: note: 'wrap_halo' in 'advance' $(loop 14); $(drained 16); $PLAIN_WRAP $R401
src/advance.cu:48:9: warning: 'wrap_halo' in 'advance_twice' $(loop 45); $PLAIN_WRAP $R401"
exit $fail
