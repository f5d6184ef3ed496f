#!/bin/sh
# stream_param_drained.sh SYNCSCOPE DATA_DIR: a stream parameter that is given created blocking
# streams, each drained by a device-wide wait before any legacy-stream work (-p). kernels.cu
# defines Update, which launches on its stream parameter (kernels.h defaults it to NULL), and
# Step, whose loop launches on the legacy stream (Step takes a stream it does not use, 'spare':
# legacy work is a warning only with a stream at hand, and an unused parameter adds no stream to
# the unit). solver.cpp calls Update with the default, and,
# for each floating body, with 'stm = (nstreams ? streams[b % nstreams] : NULL)' (streams made by
# cudaStreamCreate), then 'if (nstreams) cudaDeviceSynchronize();' right after that loop: the
# only work between is Radius (bodies.cpp, host code). So Step's launch holds nothing up: a
# note that names the wait. With early.cpp in the run, which calls Step (device work in
# kernels.cu) between its Update calls and the wait, with the wait under another condition,
# or with bodies.cpp's Radius doing device work, the launch is a warning. The same at -j 1 and
# -j 2, with and without the cache (exact output).
set -u
SS=$(realpath "$1") DATA=$(realpath "$2")/stream_param_drained HERE=$(dirname "$(realpath "$0")")
fail=0
. "$HERE/assert.sh"
. "$HERE/units.sh"
workspace "$DATA"

LAUNCH="src/kernels.cu:10:9: %s: kernel 'add_delta' is launched in 'Step' without a stream: it runs on the legacy default stream; it runs on every iteration of the loop at line 9, which enqueues device work%s [SYNC101 default-stream-launch]"
PARAMS="; the only other streams this translation unit uses are stream parameters and fields that every call and write in the project gives the legacy stream, so it holds nothing up yet ('stm' of 'Update()' (also given a stream that the device-wide wait at solver.cpp:20 drains before any legacy-stream work))"
# shellcheck disable=SC2059
NOTE=$(printf "$LAUNCH" note "$PARAMS")
# shellcheck disable=SC2059
WARNING=$(printf "$LAUNCH" warning "")

database kernels.cu solver.cpp bodies.cpp
for run in "no cache, -j 1" "no cache, -j 2" "cold cache" "warm cache"; do
    lint_way "$run"
    status "$run" 0
    grep SYNC101 out >sync101
    text "$run: SYNC101" sync101 "$NOTE"
done

database kernels.cu solver.cpp bodies.cpp early.cpp
ss lint --no-cache -j 2 --color never --cuda-path none -p build
status "early.cpp runs Step before the wait" 1
grep SYNC101 out >sync101
text "early.cpp runs Step before the wait: SYNC101" sync101 "$WARNING"

database kernels.cu solver.cpp bodies.cpp
sed 's/if (nstreams)$/if (bodies > 1)/' "$DATA/solver.cpp" >src/solver.cpp
ss lint --no-cache -j 2 --color never --cuda-path none -p build
status "the wait under another condition" 1
grep SYNC101 out >sync101
text "the wait under another condition: SYNC101" sync101 "$WARNING"

cp "$DATA/solver.cpp" src/solver.cpp
printf '#include "kernels.h"\nfloat Radius(unsigned body)\n{\n    Step(0, body);\n    return 1.0f;\n}\n' >src/bodies.cpp
ss lint --no-cache -j 2 --color never --cuda-path none -p build
status "Radius does device work" 1
grep SYNC101 out >sync101
text "Radius does device work: SYNC101" sync101 "$WARNING"
exit $fail
