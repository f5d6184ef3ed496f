#!/bin/sh
# conventions.sh SYNCSCOPE ROOT HAVE_LINT LIBCLANG_MAJOR CUDA_LINE [FAKE_CUPTI APP]: what users
# of clang-tidy and
# ruff expect, with exact exit statuses and outputs: -q prints the diagnostics only (no
# summary line); --version and -V name the libclang, CUDA and CUPTI syncscope was built with;
# rules --format json; run exits 127 for a program that is not found and 126 for one that
# cannot be run, as env and timeout do; a mistyped format gets a did-you-mean; --write-baseline
# exits 0; --nvtx-range that matched nothing lists the ranges the trace has; run --color (with
# the fake CUPTI of tests/signal, where it is built).
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
SS=$(realpath "$1") ROOT=$(realpath "$2") HAVE_LINT=$3 LIBCLANG=$4 CUDA_LINE=$5
FAKE=${6:--} APP=${7:--}
WORK=$(cd "$(mktemp -d)" && pwd -P)
trap 'rm -rf "$WORK"' EXIT
cd "$WORK" || exit 1
unset NO_COLOR SYNCSCOPE_OUTPUT SYNCSCOPE_FORMAT SYNCSCOPE_TRACE SYNCSCOPE_QUIET LD_PRELOAD
export SYNCSCOPE_CUPTI_PATH=$WORK/no-cupti
fail=0
. "$HERE/assert.sh"
E="syncscope: error:"

# ---- --version and -V: the version, then what was built in ----
ss --version
status "--version" 0
head -1 out >first
text "--version: first line" first "syncscope $SS_TEST_VERSION"
if [ "$HAVE_LINT" = 1 ]; then
    sed -n 2p out | grep -Eqx "libclang $LIBCLANG \(clang-c API 0\.[0-9]+\), running .*clang version $LIBCLANG\.[0-9.]+.*" ||
        fails "--version: libclang" "line 2 is '$(sed -n 2p out)'"
else
    sed -n 2p out >second
    text "--version: no libclang" second "libclang: not built in (no lint)"
fi
sed -n 3p out >third
text "--version: CUDA and CUPTI" third "$CUDA_LINE"
[ "$(wc -l <out)" = 3 ] || fails "--version" "$(wc -l <out) lines, expected 3"
cp out version.txt
ss -V
status "-V" 0
cmp -s out version.txt || fails "-V" "differs from --version: $(cat out)"

# ---- rules --format json: the catalog, in the order of the text list ----
"$SS" rules >rules.txt
ss rules --format JSON
status "rules --format JSON" 0
python3 - "$WORK/out" "$WORK/rules.txt" >check.txt <<'PY'
import json, sys
rules = json.load(open(sys.argv[1]))
text = [line.split() for line in open(sys.argv[2])]
print(len(rules) == len(text) and len(rules) > 0)
for rule, line in zip(rules, text):
    halves = {"lint": ["lint"], "run": ["run"], "lint+run": ["lint", "run"]}[line[3]]
    if [rule["id"], rule["name"], rule["severity"], rule["detectedBy"]] != line[:3] + [halves]:
        print("differs:", rule["id"], line)
    if sorted(rule) != ["detectedBy", "explanation", "id", "lightMode", "name", "severity",
                        "summary"]:
        print("keys:", sorted(rule))
    if " ".join(line[4:]) != rule["summary"] or not rule["explanation"]:
        print("summary or explanation:", rule["id"])
print(rules[3]["id"], rules[3]["name"], rules[3]["detectedBy"])
print("light:", " ".join(r["id"] for r in rules if r["lightMode"] is True),
      all(r["lightMode"] in (True, False) for r in rules))
PY
text "rules --format json" check.txt "True
SYNC201 pageable-async-copy ['lint', 'run']
light: SYNC201 SYNC202 SYNC301 SYNC401 SYNC402 True"
ss rules --format text
cmp -s out rules.txt || fails "rules --format text" "differs from rules"
ss rules --format jsn
status "rules --format jsn" 2
text "rules --format jsn" err "$E unknown --format 'jsn' (did you mean 'json'?)"
ss rules --format xml
text "rules --format xml" err "$E unknown --format 'xml' (text or json)"

# ---- did-you-mean for a format name ----
ss analyze --format jsn "$ROOT/tests/data/scope_marks.sstrace"
status "analyze --format jsn" 2
text "analyze --format jsn" err "$E unknown --format 'jsn' (did you mean 'json'?)"

# ---- run: 127 for a program that is not found, 126 for one that cannot be run ----
ss run -- ./nonexistent
status "run -- ./nonexistent" 127
text "run -- ./nonexistent: stderr" err "$E cannot start './nonexistent': No such file or directory"
ss run -q -- no-such-program-anywhere
status "run -- not on PATH" 127
printf 'not a program\n' >plain.txt
chmod 644 plain.txt
ss run -- ./plain.txt
status "run -- a file that is not executable" 126
text "run -- not executable: stderr" err "$E cannot start './plain.txt': Permission denied"
ss run --error-exitcode 3 -- ./nonexistent
status "run --error-exitcode 3 -- ./nonexistent" 127

# ---- run --color: the words of --color, and the text report on stderr coloured ----
ss run --color sometimes -- true
status "run --color sometimes" 2
text "run --color sometimes" err "$E unknown --color 'sometimes' (auto, always or never)"
ss run --color ALWAYS --verbose -- true
status "run --color ALWAYS" 0
grep '^syncscope: SYNCSCOPE_COLOR=' err >color.txt
text "run --color ALWAYS: the variable" color.txt "syncscope: SYNCSCOPE_COLOR=always"
if [ "$FAKE" != "-" ] && [ "$APP" != "-" ]; then
    ESC=$(printf '\033')
    for when in always never auto; do
        SYNCSCOPE_CUPTI_PATH=$FAKE "$SS" run --color "$when" --nvtx-range nope -o - --format text \
            -- "$APP" exit >out 2>err
        rc=$?
        status "run --color $when (fake CUPTI)" 0
        grep "no NVTX range named 'nope'" err | grep -c "$ESC\[" >count.txt
        # always: the warning in colour; never, and auto with stderr not a terminal: plain.
        want=0
        if [ "$when" = always ]; then want=1; fi
        text "run --color $when: escapes" count.txt "$want"
        grep -c "no NVTX range named 'nope'" err >count.txt
        text "run --color $when: the warning" count.txt 1
    done
fi

# ---- --nvtx-range that matched nothing: the ranges seen ----
ss analyze --nvtx-range nope "$ROOT/tests/data/scope_marks.sstrace"
status "--nvtx-range nope" 0
grep 'no NVTX range' out >nvtx.txt
text "--nvtx-range nope" nvtx.txt "syncscope: warning: no NVTX range named 'nope' was seen: no call is in scope (the ranges seen: 'step')"

# ---- analyze: -q prints the findings only; --write-baseline exits 0 ----
ss analyze "$ROOT/tests/data/scope_marks.sstrace"
status "analyze" 1
last "analyze: summary" out "1 warning generated."
ss analyze -q "$ROOT/tests/data/scope_marks.sstrace"
status "analyze -q" 1
grep -c 'generated\.$' out >count.txt
text "analyze -q: no summary" count.txt 0
[ -s out ] || fails "analyze -q" "no finding printed"
ss analyze --write-baseline base.json "$ROOT/tests/data/scope_marks.sstrace"
status "analyze --write-baseline" 0
grep -c '"rule":' base.json >count.txt
text "analyze --write-baseline: recorded" count.txt 1

if [ "$HAVE_LINT" = 1 ]; then
    SRC=$ROOT/tests/ci/fixture/src/pipeline.cu
    # ---- lint -q: the diagnostics only, to stdout and to a file ----
    ss lint --no-cache "$SRC"
    status "lint" 1
    last "lint: summary" out "2 warnings generated."
    cp out full.txt
    ss lint --no-cache -q "$SRC"
    status "lint -q" 1
    sed '$d' full.txt >expected
    cmp -s out expected || fails "lint -q" "not the report without its summary: $(diff expected out)"
    text "lint -q: stderr" err ""
    ss lint --no-cache -q -o report.txt "$SRC"
    status "lint -q -o" 1
    cmp -s report.txt expected || fails "lint -q -o" "$(diff expected report.txt)"
    # ---- lint --write-baseline: 0 with findings, which the baseline then leaves out ----
    ss lint --no-cache --write-baseline lint-base.json "$SRC"
    status "lint --write-baseline" 0
    ss lint --no-cache --baseline lint-base.json "$SRC"
    status "lint --baseline" 0
    ss lint --no-cache --format jsn "$SRC"
    status "lint --format jsn" 2
    text "lint --format jsn" err "$E unknown --format 'jsn' (did you mean 'json'?)"
fi
exit $fail
