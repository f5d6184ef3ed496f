#!/bin/sh
# run_multi_test.sh: one multi-GPU test program: skipped unless two GPUs are visible; then
# tests/gpu/run_gpu_test.sh (bare vs `syncscope run`, exact .expect), and every finding on
# the device its marker names (multi_expect.py devices).
# Usage: run_multi_test.sh SYNCSCOPE PROBE EXPECT ROOT WORKDIR PROGRAM SOURCE
#   SOURCE is the program's source relative to ROOT (tests/gpu/multi/NAME.cu).
# Exit status: 0 pass, 1 fail, 77 skipped (fewer than two GPUs visible).
set -u
if [ "$#" -ne 7 ]; then
    echo "usage: $0 SYNCSCOPE PROBE EXPECT ROOT WORKDIR PROGRAM SOURCE" >&2
    exit 2
fi
here=$(cd "$(dirname "$0")" && pwd)
python=${SS_GPU_PYTHON:-python3}

# NVLink multicast (NVLS) stays off in NCCL, PyTorch symmetric memory and NVSHMEM.
NCCL_NVLS_ENABLE=0
TORCH_SYMM_MEM_DISABLE_MULTICAST=1
NVSHMEM_DISABLE_NVLS=1
export NCCL_NVLS_ENABLE TORCH_SYMM_MEM_DISABLE_MULTICAST NVSHMEM_DISABLE_NVLS

gpus=$(nvidia-smi -L 2>/dev/null | wc -l)
if [ "${gpus:-0}" -lt 2 ]; then
    echo "skipped: needs two GPUs, nvidia-smi -L lists ${gpus:-0}"
    exit 77
fi
devices=$("$2" 2>/dev/null || echo 0)
if [ "${devices:-0}" -lt 2 ]; then
    echo "skipped: the CUDA runtime sees ${devices:-0} device(s), two needed"
    exit 77
fi
sh "$here/../run_gpu_test.sh" "$1" "$2" "$3" "$4" "$5" "$6"
status=$?
[ "$status" -eq 0 ] || exit "$status"
"$python" "$here/multi_expect.py" devices "$4" "$7" "$5/findings.json" || exit 1
exit 0
