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
# steps.cu calls waits.cu's helpers after a wait of its own: report_then_settle calls
# report.cpp's host-only function before its wait (a note where report.cpp is in the run, whose
# summary says it queues no device work; a warning without it); copy_back_then_settle's launch
# is fetched by a synchronous copy before its wait (a note: the copy drained it); the launch of
# stage_then_settle_clear is in a helper and its memset after the wait (a warning that names
# neither); launch_settle_settle's first wait is the one that waits for its launch (named);
# soften's weak definition in soft.cu launches first, firm.cu's only waits: the weaker answers
# (a warning), as for two builds (a limit: the linker keeps firm.cu's).
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
# Helpers that do something else before their wait (steps.cu, waits.cu, report.cpp, soft.cu,
# firm.cu).
through() {
    echo "through '$1()', defined in $2, which waits for the whole device ('cudaDeviceSynchronize' at $3)"
}
# step LINE NAME: the start of the finding at the call of NAME in the loop of 'iterate' whose
# relax launch and wait are on the two lines before LINE.
step() {
    echo "'$2' in 'iterate' blocks the host on every iteration of a for loop (line $(($1 - 3))) that also enqueues device work (kernel 'relax' is launched at line $(($1 - 2))): $DRAINS"
}
step_drained() {
    echo "drained: the device has nothing queued here: 'cudaDeviceSynchronize' at steps.cu:$(($1 - 1)) drained it, and no work is queued between it and this call on any way the unit reaches it: the wait waits for nothing else"
}
MAY="where work may be queued by then (through its calls, or on a device it switches to): that wait may wait for it, whatever was drained before the call"
S15="src/steps.cu:15:9: note: $(step 15 report_then_settle); $(step_drained 15); $(through report_then_settle waits.cu:8 waits.cu:11) $R401"
S20="src/steps.cu:20:9: note: $(step 20 copy_back_then_settle); $(step_drained 20); $(through copy_back_then_settle waits.cu:13 waits.cu:17) $R401"
S25="src/steps.cu:25:9: warning: $(step 25 stage_then_settle_clear); $(through stage_then_settle_clear waits.cu:19 waits.cu:22) $MAY $R401"
S30="src/steps.cu:30:9: warning: $(step 30 launch_settle_settle); $(through launch_settle_settle waits.cu:25 waits.cu:28) after queuing work of its own (kernel 'bump' launched at waits.cu:27): $OWN $R401"
S35="src/steps.cu:35:9: warning: $(step 35 soften); $(through soften soft.cu:5 soft.cu:8) after queuing work of its own (kernel 'bump' launched at soft.cu:7): $OWN $R401"
step_calls() {
    grep -E "^src/steps\.cu:[0-9]+:9: [a-z]+: '[a-z_]+' in 'iterate' .*SYNC401" out >sync401
}
for order in "steps.cu waits.cu report.cpp soft.cu firm.cu" "firm.cu report.cpp waits.cu soft.cu steps.cu"; do
    # shellcheck disable=SC2086
    database $order
    for run in "no cache, -j 1" "no cache, -j 2" "cold cache" "warm cache"; do
        lint_way "$run"
        status "$order, $run" 1
        step_calls
        text "$order, $run: SYNC401" sync401 "$S15
$S20
$S25
$S30
$S35"
    done
    rm -rf cache
done
# Without report.cpp, report()'s device work is unknown: the wait may wait for it.
database steps.cu waits.cu soft.cu firm.cu
lint_way "no cache, -j 1"
status "without report.cpp" 1
step_calls
grep "^src/steps.cu:15:" sync401 >report
text "without report.cpp: report_then_settle" report "src/steps.cu:15:9: warning: $(step 15 report_then_settle); $(through report_then_settle waits.cu:8 waits.cu:11) $MAY $R401"
exit $fail
