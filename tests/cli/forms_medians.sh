#!/bin/sh
# forms_medians.sh ROOT PYTHON3: tests/gpu/whatif/forms_medians.py, which cover_run.sh and
# flag_run.sh share, gives from each committed H100 run (docs/studies/data) exactly the results
# committed beside it; a config with a form missing is "incomplete"; a wrong command line exits 2.
root=$1 py=$2
WORK=$(mktemp -d) || exit 1
trap 'rm -rf "$WORK"' EXIT
cd "$WORK" || exit 1
fail=0
. "$root/tests/cli/assert.sh"
medians=$root/tests/gpu/whatif/forms_medians.py
data=$root/docs/studies/data
for label in cover flag; do
    "$py" "$medians" "$label" "$data/2026-12-07-$label-h100-runs.txt" >out 2>err
    rc=$?
    status "$label" 0
    text "$label" out "$(cat "$data/2026-12-07-$label-h100-results.txt")"
done
printf '8:1 1 10.0 a\n8:1 2 9.0 a\n8:1 3 nan none\n4:2 1 20.0 b\n4:2 2 15.0 b\n4:2 3 5.0 c\n' >runs
"$py" "$medians" x runs >out 2>err
rc=$?
status partial 0
text partial out "x 8:1 incomplete
x 4:2 20.000 15.000 25.0 5.000 75.0 DIFFERENT"
"$py" "$medians" x >out 2>err
rc=$?
status usage 2
exit $fail
