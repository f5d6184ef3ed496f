#!/bin/sh
# device_run.sh: on a machine with a GPU, from the repository root, records the traces of the
# over-wide wait programs (tests/gpu/overwide_*.cu, SYNC601) and of two cuda-samples programs
# with several streams (tests/gpu/overwide/cuda-samples/), what the driver's parameter queries
# answer (param_info_probe.cu), and the cost of the pointer capture per launch
# (bench/overhead: syncscope against syncscope --no-pointers, interleaved), within about 130 s.
# Usage: tests/gpu/overwide/device_run.sh OUT_DIR [BUILD_DIR]
#   OUT_DIR    gets NAME.sstrace, NAME.json, NAME.txt (the findings as text) per program,
#              MANIFEST, build.log, RESULTS (one line per program: exit status, args
#              records by kind, complete launches and those with pointers, SYNC601 findings),
#              param_info_probe.txt and bench.txt
#   BUILD_DIR  a configured tree (default build/device); the targets needed are rebuilt
# Exit status: 0 when every program ran under syncscope as it ran bare, else 1; 2 on a usage
# or build error.
set -u
if [ "$#" -lt 1 ]; then
    sed -n '2,11p' "$0" | sed 's/^# \{0,1\}//' >&2
    exit 2
fi
out=$1
build=${2:-build/device}
root=$(cd "$(dirname "$0")/../../.." && pwd)
mkdir -p "$out" || exit 2
programs="overwide_readback overwide_device_sync overwide_narrow"
targets="syncscope syncscope_preload syncscope_finish bench_empty_launch"
for p in $programs; do
    targets="$targets ${p}_static ${p}_shared"
done
# shellcheck disable=SC2086 # the targets are words
if ! timeout 75 cmake --build "$build" -j "$(nproc)" --target $targets >"$out/build.log" 2>&1; then
    echo "device_run: the build failed or took over 75 s (build.log)" >&2
    tail -20 "$out/build.log" >&2
    exit 2
fi
syncscope=$build/cli/syncscope
bin=$(mktemp -d) || exit 2
samples=$root/tests/gpu/overwide/cuda-samples
for s in simpleHyperQ simpleMultiCopy; do
    timeout 40 nvcc -O2 -I"$samples/shim" -o "$bin/$s" "$samples/$s.cu" >>"$out/build.log" 2>&1 ||
        echo "device_run: $s did not build (build.log)" >&2
done
timeout 40 nvcc -o "$bin/param_info_probe" "$root/tests/gpu/overwide/param_info_probe.cu" -lcuda \
    >>"$out/build.log" 2>&1 && timeout 10 "$bin/param_info_probe" >"$out/param_info_probe.txt" 2>&1
{
    echo "recorded: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
    echo "gpu: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1)"
    echo "syncscope: $("$syncscope" --version 2>&1 | head -1)"
    echo "source: ${SYNCSCOPE_SOURCE_COMMIT:-$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)}"
} >"$out/MANIFEST"

status=0
# Runs program $3 (with arguments $4...) bare and under syncscope as NAME $1; $2 is "same" when
# its output must be the same both times (the samples print timings).
record() {
    name=$1
    compare=$2
    shift 2
    bare=$(timeout 20 "$@" 2>/dev/null)
    bare_status=$?
    timeout 30 "$syncscope" run --format json -o "$out/$name.json" --trace "$out/$name.sstrace" \
        -- "$@" >"$out/$name.stdout" 2>"$out/$name.stderr"
    run_status=$?
    "$syncscope" analyze --format text "$out/$name.sstrace" >"$out/$name.txt" 2>&1
    launches=$(grep -c '^args [0-9]* [0-9]* 1 ' "$out/$name.sstrace")
    pointing=$(grep -c '^args [0-9]* [0-9]* 1 1 [1-8] ' "$out/$name.sstrace")
    complete=$(grep -c '^args [0-9]* [0-9]* 1 1 ' "$out/$name.sstrace")
    copies=$(grep -c '^args [0-9]* [0-9]* 2 ' "$out/$name.sstrace")
    allocs=$(grep -c '^args [0-9]* [0-9]* 3 ' "$out/$name.sstrace")
    frees=$(grep -c '^args [0-9]* [0-9]* 4 ' "$out/$name.sstrace")
    kernels=$(grep -c '^kernel ' "$out/$name.sstrace")
    found=$(grep -c 'SYNC601' "$out/$name.txt")
    same=same
    if [ "$run_status" -ne "$bare_status" ] ||
        { [ "$compare" = same ] && [ "$bare" != "$(cat "$out/$name.stdout")" ]; }; then
        same=DIFFERENT
        status=1
    fi
    echo "$name: exit $run_status (bare $bare_status, output $same); kernels $kernels;" \
        "args: launches $launches (complete $complete, with pointers $pointing)," \
        "copies $copies, allocs $allocs," \
        "frees $frees; SYNC601 lines $found" >>"$out/RESULTS"
}

for p in $programs; do
    record "$p" same "$build/tests/gpu/${p}_static"
done
record overwide_device_sync_shared same "$build/tests/gpu/overwide_device_sync_shared"
[ -x "$bin/simpleHyperQ" ] && record simpleHyperQ status "$bin/simpleHyperQ"
[ -x "$bin/simpleMultiCopy" ] && record simpleMultiCopy status "$bin/simpleMultiCopy"
rm -rf "$bin"
# The pointer capture's cost per launch: empty launches and eight long-named kernels with a
# 256-byte argument, bare, under syncscope and under syncscope --no-pointers, interleaved.
BENCH_WORKLOADS="launch launch_mixed" BENCH_VARIANTS="bare syncscope syncscope_nopointers" \
    BENCH_ROUNDS=3 BENCH_LAUNCHES=100000 BENCH_OUT="$out/bench.txt" \
    timeout 60 bash "$root/bench/overhead/run.sh" "$build" >"$out/bench.log" 2>&1 ||
    echo "device_run: the benchmark failed or took over 60 s (bench.log)" >&2
cat "$out/RESULTS"
exit "$status"
