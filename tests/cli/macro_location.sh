#!/bin/sh
# macro_location.sh SYNCSCOPE DATA_DIR: a finding at a call written in a macro's argument over
# two lines is reported at the call's own line, with the macro's invocation as clang's
# "expanded from macro" note: the exact text, the JSON 'expandedFrom' and the SARIF related
# location; a suppression comment on the macro's line still applies. upload() runs on every
# iteration of train()'s loop, so the finding is a warning (a warning needs a loop).
set -u
SS=$(realpath "$1") DATA=$(realpath "$2")
HERE=$(cd "$(dirname "$0")" && pwd)
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
cd "$WORK" || exit 1
cp "$DATA/macro_location.cu" .
fail=0
. "$HERE/assert.sh"
lint() { # format
    "$SS" lint --no-cache --cuda-path=none --color=never --format "$1" macro_location.cu \
        >"out.$1" 2>err
    rc=$?
}
m201="host buffer 'h' comes from malloc() at line 7: 'cudaMemcpyAsync' in 'upload' copies from pageable memory, so it is staged and blocks the host instead of overlapping; it runs on every iteration: 'upload()' is called from the loop at macro_location.cu:15, which enqueues device work"
lint text
status text 1
text text out.text "macro_location.cu:9:9: warning: $m201 [SYNC201 pageable-async-copy]
        cudaMemcpyAsync(d, h, n, cudaMemcpyHostToDevice, s));
        ^
macro_location.cu:8:5: note: expanded from macro 'CHECK'
macro_location.cu:9:9: note: allocate it with cudaMallocHost or register it with cudaHostRegister
1 warning generated."
lint json
status json 1
python3 - out.json <<'PY' || fail=1
import json, sys
f = json.load(open(sys.argv[1]))["findings"]
got = [(x["ruleId"], x["line"], x["column"], x["expandedFrom"]) for x in f]
want = [("SYNC201", 9, 9, {"macro": "CHECK", "line": 8, "column": 5})]
if got != want:
    print("FAIL: json: %r, expected %r" % (got, want))
    sys.exit(1)
PY
lint sarif
status sarif 1
python3 - out.sarif <<'PY' || fail=1
import json, sys
r = json.load(open(sys.argv[1]))["runs"][0]["results"]
got = [(x["locations"][0]["physicalLocation"]["region"]["startLine"],
        [(l["physicalLocation"]["region"]["startLine"],
          l["physicalLocation"]["region"]["startColumn"], l["message"]["text"])
         for l in x.get("relatedLocations", [])]) for x in r]
want = [(9, [(8, 5, "expanded from macro 'CHECK'.")])]
if got != want:
    print("FAIL: sarif: %r, expected %r" % (got, want))
    sys.exit(1)
PY
[ "$fail" = 0 ] && echo "macro_location: text, json and sarif name the call's line and the macro"
exit $fail
