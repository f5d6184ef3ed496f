#!/bin/sh
# caller_waits.sh SYNCSCOPE DATA_DIR: a wait every caller repeats (-p). A stage's wait that is
# the last thing it does on its stream is a note where every call of the stage in the project
# is followed at once by a wait for the same work: the device's, an event's recorded on the
# stream, the legacy stream's (an event that a gate records on it, the stream a blocking one in
# every call: main.cu), or a function's that ends by waiting for the stream (finish.cu). It stays
# a warning where one call is followed by other work (stage_mixed), where the function is named
# in a table of pointers (stage_pointer), where the host reads after the wait (stage_count), and
# where the caller's wait is a plain wait for the stream, which the facts already make the note
# (stage_sync); so it does when the unit that holds the fact is left out of the run (main.cu,
# finish.cu). The same with and without the cache, at -j 1 and -j 3 (exact output).
set -u
SS=$(realpath "$1") DATA=$(realpath "$2")/caller_waits HERE=$(dirname "$(realpath "$0")")
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
cd "$WORK" || exit 1
fail=0
. "$HERE/assert.sh"

mkdir src build
cp "$DATA"/* src/
{
    printf '['
    sep=
    for u in main pipeline stages finish; do
        printf '%s{"directory": "%s", "file": "%s/src/%s.cu", "arguments": ["nvcc", "-c", "src/%s.cu"]}' \
            "$sep" "$WORK" "$WORK" "$u" "$u"
        sep=', '
    done
    printf ']\n'
} >build/compile_commands.json

# The finding of the wait in stage NAME (LINE, its kernel launched at line LINE - 1) or finish.
wait_of() { # FILE LINE FUNCTION KERNEL
    echo "'cudaStreamSynchronize' in '$3()' blocks the host on every call of '$3()', which also enqueues device work (kernel '$4' is launched at line $(($2 - 1))): the GPU drains and idles while the host catches up; it runs on every iteration: '$3()' is called from the loop at pipeline.cu:14, in 'pipeline' (another unit)"
}
TAG="[SYNC401 sync-in-loop]"
SAME="the caller waits for the same work right after: 'pipeline()' calls it at"
GAINS="removing this wait gains nothing $TAG"
W7="src/stages.cu:7:5: warning: $(wait_of stages.cu 7 stage_sync k) $TAG"
W13="src/stages.cu:13:5: warning: $(wait_of stages.cu 13 stage_timed k) $TAG"
N13="src/stages.cu:13:5: note: $(wait_of stages.cu 13 stage_timed k); $SAME pipeline.cu:17, then 'FrameGate::close()' at line 18, which first waits for an event recorded on the legacy stream ('cudaEventSynchronize' at gate.h:14), whose work comes after every blocking stream's, and every call gives this one a blocking stream: $GAINS"
N19="src/stages.cu:19:5: note: $(wait_of stages.cu 19 stage_device k); $SAME pipeline.cu:19, then 'cudaDeviceSynchronize' at line 20: $GAINS"
N25="src/stages.cu:25:5: note: $(wait_of stages.cu 25 stage_event k); $SAME pipeline.cu:21, then 'cudaEventSynchronize' at line 23: $GAINS"
W19="src/stages.cu:19:5: warning: $(wait_of stages.cu 19 stage_device k) $TAG"
W25="src/stages.cu:25:5: warning: $(wait_of stages.cu 25 stage_event k) $TAG"
W31="src/stages.cu:31:5: warning: $(wait_of stages.cu 31 stage_next k) $TAG"
N31="src/stages.cu:31:5: note: $(wait_of stages.cu 31 stage_next k); $SAME pipeline.cu:32, then 'finish()' at line 33, which ends by waiting for the stream ('cudaStreamSynchronize' at finish.cu:7): $GAINS"
W37="src/stages.cu:37:5: warning: $(wait_of stages.cu 37 stage_mixed k) $TAG"
W43="src/stages.cu:43:5: warning: $(wait_of stages.cu 43 stage_pointer k) $TAG"
W50="src/stages.cu:50:5: warning: $(wait_of stages.cu 50 stage_count k) $TAG"
F7="src/finish.cu:7:5: warning: $(wait_of finish.cu 7 finish last) $TAG"
# The caller's own wait after stage_sync, which that stage's wait leaves idle.
P16="src/pipeline.cu:16:9: note: 'cudaStreamSynchronize' in 'pipeline' blocks the host on every iteration of a for loop (line 14) that also enqueues device work ('cudaMemsetAsync' enqueues work at line 27): the GPU drains and idles while the host catches up; idle: the stream 's' has nothing queued: 'stage_sync()' at line 15 ends by waiting for it ('cudaStreamSynchronize' at stages.cu:7) and nothing is queued since, so the wait has nothing to wait for $TAG"

for run in "no cache, -j 1" "no cache, -j 3" "cold cache" "warm cache"; do
    lint_way "$run"
    status "$run" 1
    grep -e '^src/stages.cu:.*SYNC401' -e '^src/finish.cu:.*SYNC401' -e '^src/pipeline.cu:16:.*SYNC401' out >sync401
    text "$run: SYNC401" sync401 "$F7
$P16
$W7
$N13
$N19
$N25
$N31
$W37
$W43
$W50"
done

# main.cu and finish.cu left out: every wait stays a warning, since a unit left out of the run
# may call a stage without waiting after it (and main.cu gives the blocking stream, finish.cu
# its wait).
ss lint --no-cache --color never --cuda-path none -p build src/stages.cu src/pipeline.cu
grep '^src/stages.cu:.*SYNC401' out >sync401
text "main.cu and finish.cu left out" sync401 "$W7
$W13
$W19
$W25
$W31
$W37
$W43
$W50"
exit $fail
