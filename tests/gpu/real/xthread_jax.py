"""xthread_jax.py: a jitted JAX loop that reads one value back every step with float(). XLA
waits for the result on threads of its own (cuStreamSynchronize in its CUDA plugin), while
the program's thread waits in float(). A real workload for tests/gpu/real (cross-thread
attribution)."""
import os
import sys

os.environ.setdefault("XLA_PYTHON_CLIENT_PREALLOCATE", "false")

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402

STEPS = 30


@jax.jit
def step(x):
    return jnp.sum(jnp.tanh(x @ x / x.shape[0]))


def main():
    x = jnp.ones((1024, 1024), dtype=jnp.float32) * 0.5
    total = 0.0
    for i in range(STEPS):
        total += float(step(x + i))
    print(f"jax: {STEPS} steps, finite {total == total}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
