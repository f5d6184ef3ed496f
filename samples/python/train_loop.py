"""train_loop.py: a small PyTorch training loop with the synchronizations PyTorch users
meet; each line that makes the host wait for the GPU carries a "syncscope:" marker with the
rule syncscope reports there. train_loop_fixed.py is the same loop without them.

    syncscope run -- python3 samples/python/train_loop.py
"""
import torch

STEPS = 3


def heavy(m):
    """Queues about 2 ms of GPU work and does not wait for it."""
    return m @ m


def main():
    torch.manual_seed(0)
    dev = torch.device("cuda")
    model = torch.nn.Sequential(torch.nn.Linear(512, 512), torch.nn.ReLU(),
                                torch.nn.Linear(512, 1)).to(dev)  # syncscope: SYNC201
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    big = torch.randn(4096, 4096, device=dev)
    host_batch = torch.randn(4096, 512)  # pageable host memory: not pinned
    labels = torch.randn(4096, 1, device=dev)
    total = 0.0
    kept = 0
    for _ in range(STEPS):
        heavy(big)
        x = host_batch.to(dev, non_blocking=True)  # syncscope: SYNC201
        loss = torch.nn.functional.mse_loss(model(x), labels)
        opt.zero_grad()
        loss.backward()
        opt.step()
        heavy(big)
        total += loss.item()  # syncscope: SYNC301
        heavy(big)
        if loss < 100:  # syncscope: SYNC301
            kept += 1
        heavy(big)
        weights = model[2].weight.detach().cpu()  # syncscope: SYNC201
        heavy(big)
        positive = torch.nonzero(labels > 0)  # syncscope: SYNC301
        heavy(big)
        large = labels[labels > 1.0]  # syncscope: SYNC301
        heavy(big)
        torch.cuda.synchronize()  # syncscope: SYNC401
    print(f"steps {STEPS} kept {kept} weights {tuple(weights.shape)} "
          f"positive {positive.shape[0]} large {large.shape[0]} loss {total / STEPS:.2f}")


if __name__ == "__main__":
    main()
