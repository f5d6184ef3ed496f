"""torch_sync201.py: SYNC201's framework pair (tests/gpu/whatif/README.md): a DataLoader (two
workers, no torchvision) of 8 MiB batches held in shared memory (no collate copy), each copied
to the GPU with .to("cuda", non_blocking=True) and used by a matmul there. written:
pin_memory=False (the copy is from pageable memory: staged, and the host blocks in it);
rewritten: pin_memory=True, as the hint says (the loader's pinning thread pins each batch
beside the main loop). Usage: whatif_pair.py's."""
import sys

import torch
from torch.utils.data import DataLoader, Dataset

from whatif_pair import main

BATCHES = 8
BATCH_FLOATS = 2 * 1024 * 1024  # 8 MiB of float32


class Batches(Dataset):
    def __init__(self):
        self.data = torch.arange(BATCHES * BATCH_FLOATS, dtype=torch.float32)
        self.data = self.data.reshape(BATCHES, BATCH_FLOATS).share_memory_()

    def __len__(self):
        return BATCHES

    def __getitem__(self, i):
        return self.data[i]


def make(pin):
    def form():
        loader = DataLoader(Batches(), batch_size=None, num_workers=2, persistent_workers=True,
                            pin_memory=pin, prefetch_factor=4)
        w = torch.randn(1024, 256, device="cuda") / 32
        batches = [iter(loader)]

        def next_batch():
            try:
                return next(batches[0])
            except StopIteration:
                batches[0] = iter(loader)
                return next(batches[0])

        def step(i):
            x = next_batch().to("cuda", non_blocking=True)
            y = x.view(-1, 1024) @ w
            y.relu_()
        return step, torch.cuda.synchronize
    return form


if __name__ == "__main__":
    sys.exit(main({"written": make(False), "rewritten": make(True)}, 80, 16))
