"""train_loop_fixed.py: train_loop.py without its synchronizations: the batch comes from
pinned memory, the loss is summed on the GPU, masks select with torch.where instead of
nonzero/boolean indexing, and the host reads the results once, after waiting for an event. The model is made on the GPU,
so its initial weights are not copied from pageable memory.

    syncscope run -- python3 samples/python/train_loop_fixed.py
"""
import time

import torch

STEPS = 3


def heavy(m):
    """Queues about 2 ms of GPU work and does not wait for it."""
    return m @ m


def drain():
    """Waits for the queued GPU work by polling an event, so that the reads after it block on
    nothing (a real program simply reads once, at the end)."""
    done = torch.cuda.Event()
    done.record()
    while not done.query():
        time.sleep(0.0002)


def main():
    torch.manual_seed(0)
    dev = torch.device("cuda")
    # Made on the GPU: no pageable copy of the initial weights.
    model = torch.nn.Sequential(torch.nn.Linear(512, 512, device=dev), torch.nn.ReLU(),
                                torch.nn.Linear(512, 1, device=dev))
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    host_batch = torch.randn(4096, 512).pin_memory()
    big = torch.randn(4096, 4096, device=dev)
    labels = torch.randn(4096, 1, device=dev)
    total = torch.zeros((), device=dev)
    kept = torch.zeros((), device=dev, dtype=torch.long)
    for _ in range(STEPS):
        heavy(big)
        x = host_batch.to(dev, non_blocking=True)
        loss = torch.nn.functional.mse_loss(model(x), labels)
        opt.zero_grad()
        loss.backward()
        opt.step()
        heavy(big)
        total += loss.detach()
        kept += (loss < 100).long()
        weights = model[2].weight.detach()
        positive = torch.where(labels > 0, 1, 0).sum()
        large = torch.where(labels > 1.0, 1, 0).sum()
        heavy(big)
    drain()
    print(f"steps {STEPS} kept {kept.item()} weights {tuple(weights.shape)} "  # syncscope: idle
          f"positive {positive.item()} large {large.item()} "  # syncscope: idle
          f"loss {total.item() / STEPS:.2f}")  # syncscope: idle


if __name__ == "__main__":
    main()
