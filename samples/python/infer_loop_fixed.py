"""infer_loop_fixed.py: infer_loop.py without its synchronizations: the input is made on
the GPU once from pinned memory, the outputs stay on the GPU until the end, the allocator's
cache is kept, and the host reads the results once, after waiting for an event. The model is
made on the GPU, so its initial weights are not copied from pageable memory.

    syncscope run -- python3 samples/python/infer_loop_fixed.py
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
    model = torch.nn.Sequential(torch.nn.Linear(256, 256, device=dev), torch.nn.Tanh(),
                                torch.nn.Linear(256, 4, device=dev)).eval()
    rows = [[(i * 7 + j) % 13 / 13.0 for j in range(256)] for i in range(64)]
    batch = torch.tensor(rows).pin_memory().to(dev, non_blocking=True)
    big = torch.randn(4096, 4096, device=dev)
    firsts, bests = [], []
    with torch.no_grad():
        for _ in range(STEPS):
            heavy(big)
            out = model(batch)
            heavy(big)
            firsts.append(out[0, :2])
            bests.append(out[:, 0].max())
            scratch = torch.empty(64 << 20, dtype=torch.uint8, device=dev)
            del scratch
            heavy(big)
    drain()
    for step in range(STEPS):
        print(firsts[step].cpu())  # syncscope: idle
        print(f"step {step} best {bests[step].item():.4f}")  # syncscope: idle


if __name__ == "__main__":
    main()
