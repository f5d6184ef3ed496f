#!/bin/bash
# march_run.sh: march_pair.cu on a GPU, the ray-marching loop as written (the alive count read
# back and waited for every round, the loop's exit test and the next launches' size: lint's note
# "inherent: the value chooses the next device work") against the loop rewritten as the warning
# it used to be said ("synchronize once after the loop": every round launched for all the rays,
# the device's count read on the device, the maximum of rounds) and tested every fourth round,
# in interleaved rounds.
# Usage: tests/gpu/whatif/march_run.sh OUT_DIR   (on a machine with a GPU and nvcc)
# Environment: MARCH_CONFIGS (default "1048576:16:64:64 1048576:16:512:64 1048576:4:64:256
#   65536:16:256:64": rays:mean rounds:max rounds:work), MARCH_ROUNDS (7), WHATIF_ARCH (sm_90).
# OUT_DIR gets rounds.txt (one line a run: config form trace_us rounds acc0) and results.txt:
#   "march CONFIG written_us rewritten_us saving_pct written_rounds rewritten_rounds
#    every4_us every4_saving_pct every4_rounds same|DIFFERENT" (medians over the rounds; a
#   negative saving: the rewrite is slower; the last word: whether every form marched the rays
#   to the same result).
# Exit status: 0, 1 when a run failed, 2 on usage.
set -u
if [ "$#" -ne 1 ]; then
    sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//' >&2
    exit 2
fi
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$1" || exit 2
out=$(cd "$1" && pwd)
configs=${MARCH_CONFIGS:-"1048576:16:64:64 1048576:16:512:64 1048576:4:64:256 65536:16:256:64"}
rounds=${MARCH_ROUNDS:-7}
nvcc -O2 -arch="${WHATIF_ARCH:-sm_90}" -o "$out/march_pair" "$here/march_pair.cu" || exit 1
status=0
: >"$out/rounds.txt"
for c in $configs; do
    IFS=: read -r n mean max work <<<"$c"
    for r in $(seq "$rounds"); do
        for form in 1 2 3; do
            line=$("$out/march_pair" "$form" "$n" "$mean" "$max" "$work" 3 | grep '^trace:') || status=1
            # trace: <us> us, <rounds> rounds, acc0 <value>
            echo "$c $form $(echo "$line" | awk '{print $2, $4, $7}')" >>"$out/rounds.txt"
        done
    done
done
python3 - "$out/rounds.txt" >"$out/results.txt" <<'PY' || status=1
import statistics, sys
rows = [l.split() for l in open(sys.argv[1]) if len(l.split()) == 5]
for c in dict.fromkeys(r[0] for r in rows):
    w = [(float(r[2]), int(r[3])) for r in rows if r[0] == c and r[1] == "1"]
    v = [(float(r[2]), int(r[3])) for r in rows if r[0] == c and r[1] == "2"]
    e = [(float(r[2]), int(r[3])) for r in rows if r[0] == c and r[1] == "3"]
    wu = statistics.median(x[0] for x in w); vu = statistics.median(x[0] for x in v)
    eu = statistics.median(x[0] for x in e)
    wi = statistics.median(x[1] for x in w); vi = statistics.median(x[1] for x in v)
    ei = statistics.median(x[1] for x in e)
    print(f"march {c} {wu:.1f} {vu:.1f} {100 * (wu - vu) / wu:.1f} {wi} {vi} "
          f"{eu:.1f} {100 * (wu - eu) / wu:.1f} {ei} "
          f"{'same' if len({r[4] for r in rows if r[0] == c}) == 1 else 'DIFFERENT'}")
PY
cat "$out/results.txt"
exit $status
