#!/bin/sh
# lazy_way_elsewhere.sh SYNCSCOPE DATA_DIR: waits that another unit's loop reaches through a
# function of infos.cu (-p; docs/lint.md, "Waits in a function another unit calls from a loop"),
# with a guard on the way down that makes them rare (held-out-38's CR and CQ): the constructor of
# a lazily made singleton, called only while the pointer is unset ("lazy: ... the buffer is
# unset"), and a set-up behind an early return on a member flag the function sets ("lazy: ... its
# set-up flag says it has not run"): notes. A wait reached both under a guard and straight (in
# either order of the unit's calls), one under a guard on a local pointer or on a member of a local
# object (new on every call), one whose branch unsets the pointer again, and one on a member of
# 'this' (main.cpp makes a new Model on every step, which infos.cu cannot see) stay warnings.
# The same at -j 1 and -j 2, with and without the cache (exact output).
CASE=lazy_way_elsewhere
. "$(dirname "$(realpath "$0")")/project_case.sh"
database infos.cu main.cpp

drains() {
    echo "blocks the host on every call of '$1()', which also enqueues device work (kernel 'attn_kernel' is launched at line $2): the GPU drains and idles while the host catches up"
}
loop() {
    echo "it runs on every iteration: '$1()' is called from the loop at main.cpp:13, in 'main' (another unit) [SYNC401 sync-in-loop]"
}
N11="src/infos.cu:12:9: note: 'cudaDeviceSynchronize' in 'checked_malloc()' called from 'Infos::Infos()' called from 'get_infos()' called from 'attention_step()' $(drains attention_step 50); lazy: it runs only while the buffer is unset (infos.cu:35 tests 'infos' and the branch sets it); $(loop attention_step)"
N66="src/infos.cu:67:5: note: 'cudaDeviceSynchronize' in 'init_peer()' called from 'reduce_step()' $(drains reduce_step 74); lazy: it runs only while its set-up flag says it has not run (line 63 returns early while 'state.initialized' is true, and line 65 sets it so); $(loop reduce_step)"
W79="src/infos.cu:80:5: warning: 'cudaDeviceSynchronize' in 'settle()' called from 'mixed_step()' $(drains mixed_step 92); $(loop mixed_step)"
W97="src/infos.cu:98:5: warning: 'cudaDeviceSynchronize' in 'drain()' called from 'local_step()' $(drains local_step 108); $(loop local_step)"
W114="src/infos.cu:115:5: warning: 'cudaDeviceSynchronize' in 'settle_twice()' called from 'ordered_step()' $(drains ordered_step 129); $(loop ordered_step)"
W143="src/infos.cu:144:5: warning: 'cudaDeviceSynchronize' in 'fill_wait()' called from 'get_rows()' called from 'table_step()' $(drains table_step 160); $(loop table_step)"
W167="src/infos.cu:168:5: warning: 'cudaDeviceSynchronize' in 'drain_again()' called from 'reset_step()' $(drains reset_step 179); $(loop reset_step)"
W186="src/infos.cu:186:5: warning: 'cudaDeviceSynchronize' in 'model_wait()' called from 'Model::forward()' $(drains Model::forward 195); $(loop Model::forward)"

for run in "no cache, -j 1" "no cache, -j 2" "cold cache" "warm cache"; do
    lint_way "$run"
    grep SYNC401 out >sync401
    text "$run: SYNC401" sync401 "$N11
$N66
$W79
$W97
$W114
$W143
$W167
$W186"
done
exit $fail
