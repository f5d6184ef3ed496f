#!/bin/sh
# timing_flag_elsewhere.sh SYNCSCOPE DATA_DIR: waits that time a phase under a run-time flag in
# functions another unit calls from its step loop (-p; docs/lint.md, "Warning or note", "For
# timing under a flag"). phases.cu's relax() waits under 'g.profiling' and then charges the
# phase's time with the program's clock (seconds(), defined in clock.cpp: an elapsed time): a
# note. smooth() does the same under 'g.tracing', which set_tracing() of the same unit writes: a
# warning; damp() under its own parameter, which the loop gives anew on every call: a warning.
# The same at -j 1 and -j 2, with and without the cache (exact output).
CASE=timing_flag_elsewhere
. "$(dirname "$(realpath "$0")")/project_case.sh"
database phases.cu driver.cpp clock.cpp

DRAINS="the GPU drains and idles while the host catches up"
R401="[SYNC401 sync-in-loop]"
N20="src/phases.cu:20:9: note: 'cudaDeviceSynchronize' in 'relax()' blocks the host on every call of 'relax()', which also enqueues device work (kernel 'relax_k' is launched at line 18): $DRAINS; for timing under a flag: the wait is followed by a host clock read ('seconds()' at line 21, an elapsed time: minus 't0', which line 17 sets from 'seconds()') and runs only when 'g.profiling' is set (line 19), which no code of this translation unit changes (the loop is another unit's: the other units' code is not seen here): a measurement under a switch, not a stall of every run; it runs on every iteration: 'relax()' is called from the loop at driver.cpp:15, in 'run' (another unit) $R401"
W29="src/phases.cu:29:9: warning: 'cudaDeviceSynchronize' in 'smooth()' blocks the host on every call of 'smooth()', which also enqueues device work (kernel 'smooth_k' is launched at line 27): $DRAINS; it runs on every iteration: 'smooth()' is called from the loop at driver.cpp:15, in 'run' (another unit) $R401"
W39="src/phases.cu:39:9: warning: 'cudaDeviceSynchronize' in 'damp()' blocks the host on every call of 'damp()', which also enqueues device work (kernel 'relax_k' is launched at line 37): $DRAINS; it runs on every iteration: 'damp()' is called from the loop at driver.cpp:15, in 'run' (another unit) $R401"

for run in "no cache, -j 1" "no cache, -j 2" "cold cache" "warm cache"; do
    lint_way "$run"
    grep SYNC401 out >sync401
    text "$run: SYNC401" sync401 "$N20
$W29
$W39"
done
exit $fail
