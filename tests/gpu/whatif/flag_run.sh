#!/bin/bash
# flag_run.sh: flag_pair.cu on a GPU: a launch helper's wait that the loop's flag readback makes
# again (FORM 1, as written), without the wait (FORM 2, the old SYNC401 warning's rewrite) and with
# the flag read every 8th iteration (FORM 3, the SYNC202/SYNC301 note's rewrite), in interleaved
# runs.
# Usage: tests/gpu/whatif/flag_run.sh OUT_DIR   (on a machine with a GPU and nvcc)
# Environment: FLAG_CONFIGS (default "64:16 1024:256 1024:4096 16384:1024": KiB of buffer:kernel
#   rounds), FLAG_ROUNDS (7), FLAG_TARGET (64 iterations a run), FLAG_REPEATS (20 runs timed after
#   3 warm-up runs), WHATIF_ARCH (sm_90).
# OUT_DIR gets runs.txt (one line a run: config form us_per_iteration checksum) and results.txt:
#   "flag CONFIG written_us no_wait_us no_wait_saving_pct every8_us every8_saving_pct same|DIFFERENT"
#   (medians over the rounds; the last word: whether the checksums agree).
# Exit status: 0, 1 when a run failed, 2 on usage.
set -u
if [ "$#" -ne 1 ]; then
    sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//' >&2
    exit 2
fi
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$1" || exit 2
out=$(cd "$1" && pwd)
configs=${FLAG_CONFIGS:-"64:16 1024:256 1024:4096 16384:1024"}
rounds=${FLAG_ROUNDS:-7}
target=${FLAG_TARGET:-64}
repeats=${FLAG_REPEATS:-20}
nvcc -O2 -arch="${WHATIF_ARCH:-sm_90}" -o "$out/flag_pair" "$here/flag_pair.cu" || exit 1
# flag_pair FORM TARGET REPEATS WARM-UP ROUNDS KIB, for a config KIB:ROUNDS
form_args() { echo "$3 $target $repeats 3 $2 $1"; }
. "$here/forms_common.sh"
run_forms "$out/flag_pair" flag
