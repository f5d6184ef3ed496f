#!/usr/bin/env bash
# run.sh: the exit-time benchmark: what the end of an observed run costs, side by side: the
# whole process bare and under syncscope with the symbol cache off, cold and warm, and the
# symbolization steps with libdw's own symbol lookup (as before the symbol index), with the
# index, and through the cache (docs/studies/performance.md, "Exit time"). Needs no GPU by default.
#
# Usage: bench/exit/run.sh BUILD_DIR [-- PROGRAM ARGS...]
#   BUILD_DIR  a build tree with bench/exit/ and interpose/ built (a Release or RelWithDebInfo
#              build: a sanitized one measures the sanitizer)
#   PROGRAM    instead of bench/exit/exit_app under the fake CUPTI: a real CUDA program, on a
#              machine with a GPU (e.g. python3 tests/gpu/real/resnet_train.py)
# Environment (all optional):
#   BENCH_ROUNDS=3        interleaved rounds; medians are reported
#   BENCH_SCALE=1         how much code exit_app generates for LLVM and libclang (1-100)
#   BENCH_MODULES="..."   libraries to sample addresses in (default: the large ones found;
#                         "none": no such part)
#   BENCH_PER_MODULE=30   addresses sampled per library
#   BENCH_FLOOR=LIB       also run under the CUPTI floor alone (bench/overhead's
#                         libcupti_floor.so; a GPU machine)
#   BENCH_PLAIN=1         also run as a user's run costs: no trace, the symbol cache warm
#   BENCH_WHOLE=1         only the whole process (bare, floor, a user's run), after a warm-up,
#                         in rounds of alternating order; with a Python program run through
#                         bench/exit/phases.py, also the time of each phase
#   BENCH_VARIANTS="NAME:VAR=VALUE[,VAR=VALUE] ..."  (BENCH_WHOLE) also a user's run with
#                         those settings, one per word (what each feature costs)
#   BENCH_WHOLE_FULL=0    (BENCH_WHOLE) leave the user's full-mode run out
#   BENCH_CPU=LIST        (BENCH_WHOLE) every process on those CPUs (taskset -c)
#   BENCH_SECONDS=T       (BENCH_WHOLE) start no round after T seconds
#   BENCH_WARMUP=NAMES    (BENCH_WHOLE) warm up only these modes (bare, floor, full, a
#                         variant's name; none: no warm-up); default every one
#   BENCH_TARGET=1.01     (BENCH_WHOLE) the ratio the paired intervals are held against
#   BENCH_OLD_FINISHER=F  also run under finisher F (a libsyncscope_finish.so of another
#                         version, e.g. one built before the symbol index)
#   BENCH_OUT=FILE        also write the report to FILE
# Exit status 0; 1 when the paths disagree on any result or a run failed; 2 on usage errors.
set -euo pipefail

if [ $# -lt 1 ] || [ "$1" = -h ] || [ "$1" = --help ] || { [ $# -gt 1 ] && [ "$2" != -- ]; }; then
    sed -n '2,35s/^# \{0,1\}//p' "$0" >&2
    exit 2
fi
here="$(cd "$(dirname "$0")" && pwd)"
exec python3 "$here/run.py" "$@"
