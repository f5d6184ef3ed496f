#!/usr/bin/env bash
# run.sh: `syncscope lint` on a whole real project, against the parse floor (clang-16
# -fsyntax-only on the same files with the same arguments, nvcc's version macros included for
# the units of nvcc's commands as lint gives them, one file after another), in
# interleaved rounds. Fetches nothing and builds nothing: it reads the project's compile
# database (or walks the project folder) and prints the files in the database, how many lint
# analyzed, which had parse errors (the first errors), the findings by rule and severity,
# the cold (empty cache) and warm (same cache) wall times and their ratio to the floor
# (docs/studies/performance.md, "Lint on real projects"; docs/studies/lint-realworld.md).
#
# Usage: bench/lint-real/run.sh SYNCSCOPE PROJECT_DIR [COMPILE_DB_DIR] [-- LINT_OPTION...]
#   SYNCSCOPE       a syncscope build folder (its cli/syncscope is run) or the binary
#   PROJECT_DIR     the project's source folder; lint runs there, paths are shown from it
#   COMPILE_DB_DIR  the folder holding compile_commands.json (default: PROJECT_DIR when it
#                   has one; otherwise lint walks PROJECT_DIR as a folder)
#   LINT_OPTION     given to every lint run (which runs in PROJECT_DIR), e.g. --remove-arg
#                   ARG, --extra-arg ARG, --cuda-path DIR (the floor uses the last two too)
# Environment (all optional):
#   BENCH_ROUNDS=2        rounds; each runs the floor once and lint cold + warm once
#   BENCH_JOBS=1          lint -j (the floor is always one file after another)
#   BENCH_MEASURE="floor lint"   or "lint", which skips the floor
#   BENCH_SHOW=5          how many parse errors to show
#   BENCH_OUT=FILE        also write this report to FILE
#   BENCH_REPORT=FILE     keep the first cold run's JSON result (syncscope report reads it)
#   BENCH_SUMMARY=FILE    write the file counts and median times as JSON (study.py reads it)
#   CLANG=clang-16  CUDA_PATH=DIR (else nvcc's toolkit on PATH, else /usr/local/cuda)
# Exit status: 0 every file analyzed without parse errors; 1 some file had parse errors, or
# the cold and warm runs disagree; 2 usage error, or a tool failed (no report, crash).
set -euo pipefail

usage() { sed -n '2,30s/^# \{0,1\}//p' "$0"; }
if [ $# -ge 1 ] && { [ "$1" = -h ] || [ "$1" = --help ]; }; then
    usage
    exit 0
fi
if [ $# -lt 2 ]; then
    usage >&2
    exit 2
fi
here="$(cd "$(dirname "$0")" && pwd)"
exec python3 -B "$here/run.py" "$@"
