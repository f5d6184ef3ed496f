#!/usr/bin/env bash
# run.sh: the lint benchmark: `syncscope lint` against the parse floor (clang-16
# -fsyntax-only, same arguments, same files), -j2 against -j1, and a warm re-run against a
# cold one, over a generated corpus, in interleaved rounds (docs/studies/performance.md).
#
# Usage: bench/lint/run.sh SYNCSCOPE [CORPUS_DIR]
#   SYNCSCOPE   the syncscope binary (e.g. build/cli/syncscope)
#   CORPUS_DIR  where the corpus is generated (default: a temporary folder, removed after)
# Environment (all optional):
#   BENCH_OUT=FILE          also write the results table to FILE
#   BENCH_ROUNDS=3          rounds; each runs every measurement once
#   BENCH_MEASURE="floor j1 j2 cache"   which measurements to run
#   BENCH_FILES=240 BENCH_SEED=20240611 BENCH_THRUST_SHARE=0.12   corpus shape
#   CLANG=clang-16  CUDA_PATH=/usr/local/cuda
# Measurements whose lint options do not exist yet (see `syncscope lint --help`) print n/a.
set -euo pipefail

if [ $# -lt 1 ] || [ $# -gt 2 ] || [ "$1" = -h ] || [ "$1" = --help ]; then
    sed -n '2,16s/^# \{0,1\}//p' "$0" >&2
    exit 2
fi
here="$(cd "$(dirname "$0")" && pwd)"
exec python3 "$here/run.py" "$@"
