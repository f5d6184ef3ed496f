"""gpt2_model.py: the GPT-2 of the benchmarks' generate() workloads (window_cost.py generate,
real_lockstep.py generate): tests/gpu/real/gpt2_generate.py's configuration, two layers of
width 128 with random weights, built from its config (nothing downloaded)."""


def tiny_gpt2(dev):
    """The model on device 'dev', in evaluation mode (torch's seed set by the caller)."""
    from transformers import GPT2Config, GPT2LMHeadModel
    config = GPT2Config(vocab_size=1000, n_positions=128, n_embd=128, n_layer=2, n_head=4,
                        bos_token_id=0, eos_token_id=999, pad_token_id=999)
    return GPT2LMHeadModel(config).to(dev).eval()
