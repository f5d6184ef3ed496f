"""jax_loop.py: a jitted JAX loop that fetches a value with jax.device_get every step. A real
workload for tests/gpu/real: XLA compiles (and autotunes) at the first call, through the CUDA
driver API."""
import os
import sys

os.environ.setdefault("XLA_PYTHON_CLIENT_PREALLOCATE", "false")

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402

STEPS = 40


@jax.jit
def step(x):
    return jnp.tanh(x @ x / x.shape[0])


def main():
    x = jnp.ones((512, 512), dtype=jnp.float32) * 0.5
    checks = 0
    for _ in range(STEPS):
        x = step(x)
        value = jax.device_get(x[0, 0])
        checks += int(value == value)
    print(f"jax: {STEPS} steps, {checks} checks")
    return 0


if __name__ == "__main__":
    sys.exit(main())
