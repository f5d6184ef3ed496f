#!/bin/sh
# gate.sh SYNCSCOPE ROOT [FAKE_CUPTI APP PYTHON]: gates, baselines and scopes (docs/run.md,
# "Gates" and "Scopes") with exact exit statuses: `syncscope analyze` on the recorded traces of
# tests/data; `syncscope run` applying a gate to a program's exit status (its gate file written
# by the program itself, so that no GPU is needed); and, with the fake CUPTI of tests/signal, a
# whole run whose finisher judges the gate, and syncscope.scope() (python/syncscope) recording
# its marks into the trace. FAKE_CUPTI, APP and PYTHON are "-" where missing.
set -u
SS=$(realpath "$1") ROOT=$(realpath "$2")
FAKE=${3:--} APP=${4:--} PY=${5:--}
DATA=$ROOT/tests/data
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
cd "$WORK" || exit 1
fail=0
# The interposer is never started for real here: no CUPTI, the programs run unobserved.
export SYNCSCOPE_CUPTI_PATH=$WORK/no-cupti

# expect STATUS NAME COMMAND...: runs COMMAND (stdout to out, stderr to err), checks its status.
expect() {
    want=$1 name=$2
    shift 2
    "$@" >out 2>err
    got=$?
    if [ "$got" != "$want" ]; then
        echo "FAIL: $name: exit $got, expected $want"
        sed 's/^/  stderr: /' err | head -5
        fail=1
    fi
}
# has FILE COUNT LINE: LINE occurs exactly COUNT times in FILE, as a whole line.
has() {
    n=$(grep -cxF -- "$3" "$1")
    if [ "$n" != "$2" ]; then
        echo "FAIL: $1: $n lines, expected $2: $3"
        sed 's/^/  /' "$1" | head -8
        fail=1
    fi
}
# lines FILE PATTERN COUNT: COUNT lines of FILE match the extended regular expression.
lines() {
    n=$(grep -cE -- "$2" "$1")
    if [ "$n" != "$3" ]; then
        echo "FAIL: $1: $n lines match '$2', expected $3"
        fail=1
    fi
}

SYNC301=$DATA/gpu_sync301_scalar_readback.sstrace # 2 x SYNC301 (1.02 ms blocked of 207.81 ms)
SYNC201=$DATA/gpu_sync201_pageable_async.sstrace
SCOPES=$DATA/scope_marks.sstrace # 4 readbacks; NVTX 'step' around the 2nd, profiler the 3rd

# ---- analyze: --fail-on, --error-exitcode, --fail-over ----
expect 1 "analyze" "$SS" analyze "$SYNC301"
expect 7 "--error-exitcode 7" "$SS" analyze --error-exitcode 7 "$SYNC301"
has err 1 "syncscope: gate: failed: 1 finding at or above warning"
expect 0 "--error-exitcode 0" "$SS" analyze --error-exitcode 0 "$SYNC301"
expect 0 "--fail-on error" "$SS" analyze --fail-on error "$SYNC301"
expect 0 "--fail-over 1%" "$SS" analyze --fail-on error --fail-over 1% "$SYNC301"
has err 0 "syncscope: gate: failed: 0 findings at or above error; 1.02 ms blocked, over the budget of 0.52 ms (0.25% of 207.81 ms)"
expect 1 "--fail-over 0.25%" "$SS" analyze --fail-on error --fail-over 0.25% "$SYNC301"
has err 1 "syncscope: gate: failed: 0 findings at or above error; 1.02 ms blocked, over the budget of 0.52 ms (0.25% of 207.81 ms)"
expect 9 "--fail-over 1ms --error-exitcode 9" "$SS" analyze --fail-on none --fail-over 1ms --error-exitcode 9 "$SYNC301"
has err 1 "syncscope: gate: failed: findings do not fail it (--fail-on none); 1.02 ms blocked, over the budget of 1.00 ms"
expect 0 "--fail-over 1.1ms" "$SS" analyze --fail-on none --fail-over 1.1ms "$SYNC301"
expect 2 "--fail-over 2x" "$SS" analyze --fail-over 2x "$SYNC301"
has err 1 "syncscope: error: --fail-over needs a share of the wall time such as 2% or a duration such as 50ms (got '2x')"
expect 2 "--error-exitcode 256" "$SS" analyze --error-exitcode 256 "$SYNC301"
has err 1 "syncscope: error: --error-exitcode needs an exit status from 0 to 255 (got '256')"
expect 2 "--profile-from-start maybe" "$SS" analyze --profile-from-start maybe "$SYNC301"
# A share of the wall time needs the wall time (a hand-made trace without wall_ns).
grep -v '^meta wall_ns ' "$SYNC301" >nowall.sstrace
expect 2 "--fail-over 2% without wall_ns" "$SS" analyze --fail-over 2% nowall.sstrace
has err 1 "syncscope: error: --fail-over: the run's wall time is unknown, so a budget of 2% of it cannot be judged"

# ---- analyze: --baseline, --write-baseline ----
expect 0 "--write-baseline" "$SS" analyze --write-baseline base.json "$SYNC301"
lines base.json '"rule":' 5
expect 0 "--baseline (the same run)" "$SS" analyze --format json --baseline base.json "$SYNC301"
lines out '"ruleId":' 0
expect 1 "--baseline (another run)" "$SS" analyze --format json --baseline base.json "$SYNC201"
expect 0 "--baseline --fail-on error" "$SS" analyze --fail-on error --baseline base.json "$SYNC201"
echo '{"version": 1, "findings": [' >broken.json
expect 2 "--baseline broken" "$SS" analyze --baseline broken.json "$SYNC301"
has err 1 "syncscope: error: broken.json:2:1: malformed baseline: the file ends inside the JSON document"
expect 2 "--baseline missing" "$SS" analyze --baseline missing.json "$SYNC301"
# A run finding is keyed by the text of its line where the source can be read (the trace's
# loop.cu, relative to this folder): a baseline of the scoped run (round 2, line 20) leaves the
# three other rounds, which share its function, when unscoped; once line 20 is edited, its
# finding is new.
awk 'BEGIN { for (i = 1; i <= 45; i++) printf "    v%d = readback(step, %d);\n", i, i }' >loop.cu
expect 0 "--write-baseline scoped" "$SS" analyze --write-baseline scoped.json "$SCOPES"
lines scoped.json '"rule":' 1
expect 1 "--baseline scoped, unscoped" "$SS" analyze --format json --nvtx-range '' --baseline scoped.json "$SCOPES"
lines out '^			"line":	(10|30|40),$' 3
lines out '^			"line":	20,$' 0
sed -i '20s/readback/readback_again/' loop.cu
expect 1 "--baseline, line 20 edited" "$SS" analyze --format json --nvtx-range '' --baseline scoped.json "$SCOPES"
lines out '^			"line":	(10|20|30|40),$' 4
# Where the source cannot be read, the function stands for the line: the baseline's one entry
# (recorded without the source) removes one finding of the four, whichever comes first.
rm loop.cu
expect 0 "--write-baseline, no source" "$SS" analyze --write-baseline nosource.json "$SCOPES"
expect 1 "--baseline, no source" "$SS" analyze --format json --nvtx-range '' --baseline nosource.json "$SCOPES"
lines out '"ruleId":' 3

# ---- analyze: scopes recorded in the trace, and on the command line ----
expect 1 "scope as recorded" "$SS" analyze --format json "$SCOPES"
lines out '^			"line":	20,$' 1
lines out '"ruleId":' 1
has out 1 '				"nvtx":	"step"'
has out 1 "			\"message\":	\"scope: only calls made inside NVTX range 'step' count; 3 occurrences outside were left out\""
expect 1 "scope as recorded, text" "$SS" analyze "$SCOPES"
has out 1 "  nvtx: step"
has out 1 "syncscope: note: scope: only calls made inside NVTX range 'step' count; 3 occurrences outside were left out"
expect 1 "--nvtx-range ''" "$SS" analyze --format json --nvtx-range '' "$SCOPES"
lines out '"ruleId":' 4
has out 1 '				"nvtx":	"step"'
expect 1 "--profile-from-start off" "$SS" analyze --format json --nvtx-range '' --profile-from-start off "$SCOPES"
lines out '"ruleId":' 1
lines out '^			"line":	30,$' 1
expect 0 "step and the profiler" "$SS" analyze --format json --profile-from-start off "$SCOPES"
lines out '"ruleId":' 0
expect 0 "--nvtx-range nope" "$SS" analyze --nvtx-range nope "$SCOPES"
has out 1 "syncscope: warning: no NVTX range named 'nope' was seen: no call is in scope (the ranges seen: 'step')"
expect 1 "--fail-over scoped" "$SS" analyze --fail-on none --fail-over 0.29ms "$SCOPES"
has err 1 "syncscope: gate: failed: findings do not fail it (--fail-on none); 0.30 ms blocked, over the budget of 0.29 ms"

# ---- run: the gate applied to the program's exit status ----
record() { # PID FAILED WHY: the program's stand-in for its finisher's gate verdict
    printf 'echo "syncscope-gate 1 %s %s %s" >>"$SYNCSCOPE_GATE_FILE"' "$1" "$2" "$3"
}
if "$SS" run --help | grep -q -- '--error-exitcode'; then
    expect 3 "run: gate failed" "$SS" run --error-exitcode 3 -- sh -c "$(record 99 1 '2 findings at or above warning')"
    has err 1 "syncscope: error: gate failed in process 99: 2 findings at or above warning"
    has err 1 "syncscope: error: exit status 3 (--error-exitcode): the gate failed"
    expect 0 "run: gate passed" "$SS" run --error-exitcode 3 -- sh -c "$(record 99 0 'no finding')"
    expect 3 "run: one of two failed" "$SS" run --error-exitcode 3 -- sh -c "$(record 98 0 ok); $(record 99 1 over)"
    expect 4 "run: the program's failure is kept" "$SS" run --error-exitcode 3 -- sh -c "$(record 99 1 x); exit 4"
    # Nothing observed (no CUDA call: here, no GPU either): a status of its own, not a pass.
    expect 4 "run: nothing judged" "$SS" run --error-exitcode 3 -- true
    has err 1 "syncscope: error: no observed process judged the gate (no CUDA call was seen: no usable GPU, CUPTI could not start, or the program makes none): exit status 4"
    lines err 'gate' 1
    expect 6 "run: nothing judged, the program's failure is kept" "$SS" run --error-exitcode 3 -- sh -c 'exit 6'
    lines err 'gate' 0
    expect 5 "run: SYNCSCOPE_ERROR_EXITCODE" env SYNCSCOPE_ERROR_EXITCODE=5 "$SS" run -- sh -c "$(record 1 1 x)"
    expect 0 "run: --error-exitcode 0" "$SS" run --error-exitcode 0 -- true
    lines err 'gate' 0
    expect 6 "run: no gate, the program's own" "$SS" run -- sh -c 'exit 6'
    # A program that a signal ends ends syncscope with it (the shell reports 128 + 15).
    expect 143 "run: the program's signal" "$SS" run --error-exitcode 3 -- sh -c 'kill -TERM $$'
    # SIGTERM sent to syncscope reaches the program.
    "$SS" run --error-exitcode 3 -- sh -c 'trap "echo got TERM; exit 7" TERM; sleep 5 & wait' >out 2>err &
    pid=$!
    sleep 1
    kill -TERM "$pid"
    wait "$pid"
    got=$?
    [ "$got" = 7 ] || { echo "FAIL: run: forwarded SIGTERM: exit $got, expected 7"; fail=1; }
    has out 1 "got TERM"
    # Values are checked before the program starts.
    expect 2 "run: --fail-over bad" "$SS" run --error-exitcode 3 --fail-over 5 -- true
    has err 1 "syncscope: error: --fail-over needs a share of the wall time such as 2% or a duration such as 50ms (got '5')"
    expect 2 "run: --error-exitcode 300" "$SS" run --error-exitcode 300 -- true
    expect 2 "run: --fail-on bad" "$SS" run --fail-on warnings -- true
    expect 2 "run: --baseline broken" "$SS" run --baseline broken.json -- true
    has err 1 "syncscope: error: broken.json:2:1: malformed baseline: the file ends inside the JSON document"
    expect 2 "run: --profile-from-start bad" "$SS" run --profile-from-start 0 -- true
    expect 2 "run: --nvtx-range empty" "$SS" run --nvtx-range '' -- true
    expect 2 "run: SYNCSCOPE_ERROR_EXITCODE=x" env SYNCSCOPE_ERROR_EXITCODE=x "$SS" run -- true
fi

# ---- a whole run with the fake CUPTI: the finisher judges the gate ----
if [ "$FAKE" != "-" ] && [ "$APP" != "-" ]; then
    export SYNCSCOPE_CUPTI_PATH=$FAKE
    expect 0 "fake: gate passed" "$SS" run --error-exitcode 3 --fail-over 1ms -o fake.json -- "$APP" exit
    has err 1 "syncscope: gate: passed: 0 findings at or above warning; 0.0 us blocked, within the budget of 1.00 ms"
    lines err 'no observed process' 0
    # Under a plain LD_PRELOAD the gate is judged and said, the exit status left alone.
    PRELOAD=$(dirname "$SS")/../interpose/libsyncscope.so
    expect 0 "fake: plain LD_PRELOAD" env LD_PRELOAD="$PRELOAD" SYNCSCOPE_ERROR_EXITCODE=3 \
        SYNCSCOPE_OUTPUT=plain.json "$APP" exit
    has err 1 "syncscope: gate: passed: 0 findings at or above warning"
    has err 1 "syncscope: warning: SYNCSCOPE_ERROR_EXITCODE is applied by 'syncscope run' alone: the exit status stays the program's own"
    if [ "$PY" != "-" ]; then
        expect 0 "python: syncscope.scope" env LD_PRELOAD="$PRELOAD" SYNCSCOPE_OUTPUT=py.json \
            SYNCSCOPE_TRACE=py.sstrace PYTHONPATH="$ROOT/python" \
            "$PY" -c 'import sys, syncscope
assert "ctypes" not in sys.modules, "import syncscope imported ctypes"
with syncscope.scope("outer"):
    with syncscope.scope():
        pass
print(syncscope.observed())'
        has out 1 "True"
        has py.sstrace 1 "SSTRACE 1 1"
        lines py.sstrace '^scope [0-9]+ 1 5 1 1 [0-9]+$' 1
        lines py.sstrace '^scope [0-9]+ 1 5 1 2 [0-9]+$' 1
        lines py.sstrace '^scope [0-9]+ 1 6 1 2 0$' 1
        lines py.sstrace '^scope [0-9]+ 1 6 1 1 0$' 1
        lines py.sstrace '^str [0-9]+ outer$' 1
        lines py.sstrace '^str [0-9]+ syncscope$' 1
        # Unobserved, a scope does nothing.
        expect 0 "python: unobserved" env PYTHONPATH="$ROOT/python" "$PY" -c 'import syncscope
with syncscope.scope("x"):
    pass
print(syncscope.observed())'
        has out 1 "False"
    fi
fi
[ "$fail" = 0 ] && echo "gate: analyze and run gates, baselines and scopes as expected"
exit $fail
