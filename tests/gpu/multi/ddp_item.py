"""ddp_item.py: a data-parallel training step on two GPUs (torchrun, NCCL, one process per
GPU), or with DDP_BACKEND=gloo two processes on one GPU, with a stray loss.item() on rank 1
only. Under syncscope each rank writes its own output;
the .item() must be found in rank 1's, at its line, once per step, and not in rank 0's.

    torchrun --standalone --nproc_per_node=2 --no-python \\
        syncscope run -o syncscope-%r.json --trace syncscope-%r.sstrace -- \\
        python3 tests/gpu/multi/ddp_item.py
"""
import os

import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel

STEPS = 3
# DDP_BACKEND=gloo: both processes share the one GPU and talk through gloo (no NCCL).
BACKEND = os.environ.get("DDP_BACKEND", "nccl")


def heavy(m):
    """Queues about 2 ms of GPU work and does not wait for it."""
    return m @ m


def main():
    rank = int(os.environ["RANK"])
    local_rank = int(os.environ["LOCAL_RANK"])
    if BACKEND == "gloo":
        # Both ranks on the one GPU: gloo needs no GPU of its own per process.
        local_rank = 0
    device = torch.device("cuda", local_rank)
    torch.cuda.set_device(device)
    if BACKEND == "gloo":
        dist.init_process_group("gloo")
    else:
        dist.init_process_group("nccl", device_id=device)
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(256, 256), torch.nn.ReLU(),
                                torch.nn.Linear(256, 1)).to(device)
    ddp = DistributedDataParallel(model, device_ids=[local_rank])
    opt = torch.optim.SGD(ddp.parameters(), lr=0.01)
    big = torch.randn(4096, 4096, device=device)
    x = torch.randn(1024, 256, device=device) + rank
    labels = torch.randn(1024, 1, device=device)
    logged = []
    for _ in range(STEPS):
        loss = torch.nn.functional.mse_loss(ddp(x), labels)
        opt.zero_grad()
        loss.backward()
        opt.step()
        heavy(big)
        if rank == 1:
            logged.append(loss.item())  # syncscope: SYNC301 rank 1 count 3
    weights = torch.stack([p.detach().sum() for p in ddp.parameters()])
    dist.all_reduce(weights)
    dist.barrier()
    if rank == 0:
        print(f"steps {STEPS} parameters {weights.numel()}")
    else:
        print(f"steps {STEPS} logged {len(logged)}")
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
