"""infer_loop.py: a small PyTorch inference loop with the synchronizations PyTorch users
meet; each line that makes the host wait for the GPU carries a "syncscope:" marker with the
rule syncscope reports there. infer_loop_fixed.py is the same loop without them.

    syncscope run -- python3 samples/python/infer_loop.py
"""
import torch

STEPS = 3


def heavy(m):
    """Queues about 2 ms of GPU work and does not wait for it."""
    return m @ m


def main():
    torch.manual_seed(0)
    dev = torch.device("cuda")
    model = torch.nn.Sequential(torch.nn.Linear(256, 256), torch.nn.Tanh(),
                                torch.nn.Linear(256, 4)).to(dev).eval()  # syncscope: SYNC201
    big = torch.randn(4096, 4096, device=dev)
    rows = [[(i * 7 + j) % 13 / 13.0 for j in range(256)] for i in range(64)]
    with torch.no_grad():
        for step in range(STEPS):
            heavy(big)
            batch = torch.tensor(rows, device=dev)  # syncscope: SYNC201
            out = model(batch)
            heavy(big)
            print(out[0, :2])  # syncscope: SYNC301
            heavy(big)
            scores = out[:, 0].tolist()  # syncscope: SYNC201
            scratch = torch.empty(64 << 20, dtype=torch.uint8, device=dev)
            del scratch
            heavy(big)
            torch.cuda.empty_cache()  # syncscope: SYNC402
            print(f"step {step} best {max(scores):.4f}")


if __name__ == "__main__":
    main()
