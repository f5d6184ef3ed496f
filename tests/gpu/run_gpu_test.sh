#!/bin/sh
# run_gpu_test.sh: one GPU test: runs a program bare and under `syncscope run`, requires the
# same stdout and exit status, and compares the findings with the program's .expect file.
# Usage: run_gpu_test.sh SYNCSCOPE PROBE EXPECT ROOT WORKDIR PROGRAM
# Exit status: 0 pass, 1 fail, 77 skipped (no GPU visible).
set -u
if [ "$#" -ne 6 ]; then
    echo "usage: $0 SYNCSCOPE PROBE EXPECT ROOT WORKDIR PROGRAM" >&2
    exit 2
fi
syncscope=$1
probe=$2
expect=$3
root=$4
workdir=$5
program=$6
python=${SS_GPU_PYTHON:-python3}

# A GPU is visible when nvidia-smi lists one and the CUDA runtime counts at least one (the
# probe is a separate process, so nothing here ever holds a CUDA context).
if ! command -v nvidia-smi >/dev/null 2>&1; then
    echo "skipped: nvidia-smi not found"
    exit 77
fi
if [ -z "$(nvidia-smi -L 2>/dev/null)" ]; then
    echo "skipped: nvidia-smi lists no GPU"
    exit 77
fi
devices=$("$probe" 2>/dev/null || echo 0)
if [ "${devices:-0}" = "0" ]; then
    echo "skipped: the CUDA runtime sees no device"
    exit 77
fi

rm -rf "$workdir"
mkdir -p "$workdir" || exit 1
"$program" >"$workdir/bare.stdout" 2>"$workdir/bare.stderr"
bare_status=$?
"$syncscope" run --format json -o "$workdir/findings.json" --trace "$workdir/run.sstrace" \
    -- "$program" >"$workdir/run.stdout" 2>"$workdir/run.stderr"
run_status=$?

failed=0
if [ "$bare_status" -ne 0 ]; then
    echo "FAIL: the program exited with $bare_status when run bare"
    cat "$workdir/bare.stderr"
    failed=1
fi
if [ "$run_status" -ne "$bare_status" ]; then
    echo "FAIL: exit status $run_status under syncscope run, $bare_status bare"
    cat "$workdir/run.stderr"
    failed=1
fi
if ! cmp -s "$workdir/bare.stdout" "$workdir/run.stdout"; then
    echo "FAIL: stdout differs under syncscope run"
    diff "$workdir/bare.stdout" "$workdir/run.stdout"
    failed=1
fi
if [ ! -s "$workdir/findings.json" ]; then
    echo "FAIL: syncscope run wrote no $workdir/findings.json"
    cat "$workdir/run.stderr"
    exit 1
fi
if [ ! -s "$workdir/run.sstrace" ]; then
    echo "FAIL: syncscope run wrote no $workdir/run.sstrace"
    failed=1
fi
if ! "$python" "$root/tests/gpu/gpu_expect.py" compare "$root" "$expect" "$workdir/findings.json"; then
    failed=1
fi
if [ "$failed" -eq 0 ]; then
    echo "ok: $(cat "$workdir/bare.stdout" | tr '\n' ' ')"
fi
exit "$failed"
