#!/bin/sh
# test.sh: the whole test suite on a fresh Debian 12 machine: install, configure (ci preset:
# every part required, warnings as errors, sanitizers), build, run every test; then lint built
# against libclang 14 and 15 and its tests (build/clang14, build/clang15); then the fuzz
# build (build/fuzz, clang-16, libFuzzer with ASan and UBSan), whose tests (label fuzz) fuzz
# each reader for SYNCSCOPE_FUZZ_SECONDS (20 s) and fail on any crash, leak or timeout
# (docs/reliability.md).
set -eu
cd "$(dirname "$0")/.."
if [ -x /usr/local/cuda/bin/nvcc ]; then export PATH="$PATH:/usr/local/cuda/bin"; fi
./scripts/setup.sh
cmake --preset ci
cmake --build --preset ci -j "$(nproc)"
ctest --preset ci -j "$(nproc)"

# lint against the other libclangs Debian 12 has, its default (14) and 15: the analyzer and
# the lint tests only, with the bundled CUDA declarations (clang 14's and 15's CUDA headers
# predate a CUDA 12+ toolkit's; docs/install.md). About 2 minutes each on two cores.
for version in 14 15; do
    cmake -S . -B "build/clang$version" -G Ninja -DCMAKE_BUILD_TYPE=Release \
        -DSYNCSCOPE_LIBCLANG_VERSION="$version" -DSYNCSCOPE_REQUIRE_ALL=OFF -DSYNCSCOPE_SAMPLES=OFF
    cmake --build "build/clang$version" --target syncscope lint_driver -j "$(nproc)"
    ctest --test-dir "build/clang$version" -R '^lint_(bundled|guard|deep|cmake_makefiles)$' \
        --no-tests=error -j "$(nproc)" --output-on-failure
done

# the build without libclang (SYNCSCOPE_ANALYZER=OFF, as on a GPU machine that has no
# libclang): every part but the analyzer must still compile and link.
cmake -S . -B build/noanalyzer -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSYNCSCOPE_ANALYZER=OFF \
    -DSYNCSCOPE_TESTS=OFF -DSYNCSCOPE_SAMPLES=OFF
cmake --build build/noanalyzer -j "$(nproc)"

CC=clang-16 cmake -S . -B build/fuzz -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DSYNCSCOPE_FUZZ=ON -DSYNCSCOPE_TESTS=OFF -DSYNCSCOPE_SAMPLES=OFF -DSYNCSCOPE_INTERPOSER=OFF
cmake --build build/fuzz --target fuzzers -j "$(nproc)"
ctest --test-dir build/fuzz -L fuzz -j "$(nproc)" --output-on-failure
