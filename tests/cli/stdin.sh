#!/bin/sh
# stdin.sh SYNCSCOPE: `syncscope lint -` reads the source from standard input and analyzes it
# under the name --stdin-filename gives (exact output): the findings name it, every reader of
# the source (the quoted macro and expression, the source line, the suppression comments, the
# legacy-stream places of SYNC103) reads the text given, not the file of that name on disk;
# -p finds its compile command by the name, which need not exist; --fix and the misuses are
# refused (exit 2) and leave the file as it was.
set -u
SS=$(realpath "$1") HERE=$(dirname "$(realpath "$0")")
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
cd "$WORK" || exit 1
fail=0
. "$HERE/assert.sh"

# k.cu on disk has nothing to report; the text on standard input has three findings and a
# suppressed fourth (its f() called from a loop: a warning needs one).
cat >k.cu <<'SRC'
// k.cu as saved: nothing to report.
#include <cuda_runtime.h>
void f(void) { }
SRC
cp k.cu saved.cu
cat >edited.cu <<'SRC'
#include <cuda_runtime.h>
#include <stdlib.h>
#define DEFAULT_S 0
__global__ void k(void) {}
void f(float *d, size_t n)
{
    k<<<1, 1, 0, DEFAULT_S>>>();
    cudaStream_t a;
    cudaStreamCreate(&a);
    float *h = (float *)malloc(n * sizeof(float));
    cudaMemcpyAsync(d, h + 1, n, cudaMemcpyHostToDevice, a);
    k<<<1, 1>>>(); // syncscope-ignore: SYNC101
    k<<<1, 1, 0, a>>>();
}
void step(float *d, size_t n, int steps)
{
    for (int i = 0; i < steps; i++)
        f(d, n);
}
SRC
ss lint --no-cache --color never --cuda-path none --stdin-filename k.cu - <edited.cu
status "the edited text" 1
text "the edited text: report" out "k.cu:7:5: warning: kernel 'k' is launched in 'f' on the legacy default stream (stream 'DEFAULT_S'); it runs on every iteration: 'f()' is called from the loop at k.cu:17, which enqueues device work [SYNC101 default-stream-launch]
    k<<<1, 1, 0, DEFAULT_S>>>();
    ^
k.cu:7:5: note: pass an explicit stream created with cudaStreamNonBlocking, or compile with --default-stream per-thread
k.cu:9:5: note: 'cudaStreamCreate' in 'f' creates a blocking stream, which synchronizes with the legacy default stream; legacy-stream work at lines 7 and 12 is ordered with this stream only because it is blocking: move that work onto the stream first [SYNC103 blocking-stream-create]
    cudaStreamCreate(&a);
    ^
k.cu:9:5: note: move the legacy-stream work onto a stream, then create this one with cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking)
k.cu:11:5: warning: host buffer 'h + 1' comes from malloc() at line 10: 'cudaMemcpyAsync' in 'f' copies from pageable memory, so it is staged and blocks the host instead of overlapping; it runs on every iteration: 'f()' is called from the loop at k.cu:17, which enqueues device work [SYNC201 pageable-async-copy]
    cudaMemcpyAsync(d, h + 1, n, cudaMemcpyHostToDevice, a);
    ^
k.cu:11:5: note: allocate it with cudaMallocHost or register it with cudaHostRegister
2 warnings and 1 note generated."
text "the edited text: stderr" err ""
cmp -s k.cu saved.cu || fails "the edited text" "k.cu was changed"

# The file on disk is linted as saved.
ss lint --no-cache --color never --cuda-path none k.cu
status "the saved file" 0
text "the saved file: report" out "1 file, 0 findings"

# -p: the compile command of the name (STREAM is defined there only).
mkdir build
cat >build/compile_commands.json <<JSON
[{"directory": "$WORK", "file": "$WORK/k.cu", "arguments": ["nvcc", "-DSTREAM=0", "-c", "k.cu"]}]
JSON
printf '#include <cuda_runtime.h>\n__global__ void k(void) {}\nvoid g(void) { k<<<1, 1, 0, STREAM>>>(); }\n' >stream.cu
ss lint --no-cache --color never --cuda-path none -p build --stdin-filename k.cu - <stream.cu
status "-p" 0
first "-p" out "k.cu:3:16: note: kernel 'k' is launched in 'g' on the legacy default stream (stream 'STREAM'); nothing in this translation unit uses a stream other than the legacy one, so it holds nothing up yet [SYNC101 default-stream-launch]"
ss lint --no-cache --color never --cuda-path none --stdin-filename k.cu - <stream.cu
status "without -p" 2
first "without -p" out "k.cu:3:29: error: use of undeclared identifier 'STREAM'"

# A name that does not exist yet, in a folder that does; JSON names it.
mkdir sub
ss lint --format json --cuda-path none --stdin-filename sub/new.cu - <stream.cu
status "a new file" 2
[ "$(grep -c '"file":	"sub/new.cu"' out)" = 2 ] ||
    fails "a new file" "the finding and the error do not name sub/new.cu: $(grep '"file"' out)"
[ ! -e sub/new.cu ] || fails "a new file" "sub/new.cu was created"

# Refused: exit 2 and why; --fix leaves the file byte-identical.
ss lint --no-cache --cuda-path none --fix --stdin-filename k.cu - <edited.cu
status "--fix" 2
text "--fix: stderr" err "syncscope: error: --fix does not go with '-': the source on standard input has no file to write the fixes into (lint k.cu itself with --fix, or take the fix-its from --format sarif)"
text "--fix: stdout" out ""
cmp -s k.cu saved.cu || fails "--fix" "k.cu was changed"
ss lint --cuda-path none - <edited.cu
status "no name" 2
text "no name" err "syncscope: error: '-' reads the source from standard input: name it with --stdin-filename NAME (its language, compile command and configuration come from the name)"
ss lint --cuda-path none --stdin-filename k.cu <edited.cu
status "no '-'" 2
text "no '-'" err "syncscope: error: --stdin-filename names the source read from standard input: give '-' as the input (syncscope lint --stdin-filename k.cu -)"
ss lint --cuda-path none --stdin-filename k.cu - k.cu <edited.cu
status "'-' and a file" 2
text "'-' and a file" err "syncscope: error: '-' (the source on standard input) is the only input of its run: name no other file or folder with it"
ss lint --cuda-path none --stdin-filename k.txt - <edited.cu
status "not a source name" 2
text "not a source name" err "syncscope: error: --stdin-filename 'k.txt' is not a C, C++ or CUDA source file name"
ss lint --cuda-path none --stdin-filename nowhere/k.cu - <edited.cu
status "no folder" 2
text "no folder" err "syncscope: error: --stdin-filename 'nowhere/k.cu': its folder cannot be resolved: No such file or directory"
exit $fail
