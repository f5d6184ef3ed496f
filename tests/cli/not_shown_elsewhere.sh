#!/bin/sh
# not_shown_elsewhere.sh SYNCSCOPE DATA_DIR: a warning needs a loop lint sees repeat the call
# (-p). kernels.cu defines functions that only sim.cpp's step loop calls: count_alive()'s
# synchronous readback and relax()'s launch without a stream (its stream parameter at hand) are
# in no loop of their unit, and no loop of it reaches them: notes that say how often they run is
# not shown, after every other reason has had its turn. With the loop giving every function the
# legacy stream (-DSTREAM=0), the project pass's own reason for relax()'s launch (every call gives
# the stream parameters the legacy stream) is the note's, not "not shown". The same at -j 1 and
# -j 2, with and without the cache (exact output). A hot caller in the unit (hot-functions) keeps
# the warning.
set -u
SS=$(realpath "$1") DATA=$(realpath "$2")/not_shown_elsewhere HERE=$(dirname "$(realpath "$0")")
fail=0
. "$HERE/assert.sh"
. "$HERE/units.sh"
workspace "$DATA"
sim_database() { # ARGS: kernels.cu and sim.cpp, ARGS before sim.cpp's "-c"
    printf '[%s, %s]\n' "$(entry kernels.cu nvcc)" "$(entry sim.cpp g++ "$1")" >build/compile_commands.json
}

NOT="how often it runs is not shown: it is in no loop that lint sees, and no loop of this translation unit reaches"
HOT="(one of another unit, or a call through a pointer, may run it on every iteration; lint does not weigh those: name it, or a function that calls it, in hot-functions to make this a warning)"
R13="src/kernels.cu:13:5: note: 'cudaMemcpy' in 'count_alive' reads one value (size 'sizeof(int)') back from the device into '&c': the host stalls until all queued work has produced it, and the synchronous copy serializes with the work on stream 's' (line 11); $NOT 'count_alive()' $HOT [SYNC301 scalar-readback]"
L20="src/kernels.cu:20:5: note: kernel 'step_kernel' is launched in 'relax' without a stream: it runs on the legacy default stream; $NOT 'relax()' $HOT [SYNC101 default-stream-launch]"

sim_database ""
for run in "no cache, -j 1" "no cache, -j 2" "cold cache" "warm cache"; do
    lint_way "$run"
    status "$run" 0
    grep -E '(warning|note): .*SYNC(101|301)' out >found
    text "$run: created stream" found "$R13
$L20"
done

rm -rf cache
sim_database '"-DSTREAM=0", '
P20="src/kernels.cu:20:5: note: kernel 'step_kernel' is launched in 'relax' without a stream: it runs on the legacy default stream; the only other streams this translation unit uses are stream parameters and fields that every call and write in the project gives the legacy stream, so it holds nothing up yet"
for run in "no cache, -j 1" "cold cache" "warm cache"; do
    lint_way "$run"
    status "$run" 0
    grep -E '(warning|note): .*SYNC101' out | sed 's/ (.*//' >found
    text "$run: legacy stream given" found "$P20"
done
# A hot function of the unit that calls count_alive() (hot-functions names the caller, not the
# function itself): the readback is a warning again, the launch in relax() still a note.
rm -rf cache
sim_database ""
printf 'hot-functions:\n  - api_entry\n' >.syncscope.yml
H13="src/kernels.cu:13:5: warning: 'cudaMemcpy' in 'count_alive' reads one value (size 'sizeof(int)') back from the device into '&c': the host stalls until all queued work has produced it, and the synchronous copy serializes with the work on stream 's' (line 11) [SYNC301 scalar-readback]"
for run in "no cache, -j 1" "cold cache" "warm cache"; do
    lint_way "$run"
    status "$run" 1
    grep -E '(warning|note): .*SYNC(101|301)' out >found
    text "$run: a hot caller" found "$H13
$L20"
done
exit $fail
