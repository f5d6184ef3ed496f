#!/bin/sh
# test.sh: the whole test suite on a fresh Debian 12 machine: install, configure (ci preset:
# every part required, warnings as errors, sanitizers), build, run every test.
set -eu
cd "$(dirname "$0")/.."
if [ -x /usr/local/cuda/bin/nvcc ]; then export PATH="$PATH:/usr/local/cuda/bin"; fi
./scripts/setup.sh
cmake --preset ci
cmake --build --preset ci -j "$(nproc)"
ctest --preset ci -j "$(nproc)"
