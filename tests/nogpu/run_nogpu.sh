#!/bin/sh
# run_nogpu.sh APP LIBSYNCSCOPE SYNCSCOPE: on a machine without a GPU, the program runs the
# same bare, under LD_PRELOAD=libsyncscope.so and under `syncscope run`: identical stdout,
# stderr apart from exactly one "syncscope:" line, identical exit status, no output file; a
# gate (--error-exitcode) that nothing could judge exits 4.
set -u
APP=$1 LIB=$2 SS=$3
if [ -e /dev/nvidiactl ]; then
    echo "a GPU is visible here: this test is for machines without one"
    exit 77
fi
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
cd "$WORK" || exit 1
unset SYNCSCOPE_OUTPUT SYNCSCOPE_TRACE SYNCSCOPE_QUIET LD_PRELOAD
fail=0
check() { # what expected actual
    if [ "$2" != "$3" ]; then
        echo "FAIL: $1: expected [$2], got [$3]"
        fail=1
    fi
}
for mode in ok exit3 term; do
    "$APP" "$mode" >bare.out 2>bare.err
    bare_rc=$?
    LD_PRELOAD="$LIB" "$APP" "$mode" >pre.out 2>pre.err
    pre_rc=$?
    "$SS" run -- "$APP" "$mode" >run.out 2>run.err
    run_rc=$?
    case $mode in
    ok) check "$mode bare status" 0 "$bare_rc" ;;
    exit3) check "$mode bare status" 3 "$bare_rc" ;;
    term) check "$mode bare status" 143 "$bare_rc" ;;
    esac
    for v in pre run; do
        eval "rc=\$${v}_rc"
        check "$mode $v status" "$bare_rc" "$rc"
        cmp -s bare.out $v.out || { echo "FAIL: $mode $v stdout differs"; diff bare.out $v.out; fail=1; }
        check "$mode $v syncscope lines" 1 "$(grep -c '^syncscope: ' $v.err)"
        grep -v '^syncscope: ' $v.err >$v.err.rest
        cmp -s bare.err $v.err.rest || { echo "FAIL: $mode $v stderr differs"; diff bare.err $v.err.rest; fail=1; }
    done
    echo "$mode: status $bare_rc; $(head -c 200 pre.err | grep '^syncscope: ')"
done
check "no result file" "" "$(ls syncscope-*.json 2>/dev/null)"
# A gate asked for where nothing can be observed does not pass: exit status 4, the program's
# output unchanged; a program that fails keeps its own status.
"$APP" ok >bare.out 2>bare.err
"$SS" run --error-exitcode 3 -- "$APP" ok >gated.out 2>gated.err
check "gate, nothing observed: status" 4 "$?"
cmp -s bare.out gated.out || { echo "FAIL: gate, nothing observed: stdout differs"; fail=1; }
check "gate, nothing observed: message" "syncscope: error: no observed process judged the gate (no CUDA call was seen: no usable GPU, CUPTI could not start, or the program makes none): exit status 4" \
    "$(grep '^syncscope: error: ' gated.err)"
"$SS" run --error-exitcode 3 -- "$APP" exit3 >/dev/null 2>&1
check "gate, nothing observed, the program failed: status" 3 "$?"
"$SS" run -- ./no-such-program >/dev/null 2>err
check "missing program status" 127 "$?"
check "missing program message" "syncscope: error: cannot start './no-such-program': No such file or directory" "$(cat err)"
"$SS" run --max-memory lots -- "$APP" >/dev/null 2>err
check "bad option status" 2 "$?"
"$SS" run >/dev/null 2>&1
check "no program status" 2 "$?"
exit $fail
