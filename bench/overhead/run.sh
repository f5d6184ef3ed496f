#!/usr/bin/env bash
# run.sh: the interposer overhead benchmark: each workload bare, under the CUPTI floor and
# under syncscope, in interleaved rounds; prints median-based ratios (docs/studies/performance.md).
#
# Usage: bench/overhead/run.sh BUILD_DIR [LIBSYNCSCOPE]
#   BUILD_DIR     a build tree with bench/overhead/ built (nvcc found at configure time)
#   LIBSYNCSCOPE  the capture library (default BUILD_DIR/interpose/libsyncscope.so)
# Environment (all optional):
#   BENCH_OUT=FILE            also write the results table (and raw samples) to FILE
#   BENCH_ROUNDS=5            rounds; each runs every workload once per variant
#   BENCH_WORKLOADS="launch pipeline mlp"  (also: pipeline_small, 1 MiB chunks, and
#       launch_mixed, eight long-named kernels in turn; neither has a target)
#   BENCH_VARIANTS="bare floor syncscope"   (also: floorcb, the floor plus runtime API
#       callbacks; floor_nokernel and syncscope_nokernel, both without kernel records;
#       floor_kernel, kernel records only; floor_sync and syncscope_trace, both with
#       synchronization records; syncscope_nopointers, without the device pointers of
#       launches, copies and allocations, SYNC601's evidence; light, the light mode; sampled,
#       the light mode with full windows of 5 s every 120 s; sampled_dense, windows of 1 s
#       every 2 s)
#   BENCH_PYTHON=python3      the Python with PyTorch, for the mlp workload
#   BENCH_LAUNCHES=200000  BENCH_PIPELINE_ARGS="40 16 16384"  BENCH_MLP_STEPS=2000
#   BENCH_CPU=LIST            run every process on these CPUs (taskset -c LIST, e.g. 8-11):
#       fixed cores near the GPU take out the spread between processes placed apart
#   BENCH_SECONDS=T           start no round after T seconds (the summary is printed before
#       an outer time bound); with many BENCH_ROUNDS, as many rounds as fit
# Prints the medians' table, then per workload and variant a "bench: overhead" line: the
# median of the rounds' ratios to the same round's bare run, its bootstrap 95% interval, and
# the same pairs' differences (ns per launch, or ms).
# Needs only bash, python3 and the built tree (plus PyTorch for the mlp workload).
set -euo pipefail

if [ $# -lt 1 ] || [ $# -gt 2 ] || [ "$1" = -h ] || [ "$1" = --help ]; then
    sed -n '2,28s/^# \{0,1\}//p' "$0" >&2
    exit 2
fi
here="$(cd "$(dirname "$0")" && pwd)"
exec python3 "$here/run.py" "$@"
