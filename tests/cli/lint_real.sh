#!/bin/sh
# lint_real.sh SYNCSCOPE SOURCE_DIR: bench/lint-real/run.sh, exactly: its usage errors (exit 2
# and the message), --help (exit 0), and the report of a small project (tests/cli/data/
# lint-real: 5 sources, one #included by another, one that does not parse, and a .syncscope.yml
# that marks pipeline.cu's run() hot, so its launch stays the one warning) linted as a folder
# (exit 1: a file with parse errors) and through a compile database without that file (exit
# 0): file counts, the first parse error, the findings by rule and severity. Runs with the
# bundled declarations (--cuda-path none), so no toolkit and no clang-16 are needed: the
# floor is then not measured, and the report says so. Needs nothing from the network.
set -u
SS=$(realpath "$1") SRC=$(realpath "$2")
RUN="$SRC/bench/lint-real/run.sh"
PROJECT="$SRC/tests/cli/data/lint-real"
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
fail=0
check() { # what expected actual
    if [ "$2" != "$3" ]; then
        printf 'FAIL: %s:\n--- expected\n%s\n--- got\n%s\n' "$1" "$2" "$3"
        fail=1
    fi
}
bench() { # args...: stdout to out.txt, stderr to err.txt, status in $rc
    BENCH_ROUNDS=1 "$RUN" "$@" >"$WORK/out.txt" 2>"$WORK/err.txt"
    rc=$?
}
# The report from its 'Files:' line to the line before 'Time:' (the times vary).
section() { sed -n '/^Files:/,/^Time:/p' "$WORK/out.txt" | sed '$d'; }

usage_first="run.sh: \`syncscope lint\` on a whole real project, against the parse floor (clang-16"
bench
check "no arguments: status" 2 "$rc"
check "no arguments: usage on stderr" "$usage_first" "$(head -n 1 "$WORK/err.txt")"
check "no arguments: nothing on stdout" "" "$(cat "$WORK/out.txt")"
bench --help
check "--help: status" 0 "$rc"
check "--help: usage on stdout" "$usage_first" "$(head -n 1 "$WORK/out.txt")"
bench "$SS"
check "one argument: status" 2 "$rc"
bench "$SS" "$PROJECT" -- -o x.json
check "-- -o: status" 2 "$rc"
check "-- -o: message" "bench/lint-real: '-o': the benchmark sets this lint option itself" \
    "$(cat "$WORK/err.txt")"
bench "$SS" "$PROJECT" -- -j4
check "-- -j4: status" 2 "$rc"
check "-- -j4: message" "bench/lint-real: '-j4': the benchmark sets this lint option itself" \
    "$(cat "$WORK/err.txt")"
bench "$WORK/none" "$PROJECT"
check "no syncscope: status" 2 "$rc"
check "no syncscope: message" \
    "bench/lint-real: '$WORK/none' is neither a syncscope build folder nor the binary" \
    "$(cat "$WORK/err.txt")"
bench "$SS" "$WORK/none"
check "no project: status" 2 "$rc"
check "no project: message" "bench/lint-real: '$WORK/none' is not a folder" "$(cat "$WORK/err.txt")"
bench "$SS" "$PROJECT" "$WORK"
check "no compile database: status" 2 "$rc"
check "no compile database: message" \
    "bench/lint-real: '$WORK/compile_commands.json' does not exist" "$(cat "$WORK/err.txt")"
BENCH_JOBS=0 bench "$SS" "$PROJECT"
check "BENCH_JOBS=0: status" 2 "$rc"
check "BENCH_JOBS=0: message" "bench/lint-real: BENCH_JOBS must be a positive integer, not '0'" \
    "$(cat "$WORK/err.txt")"

# The folder: 5 sources found, kernels.cu left to main.cu, broken.cu with an error.
BENCH_REPORT="$WORK/folder.json" bench "$SS" "$PROJECT" -- --cuda-path none
check "folder: status" 1 "$rc"
check "folder: report" "Files:
  no compile database: lint walked the project folder
  found by lint: 5
  analyzed: 4
  with parse errors: 1
  not analyzed: 1 (1 #included by other sources)
  first parse errors (1 of 1 reported once each):
    broken.cu:4:5: use of undeclared identifier 'undeclared_call'
  files with errors: broken.cu

Findings: 4 (0 errors, 1 warnings, 3 notes)

| rule | error | warning | note | total |
|---|---|---|---|---|
| SYNC101 default-stream-launch | 0 | 1 | 1 | 2 |
| SYNC103 blocking-stream-create | 0 | 0 | 1 | 1 |
| SYNC301 scalar-readback | 0 | 0 | 1 | 1 |" "$(section)"
check "folder: floor" \
    "floor: not measured: no CUDA toolkit, so lint parses with the bundled declarations it holds in memory" \
    "$(grep '^floor:' "$WORK/out.txt")"
check "folder: lint command" \
    "lint: (in the project) syncscope lint --fail-on none --keep-going --format json --verbose -o OUT.json --cache-dir CACHE -j 1 --cuda-path none ." \
    "$(grep '^lint:' "$WORK/out.txt")"
check "folder: no problems" "" "$(grep -A3 '^PROBLEMS' "$WORK/out.txt")"
check "folder: the kept report" 4 \
    "$(grep -c '"ruleId"' "$WORK/folder.json")"

# A compile database of nvcc commands without broken.cu: every file analyzed, exit 0.
mkdir "$WORK/db"
cat >"$WORK/db/compile_commands.json" <<EOF
[{"directory": "$PROJECT", "command": "nvcc -DNDEBUG -x cu -c main.cu -o main.o", "file": "main.cu"},
 {"directory": "$PROJECT", "command": "nvcc -gencode arch=compute_80,code=sm_80 -c pipeline.cu -o p.o", "file": "pipeline.cu"},
 {"directory": "$PROJECT", "arguments": ["g++", "-O2", "-c", "util.cpp"], "file": "util.cpp"},
 {"directory": "$PROJECT", "arguments": ["g++", "-O3", "-c", "util.cpp"], "file": "util.cpp"}]
EOF
mkdir "$WORK/study"
BENCH_JOBS=2 BENCH_REPORT="$WORK/study/a.json" BENCH_SUMMARY="$WORK/study/a.summary.json" \
    bench "$SS" "$PROJECT" "$WORK/db" -- --cuda-path=none --remove-arg -DNDEBUG
check "compile database: status" 0 "$rc"
check "compile database: report" "Files:
  compile database: 4 entries, 3 source files
  found by lint: 3
  analyzed: 3
  with parse errors: 0
  not analyzed: 0

Findings: 4 (0 errors, 1 warnings, 3 notes)

| rule | error | warning | note | total |
|---|---|---|---|---|
| SYNC101 default-stream-launch | 0 | 1 | 1 | 2 |
| SYNC103 blocking-stream-create | 0 | 0 | 1 | 1 |
| SYNC301 scalar-readback | 0 | 0 | 1 | 1 |" "$(section)"
check "compile database: lint command" \
    "lint: (in the project) syncscope lint --fail-on none --keep-going --format json --verbose -o OUT.json --cache-dir CACHE -j 2 --cuda-path=none --remove-arg -DNDEBUG -p $WORK/db" \
    "$(grep '^lint:' "$WORK/out.txt")"
check "compile database: rounds" "Time: medians of 1 interleaved rounds, lint -j2" \
    "$(grep '^Time:' "$WORK/out.txt")"
check "compile database: nothing written in the project" "" \
    "$(cd "$PROJECT" && ls -A | grep -v -x -e broken.cu -e kernels.cu -e main.cu \
        -e pipeline.cu -e util.cpp -e .syncscope.yml)"

# BENCH_SUMMARY: the counts as JSON; without a floor its times and files are null.
check "summary: counts" "3 [] None None True" "$(python3 -c "import json, sys
d = json.load(open(sys.argv[1]))
print(d['analyzed'], d['withErrors'], d['floorWithErrors'], d['time']['floor']['cpu'],
      d['time']['cold']['cpu'] > 0)" "$WORK/study/a.summary.json")"
# bench/lint-real/study.py: two projects of one sample over the same sources (a header's
# finding reported twice counts once in the sample's row), a verdict for the one warning, the
# floor taken from an earlier run (--floor-from) for one of them.
cp "$WORK/study/a.json" "$WORK/study/b.json"
python3 -c "import json, sys
d = json.load(open(sys.argv[1]))
d['time']['floor']['cpu'] = 2.0; d['time']['cold']['cpu'] = 3.0; d['floorWithErrors'] = ['x.cu']
json.dump(d, open(sys.argv[2] + '/b.summary.json', 'w'))
d['time']['floor']['cpu'] = None; d['floorWithErrors'] = None
json.dump(d, open(sys.argv[3] + '/b.summary.json', 'w'))
d['time']['cold']['cpu'] = 1.0
json.dump(d, open(sys.argv[3] + '/a.summary.json', 'w'))" "$WORK/study/a.summary.json" "$WORK/db" "$WORK/study"
printf 'a s1 lint-real db\nb s1 lint-real db\n' >"$WORK/projects.txt"
printf '# place line rule verdict reason\nlint-real/pipeline.cu\t12\tSYNC101\ttrue\ta reason\n' \
    >"$WORK/verdicts.tsv"
python3 -B "$SRC/bench/lint-real/study.py" "$WORK/study" --projects "$WORK/projects.txt" \
    --verdicts "$WORK/verdicts.tsv" --floor-from "$WORK/db" >"$WORK/study.txt" 2>&1
check "study.py: status" 0 "$?"
check "study.py: rows" "| a | 3 | 0 / – | 1 | 3 | 1 of 1 (100%) |  | 1.0 |  |
| b | 3 | 0 / 1 | 1 | 3 | 1 of 1 (100%) | 2.0 | 3.0 | 1.50× |
| **s1, each place once** | **6** | **0 / –** | **1** | **3** | **1 of 1 (100%)** |  | **4.0** |  |" \
    "$(sed -n '3,5p' "$WORK/study.txt")"
check "study.py: not judged" "Warnings not judged: 0" "$(grep '^Warnings not' "$WORK/study.txt")"

# The floor's clang command puts the toolkit's include folders after the compile command's own
# arguments and --extra-arg, as lint does: a project's own CCCL given with -isystem wins (a
# toolkit folder made up here; nothing is run); of what lint's --verbose says it adds before them,
# nvcc's version macros go to the floor too (lint gives them to the units of nvcc's commands).
mkdir -p "$WORK/cuda/include/cccl"
floor_argv() { # lang: the floor's arguments for a file of that language, one line
    python3 -B -c "import sys; sys.path.insert(0, '$SRC/bench/lint-real')
import run
shims = ('SHIM', 'CUDACC')
err = ('syncscope: a.cu: arguments lint adds before them: -x cuda -D__CUDACC_VER_MAJOR__=13 '
       '-D__CUDACC_VER_MINOR__=0 -D__CUDACC_VER_BUILD__=88 -DOTHER -w\\n'
       'syncscope: a.' + sys.argv[1] + ': arguments from the compile command: -isystem /own/cccl')
kept, macros = run.read_verbose(err, '/p')
print(' '.join(run.floor_commands('clang-16', '/p', ['/p/a.' + sys.argv[1]], kept, macros,
    {}, ['-DEXTRA'], '$WORK/cuda', shims)[0][1]))" "$1"
}
check "floor order: C++" \
    "clang-16 -fsyntax-only -x c++ -w -ferror-limit=0 -isystem /own/cccl -DEXTRA -isystem $WORK/cuda/include -isystem $WORK/cuda/include/cccl /p/a.cpp" \
    "$(floor_argv cpp)"
check "floor order: CUDA" \
    "clang-16 -fsyntax-only -x cuda -std=c++17 --cuda-host-only -nocudalib -Wno-unknown-cuda-version --cuda-path=$WORK/cuda -Xclang -fcuda-allow-variadic-functions -include CUDACC -w -ferror-limit=0 -D__CUDACC_VER_MAJOR__=13 -D__CUDACC_VER_MINOR__=0 -D__CUDACC_VER_BUILD__=88 -isystem /own/cccl -DEXTRA -isystem SHIM -isystem $WORK/cuda/include/cccl /p/a.cu" \
    "$(floor_argv cu)"
exit $fail
