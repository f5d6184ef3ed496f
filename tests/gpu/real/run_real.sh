#!/bin/bash
# run_real.sh: real library workloads on a GPU (issue 15): a torchvision ResNet-18 training loop
# with a DataLoader, transformers' generate() on a small GPT-2, a CuPy loop, a jitted JAX loop,
# timm inference with pinned batches (timm_infer) and a torch.compile training loop
# (torch_compile, not in the default list: compiling takes a while). Each runs bare (exit status and stdout kept), under `syncscope run --trace ... --format
# json`, and, for the PyTorch ones, under torch.cuda.set_sync_debug_mode("warn") (the oracle);
# then compare_real.py tables syncscope's recall against the oracle, what it found beyond it,
# the wall times bare and under syncscope, and the finisher's own time (SYNCSCOPE_TIMING=1).
# Usage: run_real.sh BUILD_DIR [OUT_DIR]
#   BUILD_DIR  a built tree (BUILD_DIR/cli/syncscope and its libraries)
#   OUT_DIR    default $OUT; gets one folder per workload, NAME.json rows, results.md and
#              tests-data/ (real_NAME.sstrace, .expect, .oracle to commit under tests/data)
# Environment: PYTHON (default python3), REAL_BUDGET_S (default 470: the whole script stays
# under 8 minutes), REAL_WORKLOADS (default "resnet_train gpt2_generate cupy_loop jax_loop").
# Exit status: 0 when every workload that ran kept its exit status and stdout under syncscope
# and every warned line has a finding; 1 otherwise; 2 on a usage error.
set -u
if [ "$#" -lt 1 ]; then
    sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//' >&2
    exit 2
fi
start=$(date +%s)
build=$(cd "$1" && pwd) || exit 2
out=${2:-${OUT:-}}
if [ -z "$out" ]; then
    echo "run_real: no OUT_DIR and no \$OUT" >&2
    exit 2
fi
mkdir -p "$out" || exit 2
out=$(cd "$out" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
python=${PYTHON:-python3}
budget=${REAL_BUDGET_S:-470}
syncscope=$build/cli/syncscope
if [ ! -x "$syncscope" ]; then
    echo "run_real: $syncscope not found; build the tree first" >&2
    exit 2
fi
deadline=$((start + budget))

now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", b - a }'; }
left() { echo $((deadline - $(date +%s))); }

# Runs "$@" with at most 'limit' seconds, the lesser of 150 and what the budget has left.
bounded() {
    local limit
    limit=$(left)
    [ "$limit" -gt 150 ] && limit=150
    if [ "$limit" -le 5 ]; then
        echo "run_real: out of time budget" >&2
        return 124
    fi
    timeout "$limit" "$@"
}

{
    echo "recorded: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
    echo "gpu: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -1)"
    echo "source: ${SYNCSCOPE_SOURCE_COMMIT:-$(git -C "$here" rev-parse --short HEAD 2>/dev/null || echo unknown)}"
    echo "python: $("$python" --version 2>&1)"
    for module in torch torchvision transformers cupy jax timm triton; do
        echo "$module: $("$python" -c "import $module; print($module.__version__)" 2>/dev/null || echo missing)"
    done
} >"$out/MANIFEST"
cat "$out/MANIFEST"

status=0
for name in ${REAL_WORKLOADS:-resnet_train gpt2_generate cupy_loop jax_loop}; do
    script=$here/$name.py
    dir=$out/$name
    mkdir -p "$dir"
    case $name in
    resnet_train) needs="torch torchvision"; oracle=1 ;;
    gpt2_generate) needs="torch transformers"; oracle=1 ;;
    cupy_loop) needs="cupy"; oracle=0 ;;
    jax_loop) needs="jax"; oracle=0 ;;
    timm_infer) needs="torch timm"; oracle=1 ;;
    torch_compile) needs="torch triton"; oracle=1 ;;
    xthread_backward) needs="torch"; oracle=1 ;;
    xthread_pin) needs="torch"; oracle=0 ;;
    xthread_jax) needs="jax"; oracle=0 ;;
    *) needs=""; oracle=0 ;;
    esac
    missing=""
    for module in $needs; do
        "$python" -c "import $module" >/dev/null 2>&1 || missing="$missing $module"
    done
    if [ -n "$missing" ]; then
        echo "$name: skipped (no$missing)" | tee "$dir/SKIPPED"
        continue
    fi
    if [ "$(left)" -lt 60 ]; then
        echo "$name: skipped (time budget)" | tee "$dir/SKIPPED"
        continue
    fi

    t0=$(now)
    bounded "$python" "$script" >"$dir/bare.stdout" 2>"$dir/bare.stderr"
    echo $? >"$dir/bare.rc"
    t1=$(now)
    bounded env SYNCSCOPE_TIMING=1 "$syncscope" run --format json -o "$dir/result-%p.json" \
        --trace "$dir/trace-%p.sstrace" -- "$python" "$script" \
        >"$dir/run.stdout" 2>"$dir/run.stderr"
    echo $? >"$dir/run.rc"
    t2=$(now)
    if [ "$oracle" -eq 1 ]; then
        bounded "$python" "$here/sync_oracle.py" "$script" "$dir/oracle.json" \
            >"$dir/oracle.stdout" 2>"$dir/oracle.stderr"
        echo $? >"$dir/oracle.rc"
    fi

    # The result and trace of the process that used CUDA (DataLoader workers write none).
    result=$(ls -S "$dir"/result-*.json 2>/dev/null | head -1)
    trace=$(ls -S "$dir"/trace-*.sstrace 2>/dev/null | head -1)
    timing=$(grep -m1 "exit timing:" "$dir/run.stderr" | sed 's/^syncscope: exit timing: //')
    printf '{"bare_s": %s, "run_s": %s, "bare_rc": %s, "run_rc": %s, "exit_timing": "%s"}\n' \
        "$(elapsed "$t0" "$t1")" "$(elapsed "$t1" "$t2")" "$(cat "$dir/bare.rc")" \
        "$(cat "$dir/run.rc")" "$timing" >"$dir/times.json"
    if [ "$(cat "$dir/bare.rc")" != "$(cat "$dir/run.rc")" ]; then
        echo "$name: FAIL: exit status $(cat "$dir/run.rc") under syncscope, $(cat "$dir/bare.rc") bare"
        status=1
    fi
    if ! cmp -s "$dir/bare.stdout" "$dir/run.stdout"; then
        echo "$name: FAIL: stdout differs under syncscope run"
        status=1
    fi
    if [ -z "$result" ] || [ -z "$trace" ]; then
        echo "$name: FAIL: no result or no trace"; tail -5 "$dir/run.stderr"
        status=1
        continue
    fi
    oracle_json=-
    [ "$oracle" -eq 1 ] && [ -s "$dir/oracle.json" ] && oracle_json=$dir/oracle.json
    "$python" "$here/compare_real.py" workload "$name" "$syncscope" "$trace" "$result" \
        "$oracle_json" "$dir/times.json" "$out" || status=1
    grep "^syncscope:" "$dir/run.stderr" | head -30
done

"$python" "$here/compare_real.py" table "$out" || status=1
echo "run_real: $(( $(date +%s) - start )) s in all; results in $out/results.md"
exit "$status"
