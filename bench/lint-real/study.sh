#!/usr/bin/env bash
# study.sh: the whole study of docs/studies/lint-realworld.md ("Final re-run") in one command:
# bench/lint-real/run.sh once per project of study-projects.txt (one round: lint cold and warm,
# and the parse floor), then study.py's table of them.
#
# Usage: bench/lint-real/study.sh SYNCSCOPE SRC_ROOT DB_ROOT OUT_DIR [NAME...]
#   SYNCSCOPE  a syncscope build folder or the binary
#   SRC_ROOT   the folder holding each project's source folder (study-projects.txt's SOURCE)
#   DB_ROOT    the folder holding each project's compile database folder (DATABASE)
#   OUT_DIR    where each project's report (NAME.txt), findings (NAME.json) and counts
#              (NAME.summary.json) go
#   NAME       only these projects (default: all)
# Environment (all optional):
#   STUDY_MEASURE="floor lint"  or "lint" to skip the floor (study.py can take it from an
#                               earlier OUT_DIR: STUDY_FLOOR_FROM=DIR)
#   STUDY_PROJECTS=FILE         another project list
#   STUDY_VERDICTS=FILE         judged warnings (default: verdicts.tsv beside this script)
#   STUDY_PARALLEL=1            projects linted at a time (each still -j 1)
#   CUDA_PATH=DIR               the toolkit (default /usr/local/cuda), given as --cuda-path
# Every run is -j 1; nothing is fetched or built. Exit status: 0 all ran; 2 usage error or a
# project's run failed (its report says why; the others still run).
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
usage() { sed -n '2,24s/^# \{0,1\}//p' "$0"; }
if [ $# -ge 1 ] && { [ "$1" = -h ] || [ "$1" = --help ]; }; then usage; exit 0; fi
if [ $# -lt 4 ]; then usage >&2; exit 2; fi
ss=$1 src_root=$2 db_root=$3 out=$4
shift 4
list=${STUDY_PROJECTS:-$here/study-projects.txt}
cuda=${CUDA_PATH:-/usr/local/cuda}
for d in "$src_root" "$db_root"; do
    [ -d "$d" ] || { echo "study.sh: '$d' is not a folder" >&2; exit 2; }
done
mkdir -p "$out" || exit 2
run_one() { # NAME SAMPLE SOURCE DATABASE [OPTIONS...]: one project's run.sh
    local name=$1 sample=$2 source=$3 database=$4 project rc
    shift 4
    project=$(realpath "$src_root/$source") || return 2
    echo "study.sh: $name ($sample) $(date -u +%H:%M:%S)" >&2
    BENCH_ROUNDS=1 BENCH_JOBS=1 BENCH_MEASURE="${STUDY_MEASURE:-floor lint}" \
        BENCH_REPORT="$out/$name.json" BENCH_SUMMARY="$out/$name.summary.json" \
        BENCH_OUT="$out/$name.txt" "$here/run.sh" "$ss" "$project" "$db_root/$database" \
        -- --cuda-path "$cuda" "$@" > "$out/$name.log" 2>&1
    rc=$?
    if [ $rc -gt 1 ]; then
        echo "study.sh: $name: run.sh failed (exit status $rc), see $out/$name.log" >&2
        return 2
    fi
    echo "study.sh: $name done $(date -u +%H:%M:%S)" >&2
}
parallel=${STUDY_PARALLEL:-1}
status=0 running=0
while read -r name sample source database options; do
    case $name in ''|'#'*) continue ;; esac
    if [ $# -gt 0 ]; then
        case " $* " in *" $name "*) ;; *) continue ;; esac
    fi
    if [ "$running" -ge "$parallel" ]; then
        wait -n || status=2
        running=$((running - 1))
    fi
    # shellcheck disable=SC2086  # the options are words
    run_one "$name" "$sample" "$source" "$database" $options < /dev/null &
    running=$((running + 1))
done < "$list"
while [ "$running" -gt 0 ]; do
    wait -n || status=2
    running=$((running - 1))
done
python3 -B "$here/study.py" "$out" --projects "$list" \
    --verdicts "${STUDY_VERDICTS:-$here/verdicts.tsv}" \
    ${STUDY_FLOOR_FROM:+--floor-from "$STUDY_FLOOR_FROM"} || status=2
exit $status
