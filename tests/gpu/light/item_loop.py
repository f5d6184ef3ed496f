"""item_loop.py: a PyTorch loop that reads a value back every step, for the light mode past its
memory cap (tests/gpu/light/memory_cap.py's second form). Each of STEPS steps runs a small
model's forward and backward pass and an SGD step, reads the loss back with .item() (SYNC301),
and every 10th step also compares the loss on the host (a tensor's bool: another readback).
Prints the steps and the loss's sum rounded to two places, the same with or without syncscope.

    python3 tests/gpu/light/item_loop.py [STEPS]
"""
import sys

import torch


def main():
    steps = int(sys.argv[1]) if len(sys.argv) > 1 else 30000
    torch.manual_seed(0)
    dev = torch.device("cuda")
    model = torch.nn.Sequential(torch.nn.Linear(64, 64), torch.nn.ReLU(),
                                torch.nn.Linear(64, 1)).to(dev)
    opt = torch.optim.SGD(model.parameters(), lr=0.001)
    x = torch.randn(256, 64, device=dev)
    y = torch.randn(256, 1, device=dev)
    total = 0.0
    small = 0
    for step in range(steps):
        loss = torch.nn.functional.mse_loss(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item()
        if step % 10 == 0 and loss < 100:
            small += 1
    print(f"steps {steps}\nsum {total:.2f}\nsmall {small}")


if __name__ == "__main__":
    main()
