"""timm_infer.py: batched inference with a timm model (random weights, nothing downloaded),
as a serving loop is often written: batches in pinned memory copied with non_blocking=True,
bf16 autocast, the top-5 classes of each batch copied to the host, a per-batch latency taken
with torch.cuda.synchronize(), and a running accuracy read with .item(). A real workload for
tests/gpu/real: its synchronizations are the program's own lines and timm's."""
import sys
import time

import timm
import torch

BATCHES = 24


def main():
    torch.manual_seed(0)
    dev = torch.device("cuda")
    model = timm.create_model("resnet26d", pretrained=False, num_classes=100).to(dev).eval()
    model = model.to(memory_format=torch.channels_last)
    images = torch.randn(BATCHES, 16, 3, 96, 96).pin_memory()
    labels = torch.randint(0, 100, (BATCHES, 16))
    latencies, hits = [], 0
    with torch.inference_mode(), torch.autocast("cuda", dtype=torch.bfloat16):
        for i in range(BATCHES):
            start = time.perf_counter()
            x = images[i].to(dev, non_blocking=True).to(memory_format=torch.channels_last)
            logits = model(x)
            top5 = logits.float().topk(5, dim=1).indices.cpu()
            torch.cuda.synchronize()
            latencies.append(time.perf_counter() - start)
            hits += (top5[:, 0] == labels[i]).sum().item()
    print(f"timm: {BATCHES} batches, {len(latencies)} latencies, top-1 hits counted")
    return 0


if __name__ == "__main__":
    sys.exit(main())
