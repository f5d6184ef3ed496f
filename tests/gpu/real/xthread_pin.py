"""xthread_pin.py: a DataLoader with pin_memory=True and two worker processes. The batches are
pinned on the DataLoader's pin-memory thread (page-locked host allocations of PyTorch's caching
host allocator), which the program's thread started at its `for` loop, while that thread keeps
the GPU busy. A real workload for tests/gpu/real (helper threads)."""
import sys

import torch
from torch.utils.data import DataLoader, Dataset

BATCHES = 24


class Rows(Dataset):
    """Rows of growing width: batches of new sizes keep the pinned allocator allocating."""

    def __len__(self):
        return BATCHES * 8

    def __getitem__(self, index):
        width = 4096 * (1 + index // 32)
        return torch.full((width,), float(index))


def main():
    device = torch.device("cuda")
    weight = torch.randn(2048, 2048, device=device)
    loader = DataLoader(Rows(), batch_size=8, num_workers=2, pin_memory=True)
    total = torch.zeros((), device=device)
    for batch in loader:
        batch = batch.to(device, non_blocking=True)
        busy = weight
        for _ in range(20):
            busy = torch.tanh(busy @ weight)
        total += batch.sum() + busy[0, 0]
    print(f"pin: {BATCHES} batches, finite {bool(torch.isfinite(total))}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
