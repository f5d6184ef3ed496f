"""jax_sync503.py: the jitted JAX loop of the issue that asked for checked what-ifs
(tests/gpu/whatif/README.md): float(step(x + i)) every step, where step is jitted and returns
one value. written: as said; rewritten: the values stay on the device, dispatched
asynchronously, and are read back together at the end of the timed steps (SYNC301's hint).
Usage: whatif_pair.py's."""
import os
import sys

os.environ.setdefault("XLA_PYTHON_CLIENT_PREALLOCATE", "false")

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402

from whatif_pair import main  # noqa: E402


@jax.jit
def step_fn(x):
    return jnp.tanh(x @ x / x.shape[0]).sum()


def written():
    x = jnp.ones((512, 512), dtype=jnp.float32) * 0.5
    seen = [0.0]

    def step(i):
        seen[0] += float(step_fn(x + i))
    return step, lambda: None


def rewritten():
    x = jnp.ones((512, 512), dtype=jnp.float32) * 0.5
    pending = []
    seen = [0.0]

    def step(i):
        pending.append(step_fn(x + i))

    def sync():
        seen[0] += sum(float(v) for v in jax.device_get(pending))
        pending.clear()
    return step, sync


if __name__ == "__main__":
    sys.exit(main({"written": written, "rewritten": rewritten}, 40, 5))
