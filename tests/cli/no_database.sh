#!/bin/sh
# no_database.sh SYNCSCOPE DATA_DIR: without a compile database (files named, no -p) nothing says
# which units make the project, so no rule that needs every caller in the project concludes.
# no_database/: kernels.cu's launch_x launches a kernel and waits for its stream; main.cpp's
# loop calls it with pinned memory and reads it right after; extra.cpp's loop calls it and reads
# nothing. With -p and a database of kernels.cu and main.cpp, every caller reads: the wait is a
# SYNC401 note ("every caller in the project reads ..."). Naming those two files without -p,
# or all three, it is a warning. stream_param_units/: the legacy launch in kernels.cu's Step is
# a SYNC101 note with -p (solver.cpp, the only other unit, gives every stream parameter the
# legacy stream; stream_param_units.sh) and a warning when the two files are named without -p.
set -u
SS=$(realpath "$1") DATA=$(realpath "$2") HERE=$(dirname "$(realpath "$0")")
fail=0
. "$HERE/assert.sh"
. "$HERE/units.sh"
workspace "$DATA/no_database"

WAIT="src/kernels.cu:6:5: %s: 'cudaStreamSynchronize' in 'launch_x()' blocks the host on every call of 'launch_x()', which also enqueues device work (kernel 'count' is launched at line 5): the GPU drains and idles while the host catches up; it runs on every iteration: 'launch_x()' is called from the loop at main.cpp:7, in 'run' (another unit)%s [SYNC401 sync-in-loop]"
READ="; inherent: kernel 'count' launched at line 5 writes through 'n', and every caller in the project reads what it wrote right after the call, before any other device work ('run()' calls 'launch_x()' at main.cpp:8 with 'h', pinned host memory, and line 9 reads 'h'): the host needs the kernel's output next"
# shellcheck disable=SC2059
NOTE=$(printf "$WAIT" note "$READ")
# shellcheck disable=SC2059
WARNING=$(printf "$WAIT" warning "")

database kernels.cu main.cpp
ss lint --no-cache --color never --cuda-path none -p build
status "-p, every unit" 0
grep SYNC401 out >sync401
text "-p, every unit: SYNC401" sync401 "$NOTE"

ss lint --no-cache --color never --cuda-path none src/kernels.cu src/main.cpp
status "no -p, two files" 1
grep SYNC401 out >sync401
text "no -p, two files: SYNC401" sync401 "$WARNING"

ss lint --no-cache -j 2 --color never --cuda-path none src/kernels.cu src/main.cpp src/extra.cpp
status "no -p, every file" 1
grep SYNC401 out >sync401
text "no -p, every file: SYNC401" sync401 "$WARNING"

rm -rf src/* build/*
cp "$DATA"/stream_param_units/* src/
LAUNCH="src/kernels.cu:17:9: warning: kernel 'add_delta' is launched in 'Step' without a stream: it runs on the legacy default stream; it runs on every iteration of the loop at line 16, which enqueues device work [SYNC101 default-stream-launch]"
ss lint --no-cache --color never --cuda-path none src/kernels.cu src/solver.cpp
status "no -p, stream parameters" 1
grep 'SYNC10[12]' out >sync10x
text "no -p, stream parameters: SYNC101/SYNC102" sync10x "$LAUNCH"
exit $fail
