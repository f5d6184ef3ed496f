#!/bin/bash
# converge_run.sh: converge_pair.cu on a GPU, the loop as written (the convergence value read
# back every iteration) against the loop as lint's "inherent as written" note says to rewrite
# it (read back every K-th iteration), for a light and a heavy iteration, in interleaved rounds.
# Usage: tests/gpu/whatif/converge_run.sh OUT_DIR   (on a machine with a GPU and nvcc)
# Environment: CONVERGE_SIZES (default "1024 16384": the system's n), CONVERGE_INTERVAL (8),
#   CONVERGE_ROUNDS (7), WHATIF_ARCH (sm_90).
# OUT_DIR gets rounds.txt (one line a run: n interval solve_us iterations) and results.txt:
#   "converge n=N written_us rewritten_us saving_pct written_iters rewritten_iters
#    written_per_iter_us rewritten_per_iter_us" (medians over the rounds).
# Exit status: 0, 1 when a run failed, 2 on usage.
set -u
if [ "$#" -ne 1 ]; then
    sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//' >&2
    exit 2
fi
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$1" || exit 2
out=$(cd "$1" && pwd)
sizes=${CONVERGE_SIZES:-"1024 16384"}
interval=${CONVERGE_INTERVAL:-8}
rounds=${CONVERGE_ROUNDS:-7}
nvcc -O2 -arch="${WHATIF_ARCH:-sm_90}" -o "$out/converge_pair" "$here/converge_pair.cu" || exit 1
status=0
: >"$out/rounds.txt"
for n in $sizes; do
    for r in $(seq "$rounds"); do
        for k in 1 "$interval"; do
            line=$("$out/converge_pair" "$k" "$n" 5000 3 | grep '^solve:') || status=1
            # solve: <us> us, <iterations> iterations, change <value>
            echo "$n $k $(echo "$line" | awk '{print $2, $4}')" >>"$out/rounds.txt"
        done
    done
done
python3 - "$out/rounds.txt" "$interval" >"$out/results.txt" <<'PY' || status=1
import statistics, sys
rows = [l.split() for l in open(sys.argv[1]) if len(l.split()) == 4]
k = sys.argv[2]
for n in sorted({r[0] for r in rows}, key=int):
    w = [(float(r[2]), int(r[3])) for r in rows if r[0] == n and r[1] == "1"]
    v = [(float(r[2]), int(r[3])) for r in rows if r[0] == n and r[1] == k]
    wu = statistics.median(x[0] for x in w); vu = statistics.median(x[0] for x in v)
    wi = statistics.median(x[1] for x in w); vi = statistics.median(x[1] for x in v)
    print(f"converge n={n} {wu:.1f} {vu:.1f} {100 * (wu - vu) / wu:.1f} {wi} {vi} "
          f"{wu / wi:.2f} {vu / vi:.2f}")
PY
cat "$out/results.txt"
exit $status
