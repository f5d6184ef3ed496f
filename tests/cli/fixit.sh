#!/bin/sh
# fixit.sh SYNCSCOPE DATA_DIR: SYNC103's fix-its, exactly: the text output (clang's fix-it
# line under the caret line, the same from the cache), the SARIF 'fixes' of each result, and
# syncscope lint --fix (the edited file byte for byte, LF and CRLF, its mode kept, the re-lint
# that follows, and nothing done the second time). A call that spans lines or comes from a
# macro gets no fix-it.
set -u
SS=$(realpath "$1") DATA=$(realpath "$2")
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
cd "$WORK" || exit 1
fail=0
check() { # what expected actual
    if [ "$2" != "$3" ]; then
        echo "FAIL: $1: expected [$2], got [$3]"
        fail=1
    fi
}
same() { # what expected-file actual-file
    if ! cmp -s "$2" "$3"; then
        echo "FAIL: $1 differs from $2:"
        diff "$2" "$3" | head -20
        fail=1
    fi
}
lint() { # args...: stdout to out.txt, stderr to err.txt, status in $rc
    "$SS" lint --cuda-path=none --color=never "$@" fixit.cu >out.txt 2>err.txt
    rc=$?
}

cp "$DATA/fixit.cu" fixit.cu
lint --no-cache
check "text: status" 0 "$rc"
same "text output" "$DATA/fixit.text" out.txt
lint --cache-dir cache
same "text output, cold cache" "$DATA/fixit.text" out.txt
lint --cache-dir cache
same "text output, from the cache" "$DATA/fixit.text" out.txt

"$SS" lint --no-cache --cuda-path=none --format sarif fixit.cu >out.sarif 2>/dev/null
awk '/"fixes":/{p=1} /"properties":/{p=0} p' out.sarif >fixes.txt
same "SARIF fixes" "$DATA/fixit.sarif-fixes" fixes.txt

chmod 640 fixit.cu
lint --no-cache --fix
check "--fix: status" 0 "$rc"
check "--fix: stderr" "syncscope: applied 4 fix-its in 1 file; linting again" "$(cat err.txt)"
same "--fix: the file" "$DATA/fixit.fixed.cu" fixit.cu
same "--fix: the re-lint" "$DATA/fixit.after.text" out.txt
check "--fix: mode" 640 "$(stat -c %a fixit.cu)"
check "--fix: no file left behind" "cache err.txt fixes.txt fixit.cu out.sarif out.txt" \
    "$(ls -A | sort | tr '\n' ' ' | sed 's/ $//')"
lint --no-cache --fix
check "--fix again: status" 0 "$rc"
check "--fix again: stderr" "" "$(cat err.txt)"
same "--fix again: the file" "$DATA/fixit.fixed.cu" fixit.cu

# CRLF line ends are kept.
sed 's/$/\r/' "$DATA/fixit.cu" >fixit.cu
sed 's/$/\r/' "$DATA/fixit.fixed.cu" >expected_crlf.cu
lint --no-cache --fix
check "--fix CRLF: status" 0 "$rc"
same "--fix CRLF: the file" expected_crlf.cu fixit.cu

# Refused: the unit launches on the legacy stream and copies synchronously, which a
# non-blocking stream would race with; --fix says why and leaves the file byte for byte.
cp "$DATA/fixit_refused.cu" fixit_refused.cu
"$SS" lint --no-cache --cuda-path=none --color=never --fix fixit_refused.cu >out.txt 2>err.txt
rc=$?
check "--fix refused: status" 1 "$rc"
check "--fix refused: stderr" "syncscope: fixit_refused.cu:10:5: not fixed (SYNC103): legacy-stream work at lines 11 and 13 is ordered with this stream only because it is blocking: move that work onto the stream first" "$(cat err.txt)"
same "--fix refused: the file" "$DATA/fixit_refused.cu" fixit_refused.cu
check "--fix refused: the finding" "fixit_refused.cu:10:5: note: 'cudaStreamCreate' in 'forward' creates a blocking stream, which synchronizes with the legacy default stream; legacy-stream work at lines 11 and 13 is ordered with this stream only because it is blocking: move that work onto the stream first [SYNC103 blocking-stream-create]" \
    "$(grep -F '[SYNC103' out.txt)"
check "--fix refused: the hint" "fixit_refused.cu:10:5: note: move the legacy-stream work onto a stream, then create this one with cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking)" \
    "$(grep -F 'fixit_refused.cu:10:5: note: move' out.txt)"
check "--fix refused: no fix-it line" "" "$(grep -F '    cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking)' out.txt)"

[ "$fail" = 0 ] && echo "fixit: text, cache, SARIF and --fix exact"
exit $fail
