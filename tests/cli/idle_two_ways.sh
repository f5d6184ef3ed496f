#!/bin/sh
# idle_two_ways.sh SYNCSCOPE DATA_DIR: a stream wait in finish() that finds its stream idle
# (end_sync(), called just before, ends by waiting for it), reached from main.cpp's loop through
# two functions of lib.cu, step_a() and step_b() (-p; docs/lint.md, "Facts from the other
# units"): one finding per way and a question for each; the project pass answers each, so the
# report, which keeps a place's highest severity, shows the "idle" note, not a warning. The same
# at -j 1 and -j 2, with and without the cache (exact output).
CASE=idle_two_ways
. "$(dirname "$(realpath "$0")")/project_case.sh"
database lib.cu main.cpp

N13="src/lib.cu:13:5: note: 'cudaStreamSynchronize' in 'finish()' called from 'step_a()' blocks the host on every call of 'step_a()', which also enqueues device work (kernel 'k' is launched at line 17): the GPU drains and idles while the host catches up; it runs on every iteration: 'step_a()' is called from the loop at main.cpp:9, in 'main' (another unit); idle: the stream 's' has nothing queued: 'end_sync()' at line 12 ends by waiting for it ('cudaStreamSynchronize' at lib.cu:8) and nothing is queued since, so the wait has nothing to wait for [SYNC401 sync-in-loop]"

for run in "no cache, -j 1" "no cache, -j 2" "cold cache" "warm cache"; do
    lint_way "$run"
    grep "lib.cu:13:5: [a-z]*: .*SYNC401" out >wait13
    text "$run: the wait in finish()" wait13 "$N13"
done
exit $fail
