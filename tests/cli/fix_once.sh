#!/bin/sh
# fix_once.sh SYNCSCOPE DATA_DIR: the fix of a SYNC201, SYNC202 and SYNC301 finding is said
# once, as the finding's hint, in every format: the exact text and GitHub output, and the
# exact message and hint of each JSON finding and SARIF result.
set -u
SS=$(realpath "$1") DATA=$(realpath "$2")
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
cd "$WORK" || exit 1
cp "$DATA/fix_once.cu" .
fail=0
lint() { # format
    "$SS" lint --no-cache --cuda-path=none --color=never --format "$1" fix_once.cu >"out.$1" 2>/dev/null
    rc=$?
    if [ "$rc" != 1 ]; then
        echo "FAIL: --format $1: exit $rc, expected 1"
        fail=1
    fi
}
same() { # format expected-file
    if ! cmp -s "$2" "out.$1"; then
        echo "FAIL: --format $1 differs from $2:"
        diff "$2" "out.$1" | head -20
        fail=1
    fi
}
# has FORMAT COUNT LINE: LINE occurs exactly COUNT times in the output, as a whole line.
has() {
    n=$(grep -cxF -- "$3" "out.$1")
    if [ "$n" != "$2" ]; then
        echo "FAIL: --format $1: $n lines, expected $2: $3"
        fail=1
    fi
}
TAB=$(printf '\t')
m201="host buffer 'h' comes from malloc() at line 8: 'cudaMemcpyAsync' in 'f' copies from pageable memory, so it is staged and blocks the host instead of overlapping; it runs on every iteration: 'f()' is called from the loop at fix_once.cu:18, which enqueues device work"
h201="allocate it with cudaMallocHost or register it with cudaHostRegister"
m202="synchronous copy 'cudaMemcpy' in 'f()' called from the loop at fix_once.cu:18, which launches kernel 'k' (line 10): each iteration waits for the device to drain, so copies and kernels never overlap"
h202="use the Async variant on the pipeline's stream, with pinned host memory, and synchronize only where the result is needed"
m301="'cudaMemcpy' in 'f' reads one value (size 'sizeof(float)') back from the device into '&v' in 'f()' called from the loop at fix_once.cu:18, which launches kernel 'k' (line 10): in every iteration the host stalls until all queued work has produced it"
h301="keep the value on the device (let the next kernel read it), or batch such values and read them back once, asynchronously into pinned memory"

lint text
same text "$DATA/fix_once.text"
lint github
same github "$DATA/fix_once.github"
lint json
has json 1 "$TAB$TAB$TAB\"message\":$TAB\"$m201\","
has json 1 "$TAB$TAB$TAB\"hint\":$TAB\"$h201\","
has json 1 "$TAB$TAB$TAB\"message\":$TAB\"$m202\","
has json 1 "$TAB$TAB$TAB\"hint\":$TAB\"$h202\","
has json 1 "$TAB$TAB$TAB\"message\":$TAB\"$m301\","
has json 1 "$TAB$TAB$TAB\"hint\":$TAB\"$h301\","
lint sarif
has sarif 1 "$TAB$TAB$TAB$TAB$TAB$TAB\"text\":$TAB\"$m201. $h201.\""
has sarif 1 "$TAB$TAB$TAB$TAB$TAB$TAB\"text\":$TAB\"$m202. $h202.\""
has sarif 1 "$TAB$TAB$TAB$TAB$TAB$TAB\"text\":$TAB\"$m301. $h301.\""
[ "$fail" = 0 ] && echo "fix_once: text, github, json and sarif say each fix once"
exit $fail
