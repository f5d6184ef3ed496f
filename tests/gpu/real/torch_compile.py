"""torch_compile.py: a small MLP trained with torch.compile (TorchInductor, Triton kernels),
the loss read back with .item() every step. A real workload for tests/gpu/real: the first
steps compile (TorchDynamo traces, Inductor generates and loads Triton kernels), then the
compiled loop runs."""
import sys

import torch

STEPS = 30


def main():
    torch.manual_seed(0)
    dev = torch.device("cuda")
    model = torch.nn.Sequential(torch.nn.Linear(256, 512), torch.nn.GELU(),
                                torch.nn.Linear(512, 10)).to(dev)
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    loss_fn = torch.nn.CrossEntropyLoss()

    @torch.compile
    def step(x, y):
        loss = loss_fn(model(x), y)
        loss.backward()
        return loss

    losses = 0.0
    for _ in range(STEPS):
        x = torch.randn(64, 256, device=dev)
        y = torch.randint(0, 10, (64,), device=dev)
        opt.zero_grad()
        loss = step(x, y)
        opt.step()
        losses += loss.item()
    print(f"compiled: {STEPS} steps")
    return 0


if __name__ == "__main__":
    sys.exit(main())
