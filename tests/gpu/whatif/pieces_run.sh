#!/bin/bash
# pieces_run.sh: pieces_pair.cu on a GPU: a batch moved once in pieces from pageable vectors (as
# written) against the rewrite the old warning asked for (each piece pinned and copied
# asynchronously) and a program that makes its data in pinned memory from the start, in
# interleaved runs, each a fresh process (a one-time transfer is paid once a process).
# Usage: tests/gpu/whatif/pieces_run.sh OUT_DIR   (on a machine with a GPU and nvcc)
# Environment: PIECES_CONFIGS (default "8:16:64 8:64:64 32:4:64 2:256:64": pieces:MiB a
#   piece:compute rounds), PIECES_ROUNDS (7), WHATIF_ARCH (sm_90).
# OUT_DIR gets runs.txt (one line a run: config form transfer_us total_us checksum) and
#   results.txt: "pieces CONFIG written_us pinned_us pinned_saving_pct made_pinned_us
#   made_pinned_saving_pct same|DIFFERENT" (medians of the transfer phase over the rounds; a
#   negative saving: the rewrite is slower; the last word: whether the checksums agree).
# Exit status: 0, 1 when a run failed, 2 on usage.
set -u
if [ "$#" -ne 1 ]; then
    sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//' >&2
    exit 2
fi
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$1" || exit 2
out=$(cd "$1" && pwd)
configs=${PIECES_CONFIGS:-"8:16:64 8:64:64 32:4:64 2:256:64"}
rounds=${PIECES_ROUNDS:-7}
nvcc -O2 -arch="${WHATIF_ARCH:-sm_90}" -o "$out/pieces_pair" "$here/pieces_pair.cu" || exit 1
status=0
: >"$out/runs.txt"
for c in $configs; do
    IFS=: read -r p mib r <<<"$c"
    for k in $(seq "$rounds"); do
        for form in 1 2 3; do
            line=$("$out/pieces_pair" "$form" "$p" "$mib" "$r" | grep '^pieces:') || status=1
            # pieces: <us> us transfer, <us> us total, checksum <value>
            echo "$c $form $(echo "$line" | awk '{print $2, $5, $9}')" >>"$out/runs.txt"
        done
    done
done
python3 - "$out/runs.txt" >"$out/results.txt" <<'PY' || status=1
import statistics
import sys

runs = {}
sums = {}
for line in open(sys.argv[1]):
    w = line.split()
    if len(w) < 5:
        continue
    runs.setdefault((w[0], w[1]), []).append(float(w[2]))
    sums.setdefault(w[0], set()).add(w[4])
for config in dict.fromkeys(c for c, _ in runs):
    med = {f: statistics.median(runs[(config, f)]) for f in "123" if (config, f) in runs}
    if len(med) < 3:
        continue
    saving = lambda f: 100.0 * (med["1"] - med[f]) / med["1"]
    same = "same" if len(sums[config]) == 1 else "DIFFERENT"
    print("pieces %s %.0f %.0f %.1f %.0f %.1f %s"
          % (config, med["1"], med["2"], saving("2"), med["3"], saving("3"), same))
PY
cat "$out/results.txt"
exit $status
