"""mlp_train.py: a small PyTorch training loop (MLP classifier on synthetic data), the
launch-bound shape of real Python training code, with a loss readback every LOG_EVERY steps.

Usage: python3 mlp_train.py [steps (2000)]
Prints "bench: train_ms VALUE CHECK", CHECK being the final loss's float32 bits: the run is
deterministic, so it must be the same bare and under any tool. VALUE is the median time of a
LOG_EVERY-step window (each ends with its loss readback) times the number of windows, which a
burst of noise from other processes on the machine moves less than the total time.
"""
import os
import struct
import sys
import time

# Deterministic cuBLAS: a tool must not change the result, and this makes that checkable.
os.environ.setdefault("CUBLAS_WORKSPACE_CONFIG", ":4096:8")

import torch  # noqa: E402

FEATURES = 256
HIDDEN = 1024
CLASSES = 10
BATCH = 256
BATCHES = 64
WARMUP_STEPS = 50
LOG_EVERY = 100
SEED = 1234


def make_step():
    """The model, its data and optimizer on the GPU; returns step(i), one training step on
    batch i that returns the loss (a tensor: no readback). Also used by window_cost.py and
    mlp_lockstep.py."""
    torch.manual_seed(SEED)
    torch.use_deterministic_algorithms(True)
    device = torch.device("cuda")

    teacher = torch.randn(FEATURES, CLASSES, device=device)
    inputs = torch.randn(BATCHES * BATCH, FEATURES, device=device)
    labels = (inputs @ teacher).argmax(dim=1)
    model = torch.nn.Sequential(
        torch.nn.Linear(FEATURES, HIDDEN), torch.nn.ReLU(),
        torch.nn.Linear(HIDDEN, HIDDEN), torch.nn.ReLU(),
        torch.nn.Linear(HIDDEN, CLASSES)).to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3, foreach=True)
    loss_fn = torch.nn.CrossEntropyLoss()

    def step(i):
        lo = (i % BATCHES) * BATCH
        optimizer.zero_grad(set_to_none=True)
        loss = loss_fn(model(inputs[lo:lo + BATCH]), labels[lo:lo + BATCH])
        loss.backward()
        optimizer.step()
        return loss

    return step


def train(step, steps):
    """Warms up and runs 'steps' timed steps with a loss readback every LOG_EVERY; returns
    (measured ms, elapsed ms, first logged loss, final loss). Also used by mlp_pairs.py."""
    # Untimed warm-up: cuBLAS handles, kernel loading, the allocator's first blocks.
    for i in range(WARMUP_STEPS):
        step(i)
    torch.cuda.synchronize()

    logged = []
    windows = []
    t0 = time.perf_counter()
    window_start = t0
    for i in range(steps):
        loss = step(WARMUP_STEPS + i)
        if (i + 1) % LOG_EVERY == 0:
            logged.append(loss.item())
            now = time.perf_counter()
            windows.append(now - window_start)
            window_start = now
    final = loss.item()
    torch.cuda.synchronize()
    elapsed_ms = (time.perf_counter() - t0) * 1e3
    windows.sort()
    if windows:
        mid = len(windows) // 2
        median = windows[mid] if len(windows) % 2 else (windows[mid - 1] + windows[mid]) / 2
        measured_ms = median * 1e3 * steps / LOG_EVERY
    else:
        measured_ms = elapsed_ms
    return measured_ms, elapsed_ms, logged[0] if logged else final, final


def checksum(loss):
    """The float32 bits of a loss: the run is deterministic, so bare and observed agree."""
    return struct.unpack("<I", struct.pack("<f", loss))[0]


def main():
    steps = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
    if steps <= 0:
        sys.exit("mlp_train.py: steps must be a positive integer")
    if not torch.cuda.is_available():
        sys.exit("mlp_train.py: no CUDA device visible to PyTorch")
    measured_ms, elapsed_ms, first, final = train(make_step(), steps)
    print(f"{steps} steps, batch {BATCH}, torch {torch.__version__}: {elapsed_ms:.1f} ms, "
          f"{1e3 * elapsed_ms / steps:.1f} us per step, loss {first:.4f} -> {final:.4f}")
    print(f"median window of {LOG_EVERY} steps x {steps / LOG_EVERY:g}: {measured_ms:.1f} ms")
    print(f"bench: train_ms {measured_ms:.3f} {checksum(final)}", flush=True)


if __name__ == "__main__":
    main()
