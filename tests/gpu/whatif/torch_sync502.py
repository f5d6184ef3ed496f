"""torch_sync502.py: SYNC502's framework pair (tests/gpu/whatif/README.md). Each step runs 16
small in-place ops on a 256-element tensor (one kernel each) and then 30 us of the host's own
work. written: the ops launched one by one; rewritten: captured once with torch.cuda.graphs
and replayed with one CUDAGraph.replay() per step. Usage: whatif_pair.py's."""
import sys

import torch

from whatif_pair import host_work, main

OPS = 8  # mul_ and add_ each: 16 kernels per step
HOST_US = 30


def body(x):
    for _ in range(OPS):
        x.mul_(1.0001)
        x.add_(0.5)


def written():
    x = torch.zeros(256, device="cuda")

    def step(i):
        body(x)
        host_work(HOST_US)
    return step, torch.cuda.synchronize


def rewritten():
    x = torch.zeros(256, device="cuda")
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        for _ in range(3):
            body(x)
    torch.cuda.current_stream().wait_stream(side)
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        body(x)

    def step(i):
        graph.replay()
        host_work(HOST_US)
    return step, torch.cuda.synchronize


if __name__ == "__main__":
    sys.exit(main({"written": written, "rewritten": rewritten}, 1000, 20))
