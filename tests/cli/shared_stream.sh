#!/bin/sh
# shared_stream.sh SYNCSCOPE DATA_DIR: SYNC103 across the units of a project (-p): a blocking
# stream that another unit shares (the global g_stream it names, the make_stream() it calls)
# and puts legacy-stream work beside gets no fix-it, its message names that unit's work, and
# --fix leaves its file byte-identical and says why; a shared stream whose sharers have no
# legacy-stream work (g_quiet) is fixed, but not by a run that leaves units of the database
# out. The same from the cache (exact output and bytes).
set -u
SS=$(realpath "$1") DATA=$(realpath "$2")/shared_stream HERE=$(dirname "$(realpath "$0")")
fail=0
. "$HERE/assert.sh"
. "$HERE/units.sh"
workspace "$DATA"
# f.cu twice, as when two targets build it: still one unit.
database a.cu b.cu c.cu d.cu e.cu f.cu f.cu

A="src/a.cu:6:5: note: 'cudaStreamCreate' in 'init_streams' creates a blocking stream, which synchronizes with the legacy default stream; legacy-stream work in src/b.cu (line 7), a unit that shares the stream through 'g_stream', is ordered with this stream only because it is blocking: move that work onto the stream first [SYNC103 blocking-stream-create]"
C="src/c.cu:6:5: note: 'cudaStreamCreateWithFlags' in 'make_stream' creates a blocking stream (flags 0, the default), which synchronizes with the legacy default stream; legacy-stream work in src/d.cu (line 7), a unit that shares the stream through 'make_stream()', is ordered with this stream only because it is blocking: move that work onto the stream first [SYNC103 blocking-stream-create]"
E="src/e.cu:6:5: note: 'cudaStreamCreate' in 'init_quiet' creates a blocking stream, which synchronizes with the legacy default stream [SYNC103 blocking-stream-create]"
MOVE="note: move the legacy-stream work onto a stream, then create this one with cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking)"
for run in "no cache" "cold cache" "warm cache"; do
    case $run in
    "no cache") ss lint --no-cache --color never --cuda-path none -p build ;;
    *) ss lint --cache-dir cache --color never --cuda-path none -p build ;;
    esac
    status "$run" 1
    grep SYNC103 out >sync103
    text "$run: SYNC103" sync103 "$A
$C
$E"
    grep -m1 -A3 "^src/a.cu:6:5" out >a.txt
    text "$run: a.cu, no fix-it" a.txt "$A
    cudaStreamCreate(&g_stream);
    ^
src/a.cu:6:5: $MOVE"
    grep -m1 -A4 "^src/e.cu:6:5" out >e.txt
    text "$run: e.cu, its fix-it" e.txt "$E
    cudaStreamCreate(&g_quiet);
    ^~~~~~~~~~~~~~~~~~~~~~~~~~
    cudaStreamCreateWithFlags(&g_quiet, cudaStreamNonBlocking)
src/e.cu:6:5: note: create it with cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking)"
done

# SARIF: no fixes for a.cu and c.cu, one for e.cu.
ss lint --no-cache --cuda-path none -p build --format sarif
[ "$(grep -c '"fixes"' out)" = 1 ] || fails "SARIF" "$(grep -c '"fixes"' out) results with fixes, expected 1"

# -p with a file named: the five units left out may share g_quiet, so e.cu keeps its stream.
ss lint --no-cache --color never --cuda-path none -p build --fix src/e.cu
status "-p src/e.cu --fix" 0
text "-p src/e.cu --fix: stderr" err "syncscope: src/e.cu:6:5: not fixed (SYNC103): 5 units of the compile database that this run did not lint may share it through 'g_quiet' and rely on its being blocking: lint them together (-p without naming files) before making it non-blocking"
first "-p src/e.cu --fix: report" out "src/e.cu:6:5: note: 'cudaStreamCreate' in 'init_quiet' creates a blocking stream, which synchronizes with the legacy default stream; 5 units of the compile database that this run did not lint may share it through 'g_quiet' and rely on its being blocking: lint them together (-p without naming files) before making it non-blocking [SYNC103 blocking-stream-create]"
cmp -s "$DATA/e.cu" src/e.cu || fails "-p src/e.cu --fix" "src/e.cu changed"

# --fix: a.cu and c.cu byte-identical, each with its reason; e.cu fixed.
ss lint --no-cache --color never --cuda-path none -p build --fix
status "--fix" 1
text "--fix: stderr" err "syncscope: src/a.cu:6:5: not fixed (SYNC103): legacy-stream work in src/b.cu (line 7), a unit that shares the stream through 'g_stream', is ordered with this stream only because it is blocking: move that work onto the stream first
syncscope: src/c.cu:6:5: not fixed (SYNC103): legacy-stream work in src/d.cu (line 7), a unit that shares the stream through 'make_stream()', is ordered with this stream only because it is blocking: move that work onto the stream first
syncscope: applied 1 fix-it in 1 file; linting again"
for u in a b c d f; do
    cmp -s "$DATA/$u.cu" "src/$u.cu" || fails "--fix" "src/$u.cu changed"
done
sed 's/cudaStreamCreate(&g_quiet);/cudaStreamCreateWithFlags(\&g_quiet, cudaStreamNonBlocking);/' \
    "$DATA/e.cu" >e.fixed
cmp -s e.fixed src/e.cu || fails "--fix" "src/e.cu is not as fixed: $(diff e.fixed src/e.cu)"
grep -q "src/e.cu" out && fails "--fix" "the re-lint still reports e.cu: $(grep src/e.cu out)"
exit $fail
