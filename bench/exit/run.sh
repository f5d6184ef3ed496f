#!/usr/bin/env bash
# run.sh: the exit-time benchmark: what the end of an observed run costs, side by side: the
# whole process bare and under syncscope with the symbol cache off, cold and warm, and the
# symbolization steps with libdw's own symbol lookup (as before the symbol index), with the
# index, and through the cache (docs/performance.md, "Exit time"). Needs no GPU.
#
# Usage: bench/exit/run.sh BUILD_DIR
#   BUILD_DIR  a build tree with bench/exit/ and interpose/ built (a Release build: a
#              sanitized one measures the sanitizer)
# Environment (all optional):
#   BENCH_ROUNDS=3        interleaved rounds; medians are reported
#   BENCH_SCALE=1         how much code exit_app generates for LLVM and libclang (1-100)
#   BENCH_MODULES="..."   libraries to sample addresses in (default: the large ones found)
#   BENCH_PER_MODULE=30   addresses sampled per library
#   BENCH_OUT=FILE        also write the report to FILE
# Exit status 0; 1 when the paths disagree on any result or a run failed; 2 on usage errors.
set -euo pipefail

if [ $# -ne 1 ] || [ "$1" = -h ] || [ "$1" = --help ]; then
    sed -n '2,16s/^# \{0,1\}//p' "$0" >&2
    exit 2
fi
here="$(cd "$(dirname "$0")" && pwd)"
exec python3 "$here/run.py" "$@"
