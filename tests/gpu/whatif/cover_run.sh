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
# cover_pair FORM ITERATIONS WARM-UP ROUNDS KIB, for a config KIB:ROUNDS
form_args() { echo "$3 $iterations 20 $2 $1"; }
. "$here/forms_common.sh"
run_forms "$out/cover_pair" cover
