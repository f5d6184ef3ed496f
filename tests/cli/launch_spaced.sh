#!/bin/sh
# launch_spaced.sh SYNCSCOPE: kernel launches written with spaces inside the brackets
# ('k << <g, b >> >(a)', as Visual Studio formats them) in the main file and in a header it
# includes: lint parses the unit again with them read as '<<<' and '>>>' (exact output): the
# findings that need the launches are there, at the line and column of the file as written,
# quoting its line as written; no parse error is left, the summary counts none; --verbose names
# the files; a second run from the cache says the same; the same text from standard input too.
set -u
SS=$(realpath "$1") HERE=$(dirname "$(realpath "$0")")
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
cd "$WORK" || exit 1
fail=0
. "$HERE/assert.sh"

cat >step.cuh <<'SRC'
#include <cuda_runtime.h>
__global__ void blur(float *img) { img[0] *= 0.5f; }
inline void step(float *img, cudaStream_t s)
{
	blur << <dim3(64), dim3(256), 0, s >> >(img);
}
SRC
cat >frames.cu <<'SRC'
#include "step.cuh"
__global__ void add(float *img) { img[0] += 1.0f; }
void frames(float *img, int n, cudaStream_t s)
{
    for (int i = 0; i < n; i++) {
        step(img, s);
        add << <64, 256, 0, s >> >(img);
        cudaStreamSynchronize(s);
    }
}
SRC
FINDING="frames.cu:8:9: warning: 'cudaStreamSynchronize' in 'frames' blocks the host on every iteration of a for loop (line 5) that also enqueues device work (kernel 'add' is launched at line 7): the GPU drains and idles while the host catches up [SYNC401 sync-in-loop]
        cudaStreamSynchronize(s);
        ^
frames.cu:8:9: note: synchronize once after the loop, or let the next step wait on the device (cudaEventRecord + cudaStreamWaitEvent) instead of blocking the host each iteration
1 warning generated."

lint() {
    ss lint --color never --cuda-path none --fail-on none "$@" frames.cu
}
lint --no-cache
status "spaced launches" 0
text "spaced launches: the findings" out "$FINDING"
text "spaced launches: no parse error" err ""

lint --no-cache --verbose
grep -v ': arguments \|: dropped ' err >said
text "--verbose" said "syncscope: frames.cu: parsed again with 2 kernel launches written '<< <' ... '>> >' read as '<<<' ... '>>>', in step.cuh, frames.cu"

lint --no-cache --format json
tr -d ' \t\n' <out | grep -q '"analyzed":1,"withErrors":0,' ||
    fails "summary" "$(tr -d ' \t\n' <out | grep -o '"files":{[^}]*')"

# The launch in the header is seen too: SYNC101 when it has no stream, at its place in the
# header, quoting the line as written (a note: the header's only launch, so the legacy stream is
# its convention).
sed 's/, 0, s >> >/ >> >/' step.cuh >step2.cuh && mv step2.cuh step.cuh
lint --no-cache
grep -q "^step.cuh:5:2: note: kernel 'blur' is launched in 'step' without a stream" out ||
    fails "the header's launch" "$(grep -v '^ ' out)"
grep -qx '	blur << <dim3(64), dim3(256) >> >(img);' out ||
    fails "the header's line as written" "$(cat out)"

# More errors than clang's default limit (20), given with --extra-arg (lint sets none): the
# first parse stops in fills.cuh, before it reads step.cuh; the second (fills.cuh and the main
# file rewritten) has errors in step.cuh, the third reads all three, and no "too many errors
# emitted" is left. Without the limit, the first parse's errors name all three files.
{
    echo '#include <cuda_runtime.h>'
    echo '__global__ void fill(float *img) { img[0] = 0.0f; }'
    echo 'inline void fills(float *img, cudaStream_t s)'
    echo '{'
    for i in 1 2 3 4 5 6 7 8 9 10 11 12; do echo '    fill << <1, 1, 0, s >> >(img);'; done
    echo '}'
} >fills.cuh
sed 's/#include "step.cuh"/#include "fills.cuh"\n#include "step.cuh"/' frames.cu >many.cu
for limit in --extra-arg=-ferror-limit=20 ""; do
    ss lint --color never --cuda-path none --fail-on none --no-cache --verbose $limit many.cu
    status "many launches $limit" 0
    grep -v ': arguments \|: dropped ' err >said
    order="fills.cuh, many.cu, step.cuh"
    [ -n "$limit" ] || order="fills.cuh, step.cuh, many.cu"
    text "many launches $limit: --verbose" said "syncscope: many.cu: parsed again with 14 kernel launches written '<< <' ... '>> >' read as '<<<' ... '>>>', in $order"
    grep -q "^many.cu:9:9: warning: 'cudaStreamSynchronize' in 'frames'" out ||
        fails "many launches $limit: the finding" "$(cat out)"
done

# From the cache: the same findings, and still no parse error.
lint --cache-dir cache
cp out first
lint --cache-dir cache
text "from the cache" out "$(cat first)"
text "from the cache: no parse error" err ""
[ -n "$(ls cache)" ] || fails "cache" "nothing was stored"

# The main file's text from standard input.
# The main file's text from standard input (the file of that name on disk has no launch).
cp frames.cu edited.cu
sed 's/add << <64, 256, 0, s >> >(img);/(void)0;/' edited.cu >frames.cu
"$SS" lint --color never --cuda-path none --fail-on none --no-cache --stdin-filename frames.cu \
    - <edited.cu >out 2>err
grep -q "^frames.cu:8:9: warning: 'cudaStreamSynchronize' in 'frames' blocks the host on every iteration of a for loop (line 5) that also enqueues device work (kernel 'add' is launched at line 7)" out ||
    fails "standard input" "$(cat out err)"
text "standard input: no parse error" err ""

exit $fail
