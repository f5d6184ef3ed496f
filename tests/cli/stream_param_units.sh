#!/bin/sh
# stream_param_units.sh SYNCSCOPE DATA_DIR: stream parameters decided by the calls of every unit
# (-p). kernels.cu defines AddDelta, Scale and Clear, each working on a stream parameter that
# kernels.h defaults to NULL, Forces, which launches on the stream field of a parameter block
# (Params, set by its constructor), and Step, whose loop launches on the legacy stream (Step
# takes a stream it does not use, 'spare': legacy work is a warning only with a stream at hand,
# and an unused parameter adds no stream to the unit); those parameters and that field are the
# only other streams kernels.cu uses. solver.cpp calls
# AddDelta with the default, Clear with 0, Scale through Advance, a function of its own given
# NULL, and builds the block with NULL: the project gives them only the legacy stream, so
# Step's launch is a note that says so. With side.cpp in the run, which gives Clear a stream it
# creates, or field_side.cpp, which builds the block with one, the launch is a warning; so it
# is with side.cpp in the database but not in the run, with kernels.cu alone (no call seen) and
# with a call through a pointer to Scale. The same
# at -j 1 and -j 2, with and without the cache (exact output).
set -u
SS=$(realpath "$1") DATA=$(realpath "$2")/stream_param_units HERE=$(dirname "$(realpath "$0")")
fail=0
. "$HERE/assert.sh"
. "$HERE/units.sh"
workspace "$DATA"

LAUNCH="src/kernels.cu:17:9: %s: kernel 'add_delta' is launched in 'Step' without a stream: it runs on the legacy default stream; it runs on every iteration of the loop at line 16, which enqueues device work%s [SYNC101 default-stream-launch]"
PARAMS="; the only other streams this translation unit uses are stream parameters and fields that every call and write in the project gives the legacy stream, so it holds nothing up yet ('stm' of 'AddDelta()', 'stm' of 'Scale()', 'stm' of 'Clear()', 'stm' of 'Params')"
# shellcheck disable=SC2059
NOTE=$(printf "$LAUNCH" note "$PARAMS")
# shellcheck disable=SC2059
WARNING=$(printf "$LAUNCH" warning "")

database kernels.cu solver.cpp
for run in "no cache, -j 1" "no cache, -j 2" "cold cache" "warm cache"; do
    lint_way "$run"
    status "$run" 0
    grep SYNC10 out >sync10x
    text "$run: SYNC101/SYNC102" sync10x "$NOTE"
done

database kernels.cu solver.cpp side.cpp
ss lint --no-cache -j 2 --color never --cuda-path none -p build
status "side.cpp passes a created stream" 1
grep SYNC101 out >sync101
text "side.cpp passes a created stream: SYNC101" sync101 "$WARNING"

# side.cpp in the database but left out of the run (files named after -p): a unit left out
# may give the stream a created one, so the launch stays a warning.
ss lint --no-cache -j 2 --color never --cuda-path none -p build src/kernels.cu src/solver.cpp
status "side.cpp left out of the run" 1
grep SYNC101 out >sync101
text "side.cpp left out of the run: SYNC101" sync101 "$WARNING"

database kernels.cu solver.cpp field_side.cpp
ss lint --no-cache -j 2 --color never --cuda-path none -p build
status "field_side.cpp builds the block with a created stream" 1
grep SYNC101 out >sync101
text "field_side.cpp builds the block with a created stream: SYNC101" sync101 "$WARNING"

database kernels.cu solver.cpp
ss lint --no-cache --color never --cuda-path none -p build src/kernels.cu
status "kernels.cu alone" 1
grep SYNC101 out >sync101
text "kernels.cu alone: SYNC101" sync101 "$WARNING"

printf '#include "kernels.h"\nvoid (*hook)(float *, unsigned, cudaStream_t) = Scale;\n' >src/hook.cpp
database kernels.cu solver.cpp hook.cpp
ss lint --no-cache -j 2 --color never --cuda-path none -p build
status "Scale's address taken" 1
grep SYNC101 out >sync101
text "Scale's address taken: SYNC101" sync101 "$WARNING"
exit $fail
