#!/bin/sh
# error_limit.sh SYNCSCOPE: a unit with more parse errors than clang's default limit (20) before
# its host code: lint parses past them (no error limit), so both waits in loops after them are
# found, the one in a function template's instantiation and the one in a plain function; it
# shows the first 20 errors and a note that counts the rest (text and JSON); --extra-arg
# -ferror-limit=20 gives clang's own limit back: its fatal error is shown and the plain
# function, skipped after it, has no finding.
set -u
SS=$(realpath "$1") HERE=$(dirname "$(realpath "$0")")
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
cd "$WORK" || exit 1
fail=0
. "$HERE/assert.sh"

{
    echo '#include <cuda_runtime.h>'
    i=1
    while [ $i -le 25 ]; do
        echo "undeclared_t v$i;"
        i=$((i + 1))
    done
    cat <<'SRC'
template <typename T> __global__ void k(T *p) { p[0] = 1; }
template <typename T> void step(T *d, int n)
{
    for (int i = 0; i < n; i++) {
        k<<<1, 1>>>(d);
        cudaDeviceSynchronize();
    }
}
template void step<float>(float *, int);
void plain(float *d, int n)
{
    for (int i = 0; i < n; i++) {
        k<<<1, 1>>>(d);
        cudaDeviceSynchronize();
    }
}
SRC
} >many.cu

lint() {
    ss lint --color never --cuda-path none --no-cache --fail-on none "$@" many.cu
}
lint
status "no limit" 2
grep ': error: ' out >errors
text "no limit: the errors shown" errors "$(i=2; while [ $i -le 21 ]; do
    echo "many.cu:$i:1: error: unknown type name 'undeclared_t'"; i=$((i + 1)); done)"
grep ': note: [0-9]* more error' out >more
text "no limit: the others counted" more \
    "many.cu: note: 5 more errors not shown; the unit was parsed and analyzed past them"
grep 'SYNC401' out | cut -d' ' -f1-5 >waits
text "no limit: both waits" waits "many.cu:32:9: warning: 'cudaDeviceSynchronize' in 'step'
many.cu:40:9: warning: 'cudaDeviceSynchronize' in 'plain'"
last "no limit: summary" out "2 warnings and 2 notes generated."

lint --format json
python3 - out >json <<'PY' || fails "json" "not read"
import json, sys
d = json.load(open(sys.argv[1]))
print(len(d["diagnostics"]), sum(x["severity"] == "error" for x in d["diagnostics"]))
print(d["diagnostics"][-1])
print(" ".join("%s:%d:%s" % (f["ruleId"], f["line"], f["severity"]) for f in d["findings"]))
PY
text "json" json "21 20
{'severity': 'note', 'file': 'many.cu', 'line': 0, 'column': 0, 'message': '5 more errors not shown; the unit was parsed and analyzed past them'}
SYNC101:31:note SYNC401:32:warning SYNC101:39:note SYNC401:40:warning"

lint --extra-arg=-ferror-limit=20
status "clang's limit" 2
grep -c ': error: unknown type name' out >count
text "clang's limit: 20 errors" count "20"
grep -v '^many.cu:[0-9]*:1: error: unknown type name\|^ ' out | grep -v '^ *\^' >rest
grep 'fatal error\|more error' rest >said
text "clang's limit: its fatal error" said \
    "many.cu: error: fatal error: too many errors emitted, stopping now"
grep 'SYNC401' out | cut -d' ' -f1-5 >waits
text "clang's limit: the plain function is skipped" waits \
    "many.cu:32:9: warning: 'cudaDeviceSynchronize' in 'step'"

exit $fail
