#!/bin/sh
# run_scope_test.sh: the scopes and the gate of `syncscope run` on a GPU (docs/run.md, "Gates"
# and "Scopes"), with tests/gpu/scope_nvtx.cu: unscoped, --nvtx-range (a push/pop and a
# start/end range), --profile-from-start off and --no-nvtx each report exactly the readbacks
# scope_expect.py names; `syncscope analyze` on each run's trace gives the same findings (it
# scopes as the run recorded); --error-exitcode gives its exact status.
# Usage: run_scope_test.sh SYNCSCOPE PROBE ROOT WORKDIR PROGRAM
# Exit status: 0 pass, 1 fail, 77 skipped (no GPU visible).
set -u
if [ "$#" -ne 5 ]; then
    echo "usage: $0 SYNCSCOPE PROBE ROOT WORKDIR PROGRAM" >&2
    exit 2
fi
syncscope=$1 probe=$2 root=$3 workdir=$4 program=$5
python=${SS_GPU_PYTHON:-python3}

if ! command -v nvidia-smi >/dev/null 2>&1 || [ -z "$(nvidia-smi -L 2>/dev/null)" ]; then
    echo "skipped: no GPU listed by nvidia-smi"
    exit 77
fi
devices=$("$probe" 2>/dev/null || echo 0)
if [ "${devices:-0}" = "0" ]; then
    echo "skipped: the CUDA runtime sees no device"
    exit 77
fi

rm -rf "$workdir"
mkdir -p "$workdir" || exit 1
failed=0

# scoped NAME SCOPE [--no-nvtx] -- RUN OPTIONS: one run, its findings and its trace's.
scoped() {
    name=$1 scope=$2 flag=$3
    shift 4
    "$syncscope" run --format json -o "$workdir/$name.json" --trace "$workdir/$name.sstrace" \
        "$@" -- "$program" >"$workdir/$name.stdout" 2>"$workdir/$name.stderr"
    status=$?
    if [ "$status" -ne 0 ]; then
        echo "FAIL: $name: exit status $status"
        cat "$workdir/$name.stderr"
        failed=1
        return
    fi
    "$python" "$root/tests/gpu/scope_expect.py" "$root" "$workdir/$name.json" "$scope" $flag ||
        failed=1
    "$syncscope" analyze --format json -o "$workdir/$name.analyze.json" "$workdir/$name.sstrace" \
        2>"$workdir/$name.analyze.stderr"
    "$python" "$root/tests/gpu/scope_expect.py" "$root" "$workdir/$name.analyze.json" "$scope" \
        $flag || failed=1
}

scoped all all "" -- 
scoped push nvtx:scope_nvtx "" -- --nvtx-range scope_nvtx
scoped startend nvtx:scope_nvtx_startend "" -- --nvtx-range scope_nvtx_startend
scoped profiler profiler "" -- --profile-from-start off
scoped no_nvtx all --no-nvtx -- --no-nvtx

# The gate: one warning inside the range fails it; none at error passes.
"$syncscope" run --error-exitcode 3 --nvtx-range scope_nvtx -o "$workdir/gate.json" -- \
    "$program" >/dev/null 2>"$workdir/gate.stderr"
status=$?
if [ "$status" -ne 3 ]; then
    echo "FAIL: --error-exitcode 3 --nvtx-range scope_nvtx: exit status $status, expected 3"
    cat "$workdir/gate.stderr"
    failed=1
fi
"$syncscope" run --error-exitcode 3 --fail-on error -o "$workdir/gate_error.json" -- \
    "$program" >/dev/null 2>"$workdir/gate_error.stderr"
status=$?
if [ "$status" -ne 0 ]; then
    echo "FAIL: --error-exitcode 3 --fail-on error: exit status $status, expected 0"
    cat "$workdir/gate_error.stderr"
    failed=1
fi
"$syncscope" analyze --error-exitcode 4 "$workdir/push.sstrace" >/dev/null 2>&1
status=$?
if [ "$status" -ne 4 ]; then
    echo "FAIL: analyze --error-exitcode 4 of the scoped trace: exit status $status, expected 4"
    failed=1
fi
[ "$failed" -eq 0 ] && echo "ok: scopes and gate as expected"
exit "$failed"
