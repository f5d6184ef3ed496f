#!/bin/sh
# run_torch_test.sh: one Python sample on a GPU: runs it bare, under `syncscope run` and with
# torch.cuda.set_sync_debug_mode("warn"); requires the same stdout and exit status bare and
# under syncscope, exactly the findings its markers promise (rule, file, line), and a
# syncscope finding at every line PyTorch warned about.
# Usage: run_torch_test.sh SYNCSCOPE PYTHON ROOT WORKDIR SCRIPT
#   SCRIPT is relative to ROOT (samples/python/NAME.py); it runs from ROOT, so the files in
#   the findings and the trace are relative too.
# Exit status: 0 pass, 1 fail, 77 skipped (no GPU visible, or no PyTorch with CUDA).
set -u
if [ "$#" -ne 5 ]; then
    echo "usage: $0 SYNCSCOPE PYTHON ROOT WORKDIR SCRIPT" >&2
    exit 2
fi
syncscope=$1
python=$2
root=$3
workdir=$4
script=$5
here=$(cd "$(dirname "$0")" && pwd)

if [ -z "$(nvidia-smi -L 2>/dev/null)" ]; then
    echo "skipped: no GPU visible (nvidia-smi -L lists none)"
    exit 77
fi
if ! "$python" -c "import torch, sys; sys.exit(0 if torch.cuda.is_available() else 1)" \
        >/dev/null 2>&1; then
    echo "skipped: $python has no PyTorch with CUDA"
    exit 77
fi

rm -rf "$workdir"
mkdir -p "$workdir" || exit 1
cd "$root" || exit 1
"$python" "$script" >"$workdir/bare.stdout" 2>"$workdir/bare.stderr"
bare_status=$?
"$syncscope" run --format json -o "$workdir/findings.json" --trace "$workdir/run.sstrace" \
    -- "$python" "$script" >"$workdir/run.stdout" 2>"$workdir/run.stderr"
run_status=$?
"$python" "$here/sync_debug.py" "$script" "$workdir/warnings.json" >"$workdir/warn.stdout" \
    2>"$workdir/warn.stderr"
warn_status=$?

failed=0
if [ "$bare_status" -ne 0 ]; then
    echo "FAIL: the script exited with $bare_status when run bare"
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
if [ ! -s "$workdir/findings.json" ] || [ ! -s "$workdir/run.sstrace" ]; then
    echo "FAIL: syncscope run wrote no findings or no trace"
    cat "$workdir/run.stderr"
    exit 1
fi
if ! "$python" "$here/py_expect.py" compare "$root" "$script" "$workdir/findings.json"; then
    failed=1
fi
if [ "$warn_status" -ne 0 ]; then
    echo "FAIL: the script failed with set_sync_debug_mode('warn')"
    cat "$workdir/warn.stderr"
    failed=1
elif ! "$python" "$here/py_expect.py" warned "$root" "$script" "$workdir/findings.json" \
        "$workdir/warnings.json"; then
    failed=1
fi
[ "$failed" -eq 0 ] && echo "ok: $script"
exit "$failed"
