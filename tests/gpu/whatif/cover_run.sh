#!/bin/bash
# cover_run.sh: cover_pair.cu on a GPU: a wait right before a free that waits for the whole device
# anyway (FORM 1, as written), without the wait (FORM 2, the old warning's rewrite) and with the
# buffer kept across iterations (FORM 3, the free's own finding's rewrite), in interleaved runs.
# Usage: tests/gpu/whatif/cover_run.sh OUT_DIR   (on a machine with a GPU and nvcc)
# Environment: COVER_CONFIGS (default "64:256 1024:256 1024:4096 16384:1024": KiB of scratch:
#   kernel rounds), COVER_ROUNDS (7), COVER_ITERATIONS (200), WHATIF_ARCH (sm_90).
# OUT_DIR gets runs.txt (one line a run: config form us_per_iteration checksum) and results.txt:
#   "cover CONFIG written_us no_wait_us no_wait_saving_pct kept_us kept_saving_pct same|DIFFERENT"
#   (medians over the rounds; the last word: whether the checksums agree).
# Exit status: 0, 1 when a run failed, 2 on usage.
set -u
if [ "$#" -ne 1 ]; then
    sed -n '2,11p' "$0" | sed 's/^# \{0,1\}//' >&2
    exit 2
fi
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$1" || exit 2
out=$(cd "$1" && pwd)
configs=${COVER_CONFIGS:-"64:256 1024:256 1024:4096 16384:1024"}
rounds=${COVER_ROUNDS:-7}
iterations=${COVER_ITERATIONS:-200}
nvcc -O2 -arch="${WHATIF_ARCH:-sm_90}" -o "$out/cover_pair" "$here/cover_pair.cu" || exit 1
status=0
: >"$out/runs.txt"
for c in $configs; do
    IFS=: read -r kib r <<<"$c"
    for k in $(seq "$rounds"); do
        for form in 1 2 3; do
            text=$("$out/cover_pair" "$form" "$iterations" 20 "$r" "$kib") || status=1
            us=$(echo "$text" | awk '/^steady:/ {print $2}')
            sum=$(echo "$text" | awk '/^checksum:/ {print $2}')
            echo "$c $form ${us:-nan} ${sum:-none}" >>"$out/runs.txt"
        done
    done
done
python3 "$here/forms_medians.py" cover "$out/runs.txt" >"$out/results.txt" || status=1
cat "$out/results.txt"
exit $status
