#!/bin/sh
# run_ddp_test.sh: the two-process PyTorch DDP test: torchrun starts one `syncscope run` per
# GPU (NCCL), or two on one GPU with DDP_BACKEND=gloo, each writing syncscope-<rank>.json and .sstrace; `syncscope report` merges the
# two into one page. Requires both runs (bare and observed) to succeed, the outputs to be
# named by rank and carry it, the marked .item() finding in rank 1's output only (at its line,
# once per step), and the page to list both ranks with the finding on rank 1.
# Usage: run_ddp_test.sh SYNCSCOPE PYTHON ROOT WORKDIR SCRIPT
#   SCRIPT is relative to ROOT (tests/gpu/multi/ddp_item.py); it runs from ROOT.
# Exit status: 0 pass, 1 fail, 77 skipped (fewer than two GPUs, one with gloo; no PyTorch with
# CUDA and NCCL, or gloo).
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

# NVLink multicast (NVLS) stays off in NCCL, PyTorch symmetric memory and NVSHMEM.
NCCL_NVLS_ENABLE=0
TORCH_SYMM_MEM_DISABLE_MULTICAST=1
NVSHMEM_DISABLE_NVLS=1
export NCCL_NVLS_ENABLE TORCH_SYMM_MEM_DISABLE_MULTICAST NVSHMEM_DISABLE_NVLS

# DDP_BACKEND=gloo: both ranks on one GPU through gloo (issue 24 item 4); NCCL by default.
DDP_BACKEND=${DDP_BACKEND:-nccl}
export DDP_BACKEND
need=2
[ "$DDP_BACKEND" = gloo ] && need=1
gpus=$(nvidia-smi -L 2>/dev/null | wc -l)
if [ "${gpus:-0}" -lt "$need" ]; then
    echo "skipped: needs $need GPUs, nvidia-smi -L lists ${gpus:-0}"
    exit 77
fi
if ! "$python" -c "import sys, torch, torch.distributed as d; sys.exit(0 if torch.cuda.device_count() >= $need and d.is_available() and (d.is_gloo_available() if '$DDP_BACKEND' == 'gloo' else d.is_nccl_available()) else 1)" \
        >/dev/null 2>&1; then
    echo "skipped: $python has no PyTorch with $need CUDA devices and $DDP_BACKEND"
    exit 77
fi

rm -rf "$workdir"
mkdir -p "$workdir" || exit 1
cd "$root" || exit 1
launch() { # EXTRA... : torchrun with two processes on this host
    "$python" -m torch.distributed.run --standalone --nnodes=1 --nproc_per_node=2 "$@"
}
launch "$script" >"$workdir/bare.stdout" 2>"$workdir/bare.stderr"
bare_status=$?
launch --no-python "$syncscope" run -o "$workdir/syncscope-%r.json" \
    --trace "$workdir/syncscope-%r.sstrace" -- "$python" "$script" \
    >"$workdir/run.stdout" 2>"$workdir/run.stderr"
run_status=$?

failed=0
if [ "$bare_status" -ne 0 ]; then
    echo "FAIL: torchrun exited with $bare_status when run bare"
    tail -40 "$workdir/bare.stderr"
    failed=1
fi
if [ "$run_status" -ne "$bare_status" ]; then
    echo "FAIL: exit status $run_status under syncscope run, $bare_status bare"
    tail -40 "$workdir/run.stderr"
    failed=1
fi
for rank in 0 1; do
    for suffix in json sstrace; do
        if [ ! -s "$workdir/syncscope-$rank.$suffix" ]; then
            echo "FAIL: no $workdir/syncscope-$rank.$suffix"
            failed=1
        fi
    done
done
others=$(ls "$workdir" | grep -E '^syncscope-' | grep -vxE 'syncscope-[01]\.(json|sstrace)')
if [ -n "$others" ]; then
    echo "FAIL: outputs not named by rank: $others"
    failed=1
fi
[ "$failed" -eq 0 ] || exit 1
if ! "$syncscope" report "$workdir/syncscope-0.json" "$workdir/syncscope-1.json" \
        -o "$workdir/report.html" >"$workdir/report.stdout" 2>"$workdir/report.stderr"; then
    echo "FAIL: syncscope report failed"
    cat "$workdir/report.stderr"
    exit 1
fi
if ! "$python" "$here/multi_expect.py" ranks "$root" "$script" "$workdir/syncscope-0.json" \
        "$workdir/syncscope-1.json" "$workdir/report.html"; then
    failed=1
fi
[ "$failed" -eq 0 ] && echo "ok: $script on two ranks ($DDP_BACKEND)"
exit "$failed"
