"""gpt2_generate.py: Hugging Face transformers' generate() on a small GPT-2 built from a
GPT2Config (random weights, nothing downloaded), greedy, a few prompts in turn. A real workload
for tests/gpu/real: the synchronizations are inside transformers' generation loop."""
import sys

import torch
from transformers import GPT2Config, GPT2LMHeadModel

ROUNDS = 4


def main():
    torch.manual_seed(0)
    dev = torch.device("cuda")
    config = GPT2Config(vocab_size=1000, n_positions=128, n_embd=128, n_layer=2, n_head=4,
                        bos_token_id=0, eos_token_id=999, pad_token_id=999)
    model = GPT2LMHeadModel(config).to(dev).eval()
    generator = torch.Generator().manual_seed(1)
    total = 0
    with torch.no_grad():
        for _ in range(ROUNDS):
            ids = torch.randint(0, 998, (2, 12), generator=generator).to(dev)
            mask = torch.ones_like(ids)
            out = model.generate(ids, attention_mask=mask, max_new_tokens=16, do_sample=False,
                                 min_new_tokens=16)
            total += out.shape[1] - ids.shape[1]
    print(f"gpt2: {ROUNDS} rounds, {total} new tokens per sequence in all")
    return 0


if __name__ == "__main__":
    sys.exit(main())
