#!/bin/sh
# pinned_output.sh SYNCSCOPE DATA_DIR: a wait for a kernel that writes through a pointer its
# function is given, in a function another unit calls from a loop (-p). kernels.cu's launch_*
# functions each launch a kernel and wait for its stream; post.cpp's functions pass their pointer
# on; main.cpp's App::run gives each pinned memory of its own (private fields, cudaMallocHost) and
# reads it, or not, after the call; extra.cpp calls Post::decode_twice without reading.
# Notes (the caller reads the kernel's output right after the call, itself or through a function
# that passes the pointer straight on): launch_count (a branch on a count), launch_mask (a loop
# over the mask, after a wait and declarations), launch_direct (an expression). Every other
# finding stays a warning: the read inside an 'if' (launch_if), no read in the call's block
# (launch_last), an 'if ... break' before the read (launch_early), device work before it
# (launch_work), a call of another unit's function before it (launch_unknown), a local that
# shadows the pinned field (launch_shadow), pageable memory (launch_pageable), a parameter of
# the caller (launch_given), a public field (launch_public), a field also given 'new' memory
# (launch_mixed), an address taken (launch_taken), a forwarder that offsets the pointer
# (launch_offset) or calls another function after (launch_more), a wait for another stream
# (launch_streams), other work queued on another stream (launch_queued), a second caller that
# does not read (launch_twice), a test of the pointer itself (launch_null), a new allocation
# into it before the read (launch_store), a loop that queues work as it reads (launch_loop_work). Through a virtual function or an operator() nothing is reported.
# The same at -j 1 and -j 2 and from the cache; with a unit of the database left out of the run,
# or a unit with errors that declares the functions, every finding is a warning; without
# extra.cpp, launch_twice is a note.
set -u
SS=$(realpath "$1") DATA=$(realpath "$2")/pinned_output HERE=$(dirname "$(realpath "$0")")
fail=0
. "$HERE/assert.sh"
. "$HERE/units.sh"
workspace "$DATA"

# The SYNC401 findings as "file:line:column: severity".
brief() {
    grep 'SYNC401' out | sed -E 's/^([^ ]+) (warning|note): .*/\1 \2/' >sync401
}
warnings() { # LINES...: kernels.cu's findings at those lines (and columns), all warnings
    for at in "$@"; do echo "src/kernels.cu:$at: warning"; done
}
NEGATIVE=$(warnings 24:72 25:74 26:75 27:74 28:77 29:76 31:78 32:75 33:76 34:75 35:75 37:76 \
    38:74 42:5 49:5)
LATER=$(warnings 53:74 54:75 55:79)
LOOP="src/main.cpp:63:9: note"
ALL_WARNINGS="$(warnings 9:5 15:5 21:5)
$NEGATIVE
$(warnings 52:75)
$LATER
$LOOP"
NOTES="src/kernels.cu:9:5: note
src/kernels.cu:15:5: note
src/kernels.cu:21:5: note
$NEGATIVE
$(warnings 52:75)
$LATER
$LOOP"
DRAINS="the GPU drains and idles while the host catches up"
COUNT="src/kernels.cu:9:5: note: 'cudaStreamSynchronize' in 'launch_count()' blocks the host on every call of 'launch_count()', which also enqueues device work (kernel 'count' is launched at line 8): $DRAINS; it runs on every iteration: 'Post::decode()', which reaches it, is called from the loop at main.cpp:58, in 'App::run' (another unit); inherent: kernel 'count' launched at line 8 writes through 'n', and every caller in the project reads what it wrote right after the call, before any other device work ('App::run()' calls 'Post::decode()' at main.cpp:59 with 'h_count_', pinned host memory, and line 60 branches on 'h_count_'): the host needs the kernel's output next [SYNC401 sync-in-loop]"
MASK="src/kernels.cu:15:5: note: 'cudaStreamSynchronize' in 'launch_mask()' blocks the host on every call of 'launch_mask()', which also enqueues device work (kernel 'mark' is launched at line 14): $DRAINS; it runs on every iteration: 'Post::nms()', which reaches it, is called from the loop at main.cpp:58, in 'App::run' (another unit); inherent: kernel 'mark' launched at line 14 writes through 'mask', and every caller in the project reads what it wrote right after the call, before any other device work ('App::run()' calls 'Post::nms()' at main.cpp:62 with 'h_mask_', pinned host memory, and line 66 walks 'h_mask_' in a loop): the host needs the kernel's output next [SYNC401 sync-in-loop]"
DIRECT="src/kernels.cu:21:5: note: 'cudaStreamSynchronize' in 'launch_direct()' blocks the host on every call of 'launch_direct()', which also enqueues device work (kernel 'count' is launched at line 20): $DRAINS; it runs on every iteration: 'launch_direct()' is called from the loop at main.cpp:58, in 'App::run' (another unit); inherent: kernel 'count' launched at line 20 writes through 'n', and every caller in the project reads what it wrote right after the call, before any other device work ('App::run()' calls 'launch_direct()' at main.cpp:68 with 'h_direct_', pinned host memory, and line 69 reads 'h_direct_'): the host needs the kernel's output next [SYNC401 sync-in-loop]"

for order in "kernels.cu post.cpp main.cpp extra.cpp" "extra.cpp main.cpp post.cpp kernels.cu"; do
    # shellcheck disable=SC2086
    database $order
    for run in "no cache, -j 1" "no cache, -j 2" "cold cache" "warm cache"; do
        lint_way "$run"
        status "$order, $run" 1
        brief
        text "$order, $run: SYNC401" sync401 "$NOTES"
        grep 'inherent: kernel' out >inherent
        text "$order, $run: the notes" inherent "$COUNT
$MASK
$DIRECT"
    done
    rm -rf cache
done

# One caller fewer: launch_twice's only caller reads, so its wait is a note too.
database kernels.cu post.cpp main.cpp
lint_way "no cache, -j 1"
brief
text "without extra.cpp" sync401 "src/kernels.cu:9:5: note
src/kernels.cu:15:5: note
src/kernels.cu:21:5: note
$NEGATIVE
src/kernels.cu:52:75: note
$LATER
$LOOP"

# A unit of the database left out of the run: its calls are not known.
database kernels.cu post.cpp main.cpp extra.cpp
ss lint --no-cache --color never --cuda-path none -p build src/kernels.cu src/post.cpp src/main.cpp
brief
text "extra.cpp left out" sync401 "$ALL_WARNINGS"

# A unit whose errors may hide a call of the functions it declares.
database kernels.cu post.cpp main.cpp extra.cpp broken.cpp
lint_way "no cache, -j 1"
brief
text "with broken.cpp" sync401 "$ALL_WARNINGS"
exit $fail
