#!/bin/bash
# xthread_run.sh: the cross-thread workloads on a GPU (docs/run.md, "Work of other threads"):
# a training loop whose backward synchronizes on PyTorch's autograd thread (xthread_backward),
# a JAX loop whose readback XLA waits for on its own threads (xthread_jax) and a DataLoader
# whose pin-memory thread allocates page-locked memory (xthread_pin). run_real.sh runs each bare,
# under `syncscope run --trace` and (PyTorch) under the sync debug mode; then each trace is
# replayed as text; then, with the time left, tests/gpu/multi's DDP step as two processes on the
# one GPU through gloo (run_ddp_test.sh, DDP_BACKEND=gloo); with XTHREAD_BEFORE=1 the first two run once more with
# SYNCSCOPE_CROSS_THREAD=0 (the output without cross-thread attribution) when time is left.
# Usage: xthread_run.sh OUT_DIR [BUILD_DIR]   (BUILD_DIR default build/device; run from the
# repository root). The whole script stays under 165 s. Exit status as run_real.sh's.
set -u
if [ "$#" -lt 1 ]; then
    sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//' >&2
    exit 2
fi
start=$(date +%s)
mkdir -p "$1" || exit 2
out=$(cd "$1" && pwd)
build=$(cd "${2:-build/device}" && pwd) || exit 2
here=$(cd "$(dirname "$0")" && pwd)
python=${PYTHON:-python3}
syncscope=$build/cli/syncscope

REAL_WORKLOADS="xthread_backward xthread_jax xthread_pin" REAL_BUDGET_S=115 \
    timeout 120 "$here/run_real.sh" "$build" "$out" >"$out/run_real.log" 2>&1
status=$?
tail -40 "$out/run_real.log"

for name in xthread_backward xthread_jax xthread_pin; do
    trace=$(ls -S "$out/$name"/trace-*.sstrace 2>/dev/null | head -1)
    [ -n "$trace" ] || continue
    timeout 10 "$syncscope" analyze "$trace" >"$out/$name/analyze.txt" 2>&1
    echo "== $name (analyze, text)"
    head -60 "$out/$name/analyze.txt"
done

# Two processes on the one GPU (torchrun, gloo), each observed, then one report of both.
left=$((start + 165 - $(date +%s)))
if [ "$left" -ge 35 ]; then
    root=$(cd "$here/../../.." && pwd)
    DDP_BACKEND=gloo timeout "$left" sh "$root/tests/gpu/multi/run_ddp_test.sh" "$syncscope" \
        "$python" "$root" "$out/ddp_gloo" tests/gpu/multi/ddp_item.py >"$out/ddp_gloo.log" 2>&1
    echo "== ddp_gloo (exit $?)"
    tail -20 "$out/ddp_gloo.log"
else
    echo "ddp_gloo: skipped ($left s left)"
fi

for name in xthread_backward xthread_jax; do
    [ "${XTHREAD_BEFORE:-0}" = 1 ] || break
    left=$((start + 160 - $(date +%s)))
    if [ "$left" -lt 20 ]; then
        echo "$name: no time left for the run without cross-thread attribution"
        continue
    fi
    dir=$out/$name/before
    mkdir -p "$dir"
    SYNCSCOPE_CROSS_THREAD=0 timeout "$left" "$syncscope" run --trace "$dir/trace-%p.sstrace" \
        -o "$dir/result-%p.txt" --format text -- "$python" "$here/$name.py" \
        >"$dir/run.stdout" 2>"$dir/run.stderr"
    echo "== $name without cross-thread attribution (exit $?)"
    head -40 "$(ls -S "$dir"/result-*.txt 2>/dev/null | head -1)" 2>/dev/null
done
du -sh "$out" | tail -1
echo "xthread_run: $(($(date +%s) - start)) s"
exit "$status"
