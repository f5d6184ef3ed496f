#!/bin/sh
# prove.sh: checks the what-if predictions of SYNC503 (samples/pipeline) and SYNC502
# (samples/launch_overhead) on a GPU: runs each naive program under `syncscope run --trace`,
# takes the predicted time of the fixed version from the finding's extra figures, runs the
# fixed program bare, and compares like with like (docs/studies/validation.md):
#   pipeline:        predicted_ns of SYNC503 (double-buffered total) against the `total:` line
#                    of fixed (events around all chunks);
#   launch_overhead: predicted_ns / kernels x kernels per iteration of SYNC502 (graph replay
#                    per iteration) against the `GPU time:` line of fixed (events, per
#                    iteration).
# It builds nothing: the samples and syncscope come from BUILD_DIR. It also writes, into
# OUT_DIR, the traces of the naive runs with replay expectations for tests/data.
# Usage: prove.sh [-o OUT_DIR] BUILD_DIR
# Environment: SYNCSCOPE (default BUILD_DIR/cli/syncscope), SS_PROVE_PROBE (default
# BUILD_DIR/tests/gpu/gpu_probe), SS_PROVE_TOLERANCE (percent, default 20), PYTHON (python3),
# SS_PROVE_NO_GPU_CHECK=1 (skip the GPU detection: for dry runs with stand-in programs).
# Exit status: 0 every prediction within the tolerance, 1 one is not or a step failed,
# 2 usage error, 77 skipped (no GPU visible).
set -u

usage() {
    echo "usage: $0 [-o OUT_DIR] BUILD_DIR" >&2
    exit 2
}

out=
while [ "$#" -gt 0 ]; do
    case $1 in
    -o)
        [ "$#" -ge 2 ] || usage
        out=$2
        shift 2
        ;;
    -h | --help)
        sed -n '2,20p' "$0"
        exit 0
        ;;
    -*) usage ;;
    *) break ;;
    esac
done
[ "$#" -eq 1 ] || usage
build=$1
here=$(cd "$(dirname "$0")" && pwd)
out=${out:-$build/prove}
syncscope=${SYNCSCOPE:-$build/cli/syncscope}
probe=${SS_PROVE_PROBE:-$build/tests/gpu/gpu_probe}
tolerance=${SS_PROVE_TOLERANCE:-20}
python=${PYTHON:-python3}

fail() {
    echo "prove: error: $*" >&2
    exit 1
}

# A GPU is visible when nvidia-smi lists one and the CUDA runtime counts at least one (as
# tests/gpu/run_gpu_test.sh; the probe is a separate process).
if [ "${SS_PROVE_NO_GPU_CHECK:-0}" != 1 ]; then
    if ! command -v nvidia-smi >/dev/null 2>&1; then
        echo "skipped: nvidia-smi not found"
        exit 77
    fi
    if [ -z "$(nvidia-smi -L 2>/dev/null)" ]; then
        echo "skipped: nvidia-smi lists no GPU"
        exit 77
    fi
    [ -x "$probe" ] || fail "no GPU probe at $probe (build the tests, or set SS_PROVE_PROBE)"
    devices=$("$probe" 2>/dev/null || echo 0)
    if [ "${devices:-0}" = "0" ]; then
        echo "skipped: the CUDA runtime sees no device"
        exit 77
    fi
fi

[ -x "$syncscope" ] || fail "no syncscope at $syncscope (build BUILD_DIR first, or set SYNCSCOPE)"
command -v "$python" >/dev/null 2>&1 || fail "$python not found (set PYTHON)"
for sample in pipeline launch_overhead; do
    for variant in naive fixed; do
        [ -x "$build/samples/$sample/$variant" ] ||
            fail "no sample program $build/samples/$sample/$variant (configure with nvcc and" \
                "SYNCSCOPE_SAMPLES=ON, then build)"
    done
done
mkdir -p "$out" || fail "cannot create $out"

# run_bare NAME PROGRAM [ARGS]: runs a program, its stdout into OUT/NAME.stdout; fails unless
# it exits 0 and prints "ok".
run_bare() {
    name=$1
    shift
    "$@" >"$out/$name.stdout" 2>"$out/$name.stderr"
    status=$?
    [ "$status" -eq 0 ] || fail "$* exited with $status (stderr: $out/$name.stderr)"
    grep -qx ok "$out/$name.stdout" || fail "$* did not print 'ok' ($out/$name.stdout)"
}

# run_traced NAME PROGRAM [ARGS]: the same under `syncscope run`, with the JSON result in
# OUT/NAME.json and the trace in OUT/NAME.sstrace.
run_traced() {
    name=$1
    shift
    rm -f "$out/$name.json" "$out/$name.sstrace"
    "$syncscope" run -q --format json -o "$out/$name.json" --trace "$out/$name.sstrace" \
        -- "$@" >"$out/$name.stdout" 2>"$out/$name.stderr"
    status=$?
    [ "$status" -eq 0 ] || fail "syncscope run -- $* exited with $status (stderr:" \
        "$out/$name.stderr)"
    [ -s "$out/$name.json" ] || fail "syncscope run -- $* wrote no $out/$name.json"
    [ -s "$out/$name.sstrace" ] || fail "syncscope run -- $* wrote no $out/$name.sstrace"
}

# number FILE NAME PATTERN FIELD: field FIELD (awk numbering) of the one line of FILE that
# matches the extended regular expression PATTERN; NAME says what it is in errors.
number() {
    value=$(grep -E "$3" "$1" | awk -v f="$4" '{ print $f }')
    case $value in
    '' | *[!0-9.]* | *.*.*) fail "cannot read the $2 from $1 (no single line matching" \
        "'$3'); the output was:$(printf '\n')$(cat "$1")" ;;
    esac
    echo "$value"
}

# extras RESULT RULE KEY...: the finding's extra figures, space separated.
extras() {
    values=$("$python" "$here/prove_json.py" extra "$@") || exit 1
    echo $values
}

# expectation NAME NOTE: OUT/NAME.expect for tests/data, from `syncscope analyze` of the trace.
expectation() {
    "$syncscope" analyze --format json -o "$out/$1.analyze.json" "$out/$1.sstrace" \
        2>"$out/$1.analyze.stderr"
    status=$?
    case $status in
    0 | 1) ;;
    *) fail "syncscope analyze $out/$1.sstrace exited with $status ($out/$1.analyze.stderr)" ;;
    esac
    "$python" "$here/prove_json.py" expect "$out/$1.analyze.json" "$status" "$2" \
        >"$out/$1.expect" || exit 1
}

gpu_name=$(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null |
    head -n 1)
gpu_name=${gpu_name:-unknown GPU}
date=$(date -u +%Y-%m-%d)

# ---- pipeline: SYNC503 ----
p=$build/samples/pipeline
run_bare pipeline_naive_bare "$p/naive"
naive_p=$(number "$out/pipeline_naive_bare.stdout" "naive total" '^total: [0-9.]+ ms' 2) || exit 1
run_traced pipeline_naive "$p/naive"
values=$(extras "$out/pipeline_naive.json" SYNC503 predicted_ns measured_ns chunks \
    stage_h2d_ns stage_kernel_ns stage_d2h_ns pageable_copies) || exit 1
set -- $values
pred_p_ns=$1 meas_p_ns=$2 chunks=$3 h2d=$4 kern=$5 d2h=$6 pageable=$7
run_bare pipeline_fixed "$p/fixed"
fixed_p=$(number "$out/pipeline_fixed.stdout" "fixed total" '^total: [0-9.]+ ms' 2) || exit 1
expectation pipeline_naive "pipeline_naive.sstrace: samples/pipeline/naive.cu recorded on $gpu_name by samples/prove/prove.sh on $date"

# ---- launch_overhead: SYNC502 ----
l=$build/samples/launch_overhead
run_bare launch_naive_bare "$l/naive"
naive_l=$(number "$out/launch_naive_bare.stdout" "naive GPU time per iteration" \
    '^GPU time: +[0-9.]+ us per iteration' 3) || exit 1
run_traced launch_naive "$l/naive"
values=$(extras "$out/launch_naive.json" SYNC502 predicted_ns measured_ns kernels \
    kernels_per_iteration gpu_busy_ns per_launch_host_ns launch_api_ns) || exit 1
set -- $values
pred_l_ns=$1 meas_l_ns=$2 kernels=$3 period=$4 busy=$5 per_launch=$6 api=$7
run_bare launch_fixed "$l/fixed"
fixed_l=$(number "$out/launch_fixed.stdout" "fixed GPU time per iteration" \
    '^GPU time: +[0-9.]+ us per iteration' 3) || exit 1
per_iteration=$(number "$out/launch_fixed.stdout" "kernels per graph" \
    '^[0-9]+ kernels replayed as one graph' 1) || exit 1
# A small run for the replay test in CI (tests/data keeps traces of a few thousand events).
run_traced launch_naive_small "$l/naive" 20
expectation launch_naive_small "launch_naive_small.sstrace: samples/launch_overhead/naive.cu (20 iterations) recorded on $gpu_name by samples/prove/prove.sh on $date"

# ---- the table ----
awk -v tol="$tolerance" \
    -v naive_p="$naive_p" -v meas_p="$meas_p_ns" -v pred_p="$pred_p_ns" -v fixed_p="$fixed_p" \
    -v chunks="$chunks" -v h2d="$h2d" -v kern="$kern" -v d2h="$d2h" -v pageable="$pageable" \
    -v naive_l="$naive_l" -v meas_l="$meas_l_ns" -v pred_l="$pred_l_ns" -v fixed_l="$fixed_l" \
    -v kernels="$kernels" -v period="$period" -v per_it="$per_iteration" -v busy="$busy" \
    -v per_launch="$per_launch" -v api="$api" -v gpu="$gpu_name" '
function err(p, m) { return 100 * (p > m ? p - m : m - p) / m }
BEGIN {
    # pipeline: whole run in ms; launch_overhead: one iteration of per_it kernels in us.
    pp = pred_p / 1e6
    pl = pred_l / kernels * per_it / 1e3
    ml = meas_l / kernels * per_it / 1e3
    ep = err(pp, fixed_p)
    el = err(pl, fixed_l)
    printf "GPU: %s\n\n", gpu
    print "| sample | rule | naive measured (bare) | naive under syncscope (GPU timeline) | predicted fixed | fixed measured | error |"
    print "| --- | --- | --- | --- | --- | --- | --- |"
    printf "| pipeline (%d chunks) | SYNC503 | %.2f ms | %.2f ms | %.2f ms | %.2f ms | %.1f%% |\n", \
        chunks, naive_p, meas_p / 1e6, pp, fixed_p, ep
    printf "| launch_overhead (per iteration of %d kernels) | SYNC502 | %.2f us | %.2f us | %.2f us | %.2f us | %.1f%% |\n", \
        per_it, naive_l, ml, pl, fixed_l, el
    printf "\npipeline stages (median per chunk, as observed): copy in %.3f ms, kernel %.3f ms, copy out %.3f ms; %d pageable copies\n", \
        h2d / 1e6, kern / 1e6, d2h / 1e6, pageable
    printf "launch_overhead: %d kernels, repeating every %d, mean kernel %.3f us, %.2f us per launch on the host (%.2f us in the call)\n", \
        kernels, period, busy / kernels / 1e3, per_launch / 1e3, api / 1e3
    bad = 0
    if (ep > tol) { printf "prove: pipeline: the prediction is off by %.1f%% (more than %d%%)\n", ep, tol; bad = 1 }
    if (el > tol) { printf "prove: launch_overhead: the prediction is off by %.1f%% (more than %d%%)\n", el, tol; bad = 1 }
    if (!bad) printf "prove: both predictions within %d%%\n", tol
    exit bad
}' | tee "$out/table.md"
# A plain pipeline gives tee's status, not awk's: read the verdict from the table.
if grep -q "^prove: .*off by" "$out/table.md"; then
    status=1
else
    status=0
fi
echo "traces and replay expectations for tests/data: $out/pipeline_naive.{sstrace,expect}," \
    "$out/launch_naive_small.{sstrace,expect}"
exit "$status"
