"""torch_sync301.py: SYNC301's framework pair (tests/gpu/whatif/README.md). Each step: a
matmul, a loss reduced to one value, and 40 us of the host's own work. written: loss.item()
every step; rewritten: the loss accumulated on the device and read back every EVERY steps.
Usage: whatif_pair.py's."""
import sys

import torch

from whatif_pair import host_work, main

EVERY = 10
HOST_US = 40


def setup():
    gen = torch.Generator(device="cuda").manual_seed(0)
    x = torch.randn(4096, 1024, device="cuda", generator=gen)
    w = torch.randn(1024, 1024, device="cuda", generator=gen) / 32
    return x, w


def written():
    x, w = setup()
    seen = [0.0]

    def step(i):
        loss = torch.tanh(x @ w).square().mean()
        seen[0] += loss.item()
        host_work(HOST_US)
    return step, torch.cuda.synchronize


def rewritten():
    x, w = setup()
    acc = torch.zeros((), device="cuda")
    seen = [0.0]

    def step(i):
        loss = torch.tanh(x @ w).square().mean()
        acc.add_(loss.detach())
        if i % EVERY == EVERY - 1:
            seen[0] += acc.item()
            acc.zero_()
        host_work(HOST_US)
    return step, torch.cuda.synchronize


if __name__ == "__main__":
    sys.exit(main({"written": written, "rewritten": rewritten}, 300, 10))
