#!/bin/sh
# project_facts.sh SYNCSCOPE DATA_DIR: facts from the other units of a project (-p): a stream
# wait in a loop right after a call of a function that another unit defines and that ends by
# waiting for the same stream (kernels.cu's permute_launch; post.cu's Post::permute through it)
# is a note that names that wait; after a function that only launches, waits first, or waits on
# one branch only, or waits for its parameter after changing it, or with a statement between
# that is not a declaration, it stays a warning,
# and so it does when the run does not lint the unit that holds the fact. The wrappers' own
# waits are warnings where both units are linted (main.cu's loop calls them on every iteration). The same with and without the cache, at -j 1 and -j 3 (exact output).
set -u
SS=$(realpath "$1") DATA=$(realpath "$2")/project_facts HERE=$(dirname "$(realpath "$0")")
fail=0
. "$HERE/assert.sh"
. "$HERE/units.sh"
workspace "$DATA"
database main.cu post.cu kernels.cu

LOOP="'cudaStreamSynchronize' in 'run' blocks the host on every iteration of a for loop (line 5) that also enqueues device work ('cudaMemcpyAsync' enqueues work at line 6): the GPU drains and idles while the host catches up"
IDLE="idle: the stream 'stream' has nothing queued:"
SINCE="and nothing is queued since, so the wait has nothing to wait for [SYNC401 sync-in-loop]"
N8="src/main.cu:8:9: note: $LOOP; $IDLE 'permute_launch()' at line 7 ends by waiting for it ('cudaStreamSynchronize' at kernels.cu:8) $SINCE"
N11="src/main.cu:11:9: note: $LOOP; $IDLE 'Post::permute()' at line 9 ends by waiting for it ('cudaStreamSynchronize' at kernels.cu:8, through 'permute_launch()' at post.cu:9) $SINCE"
W="warning: $LOOP [SYNC401 sync-in-loop]"
W8="src/main.cu:8:9: $W" W11="src/main.cu:11:9: $W"
W13="src/main.cu:13:9: $W" W15="src/main.cu:15:9: $W" W17="src/main.cu:17:9: $W"
W20="src/main.cu:20:9: $W" W22="src/main.cu:22:9: $W"
# The waits inside the wrappers, which main.cu's loops call on every iteration (the loop in
# another unit: project_loops.c). A wait that comes before any device work of its function
# (wait_then_launch, sync_then_launch, wait_first) waits for what the caller queued: a note
# where every loop call of the function comes right after a wait for the stream it passes
# (main.cu:13 before line 14) or for the device (main.cu:30 before line 31), nothing queued
# between; wait_first is also called after launch_only (main.cu:34): a warning.
EVERY="the GPU drains and idles while the host catches up; it runs on every iteration"
K8="src/kernels.cu:8:5: warning: 'cudaStreamSynchronize' in 'permute_launch()' blocks the host on every call of 'permute_launch()', which also enqueues device work (kernel 'k' is launched at line 7): $EVERY: 'permute_launch()' is called from the loop at main.cu:5, in 'run' (another unit) [SYNC401 sync-in-loop]"
IDLE23="idle: where the loop at main.cu:5 calls it (line 14), the stream it is given was synchronized at line 13 and nothing was queued since, and 'wait_then_launch()' waits before it queues anything: the wait has nothing to wait for"
K23="src/kernels.cu:23:5: note: 'cudaStreamSynchronize' in 'wait_then_launch()' blocks the host on every call of 'wait_then_launch()', which also enqueues device work (kernel 'k' is launched at line 24): $EVERY: 'wait_then_launch()' is called from the loop at main.cu:5, in 'run' (another unit); $IDLE23 [SYNC401 sync-in-loop]"
K31="src/kernels.cu:31:5: warning: 'cudaStreamSynchronize' in 'wait_other()' blocks the host on every call of 'wait_other()', which also enqueues device work (kernel 'k' is launched at line 29): $EVERY: 'wait_other()' is called from the loop at main.cu:5, in 'run' (another unit) [SYNC401 sync-in-loop]"
IDLE39="idle: where the loop at main.cu:29 calls it (line 31), the device was synchronized at line 30 and nothing was queued since, and 'sync_then_launch()' waits before it queues anything: the wait has nothing to wait for"
K39="src/kernels.cu:39:5: note: 'cudaDeviceSynchronize' in 'sync_then_launch()' blocks the host on every call of 'sync_then_launch()', which also enqueues device work (kernel 'k' is launched at line 40): $EVERY: 'sync_then_launch()' is called from the loop at main.cu:29, in 'run_idle' (another unit); $IDLE39 [SYNC401 sync-in-loop]"
K45="src/kernels.cu:45:5: warning: 'cudaStreamSynchronize' in 'wait_first()' blocks the host on every call of 'wait_first()', which also enqueues device work (kernel 'k' is launched at line 46): $EVERY: 'wait_first()' is called from the loop at main.cu:29, in 'run_idle' (another unit) [SYNC401 sync-in-loop]"

for run in "no cache, -j 1" "no cache, -j 3" "cold cache" "warm cache"; do
    lint_way "$run"
    status "$run" 1
    grep SYNC401 out >sync401
    text "$run: SYNC401" sync401 "$K8
$K23
$K31
$K39
$K45
$N8
$N11
$W13
$W15
$W17
$W20
$W22"
done

# The units that hold the facts left out of the run: the waits stay warnings; with kernels.cu
# but not post.cu, only the wait after the call of permute_launch itself is a note.
ss lint --no-cache --color never --cuda-path none -p build src/main.cu
grep SYNC401 out >sync401
text "main.cu alone" sync401 "$W8
$W11
$W13
$W15
$W17
$W20
$W22"
ss lint --cache-dir cache --color never --cuda-path none -p build src/main.cu src/kernels.cu
grep SYNC401 out >sync401
text "main.cu and kernels.cu, from the cache" sync401 "$K8
$K23
$K31
$K39
$K45
$N8
$W11
$W13
$W15
$W17
$W20
$W22"
exit $fail
