#!/bin/sh
# metadata_run.sh: what `syncscope run` records of the GPU, the driver and CUDA
# (docs/trace-format.md, metadata keys gpu, driver, cuda, cuda_runtime), seen on a GPU:
# sync301_scalar_readback built with the shared and the static runtime, and a PyTorch loop
# (samples/python/train_loop.py), each under `syncscope run --trace`, then the trace's metadata,
# `syncscope analyze` (text) and `syncscope report` (HTML) of each, beside what nvidia-smi says.
# Usage: metadata_run.sh OUT_DIR [BUILD_DIR]   (BUILD_DIR default build/device; run from the
# repository root). The whole script stays under 40 s. Exit status: 0 when every run wrote a
# trace with the gpu, driver and cuda keys, else 1.
set -u
if [ "$#" -lt 1 ]; then
    sed -n '2,9p' "$0" | sed 's/^# \{0,1\}//' >&2
    exit 2
fi
start=$(date +%s)
mkdir -p "$1" || exit 2
out=$(cd "$1" && pwd)
build=$(cd "${2:-build/device}" && pwd) || exit 2
syncscope=$build/cli/syncscope
python=${PYTHON:-python3}

# The build of this checkout (nothing to do when it is up to date), bounded.
timeout 18 cmake --build "$build" -j16 --target syncscope syncscope_preload syncscope_finish \
    sync301_scalar_readback_static sync301_scalar_readback_shared >"$out/build.log" 2>&1
echo "build: exit $? ($(($(date +%s) - start)) s)"

{
    nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
    head -1 /proc/driver/nvidia/version
} >"$out/nvidia-smi.txt" 2>&1
cat "$out/nvidia-smi.txt"

status=0
# One run: NAME, seconds, then the command.
run_one() {
    name=$1
    limit=$2
    shift 2
    timeout "$limit" "$syncscope" run --trace "$out/$name.sstrace" --format json \
        -o "$out/$name.json" -- "$@" >"$out/$name.stdout" 2>"$out/$name.stderr"
    echo "== $name: exit $? ($(($(date +%s) - start)) s)"
    if [ ! -s "$out/$name.sstrace" ]; then
        echo "$name: no trace"
        status=1
        return
    fi
    grep -a '^meta \(gpu\|driver\|cuda\|cuda_runtime\) ' "$out/$name.sstrace" | tee "$out/$name.meta"
    for key in gpu driver cuda; do
        grep -q "^meta $key " "$out/$name.meta" || { echo "$name: no '$key'"; status=1; }
    done
    timeout 5 "$syncscope" analyze "$out/$name.sstrace" >"$out/$name.analyze.txt" 2>&1
    timeout 5 "$syncscope" analyze -v "$out/$name.sstrace" >"$out/$name.analyze-v.txt" 2>&1
    timeout 5 "$syncscope" report -o "$out/$name.html" "$out/$name.json" >"$out/$name.report.log" 2>&1
    echo "$name: analyze $(wc -l <"$out/$name.analyze.txt") lines, -v $(wc -l <"$out/$name.analyze-v.txt") lines, report exit $?"
}

for linkage in shared static; do
    run_one "readback_$linkage" 8 "$build/tests/gpu/sync301_scalar_readback_$linkage"
done
left=$((start + 38 - $(date +%s)))
if [ "$left" -ge 12 ]; then
    run_one py_train_loop "$((left - 3))" "$python" samples/python/train_loop.py
else
    echo "py_train_loop: no time left ($left s)"
fi
head -30 "$out/readback_shared.analyze.txt" 2>/dev/null
du -sh "$out" | tail -1
echo "metadata_run: $(($(date +%s) - start)) s, status $status"
exit "$status"
