#!/bin/sh
# grow_only_elsewhere.sh SYNCSCOPE DATA_DIR: waits in functions that another unit calls from its
# loop (-p; docs/lint.md, "Waits in a function another unit calls from a loop"), each under a
# guard in its own function that makes it rare: arena.cu's Arena::enlarge() returns early unless
# the request exceeds the size it keeps ("grow-only"), ensure_scratch() waits only while its
# buffer is unset and load_table() while its first-call flag is unchanged ("lazy"), refill() only
# when the queue it fills in a loop is empty ("refill"); gather() waits for a count that sizes its
# next launch ("inherent"): notes, with the words a loop of the same unit gives them. frame()'s
# own wait, unguarded, stays a warning. The same at -j 1 and -j 2, with and without the cache
# (exact output).
CASE=grow_only_elsewhere
. "$(dirname "$(realpath "$0")")/project_case.sh"
database arena.cu main.cpp

DRAINS="blocks the host on every call of 'frame()', which also enqueues device work (kernel 'step_kernel' is launched at line 91): the GPU drains and idles while the host catches up"
LOOP="it runs on every iteration: 'frame()' is called from the loop at main.cpp:6, in 'main' (another unit) [SYNC401 sync-in-loop]"
N14="src/arena.cu:14:9: note: 'cudaDeviceSynchronize' in 'Arena::enlarge()' called from 'train_step()' called from 'frame()' $DRAINS; grow-only: it runs when the buffer grows (line 11 returns early unless the request exceeds 'm_size', and the function records the new size); $LOOP"
N34="src/arena.cu:34:9: note: 'cudaDeviceSynchronize' in 'ensure_scratch()' called from 'frame()' $DRAINS; lazy: it runs only while the buffer is unset (line 33 tests 'g_scratch' and the branch sets it); $LOOP"
N50="src/arena.cu:50:9: note: 'cudaDeviceSynchronize' in 'refill()' called from 'frame()' $DRAINS; refill: it runs only when a queue it fills is empty (line 49 tests 'g_ready' for emptiness, and the branch fills it in a loop ('push' at line 52)): once per batch, not on every iteration; $LOOP"
N64="src/arena.cu:64:9: note: 'cudaDeviceSynchronize' in 'load_table()' called from 'frame()' $DRAINS; lazy: it runs only while its first-call flag is unchanged (line 63 tests 'first' and the branch sets it); $LOOP"
N79="src/arena.cu:79:5: note: 'cudaDeviceSynchronize' in 'gather()' called from 'frame()' $DRAINS; inherent: it waits for the value read back at line 78, and the next statement needs it (line 80 branches on it, and line 81 sizes a launch with it); $LOOP"
W92="src/arena.cu:92:5: warning: 'cudaDeviceSynchronize' in 'frame()' $DRAINS; $LOOP"

for run in "no cache, -j 1" "no cache, -j 2" "cold cache" "warm cache"; do
    lint_way "$run"
    grep SYNC401 out >sync401
    text "$run: SYNC401" sync401 "$N14
$N34
$N50
$N64
$N79
$W92"
done
exit $fail
