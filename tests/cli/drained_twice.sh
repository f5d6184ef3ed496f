#!/bin/sh
# drained_twice.sh SYNCSCOPE DATA_DIR: a function that two units define (two builds of it, as an
# '#ifdef' or a file compiled twice gives) answers for the drained walk of a third unit only as
# the weaker of its two definitions (-p; "Across units", docs/lint.md). sweep.cu's opening wait
# (line 14) follows refill(): a note with refill_waits.cu (its readback leaves the device
# drained), a warning with refill_queues.cu (it launches and returns) and a warning with both,
# in either order, from the cache too (exact output).
set -u
SS=$(realpath "$1") DATA=$(realpath "$2")/drained_twice HERE=$(dirname "$(realpath "$0")")
fail=0
. "$HERE/assert.sh"
. "$HERE/units.sh"
workspace "$DATA"

HEAD="src/sweep.cu:14:13: \$SEV: 'cudaDeviceSynchronize' in 'sweep' blocks the host on every iteration of a for loop (line 13) that also enqueues device work (kernel 'smooth' is launched at line 16): the GPU drains and idles while the host catches up"
N14="$(echo "$HEAD" | sed 's/\$SEV/note/'); drained: the device has nothing queued here: 'cudaDeviceSynchronize' at sweep.cu:17 drained it, and no work is queued between it and this call on any way the unit reaches it: the wait waits for nothing else (across units: 'refill()', defined in refill_waits.cu:4, ends with the device drained (by 'cudaMemcpy' at refill_waits.cu:7)) [SYNC401 sync-in-loop]"
W14="$(echo "$HEAD" | sed 's/\$SEV/warning/') [SYNC401 sync-in-loop]"

opening() {
    grep -E '^src/sweep\.cu:14:.*SYNC401' out >sync401
}

for units in "refill_waits.cu sweep.cu" "refill_queues.cu sweep.cu" \
    "refill_waits.cu refill_queues.cu sweep.cu" "refill_queues.cu sweep.cu refill_waits.cu"; do
    case $units in
    "refill_waits.cu sweep.cu") want=$N14 ;;
    *) want=$W14 ;;
    esac
    # shellcheck disable=SC2086
    database $units
    for run in "no cache, -j 1" "no cache, -j 2" "cold cache" "warm cache"; do
        lint_way "$run"
        status "$units, $run" 1
        opening
        text "$units, $run: SYNC401" sync401 "$want"
    done
    rm -rf cache
done
exit $fail
