"""xthread_backward.py: a training loop whose backward synchronizes. The loss keeps only the
rows a boolean mask selects (out[mask]); the backward of that indexing (IndexBackward0) puts
the gradient back with index_put_, which turns the mask into indices with nonzero: a readback
made on PyTorch's autograd thread, which has no Python frames, while the program's own thread
waits in loss.backward(). A real workload for tests/gpu/real (cross-thread attribution)."""
import sys

import torch

STEPS = 12


def main():
    torch.manual_seed(0)
    device = torch.device("cuda")
    model = torch.nn.Sequential(
        torch.nn.Linear(256, 512), torch.nn.ReLU(), torch.nn.Linear(512, 64)
    ).to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
    x = torch.randn(4096, 256, device=device)
    labels = torch.randint(-1, 8, (4096,), device=device)
    total = torch.zeros((), device=device)
    for _ in range(STEPS):
        optimizer.zero_grad(set_to_none=True)
        out = model(x)
        mask = labels >= 0
        loss = out[mask].pow(2).mean()
        loss.backward()
        optimizer.step()
        total += loss.detach()
    print(f"backward: {STEPS} steps, finite {bool(torch.isfinite(total))}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
