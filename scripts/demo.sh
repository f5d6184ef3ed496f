#!/bin/sh
# demo.sh: install what a release build needs (setup.sh --build: no test tools, no browser),
# build (release preset) and lint the bundled samples.
set -eu
cd "$(dirname "$0")/.."
if [ -x /usr/local/cuda/bin/nvcc ]; then export PATH="$PATH:/usr/local/cuda/bin"; fi
./scripts/setup.sh --build
cmake --preset release
cmake --build --preset release -j "$(nproc)"
status=0
./build/release/cli/syncscope lint samples/ || status=$?
# Exit code 1 means findings were reported, which is what the samples are for.
[ "$status" -le 1 ]
