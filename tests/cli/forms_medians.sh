#!/bin/sh
# forms_medians.sh ROOT PYTHON3: tests/gpu/whatif/forms_medians.py, which cover_run.sh and
# flag_run.sh share, gives from each committed H100 run (docs/studies/data) exactly the results
# committed beside it; a config with a form missing is "incomplete"; a wrong command line exits 2.
# forms_common.sh's run_forms runs each config's forms 1 to 3 in turn with form_args' arguments,
# 'rounds' times, and records each run (a stand-in program here, which prints its arguments).
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
cat >prog <<'P'
#!/bin/sh
echo "$*" >>args
[ "$1" = 3 ] && [ "$2" = 9 ] && exit 1
echo "steady: $(($1 * 10 + $2)).5 us per iteration"
echo "checksum: $2"
P
chmod +x prog
bash -c 'here=$1 out=. configs="4:7 8:9" rounds=2
form_args() { echo "$3 $2 $1"; }
. "$here/forms_common.sh"
run_forms ./prog t' sh "$root/tests/gpu/whatif" >out 2>err
rc=$?
status run_forms 1
text args args "1 7 4
2 7 4
3 7 4
1 7 4
2 7 4
3 7 4
1 9 8
2 9 8
3 9 8
1 9 8
2 9 8
3 9 8"
text runs runs.txt "4:7 1 17.5 7
4:7 2 27.5 7
4:7 3 37.5 7
4:7 1 17.5 7
4:7 2 27.5 7
4:7 3 37.5 7
8:9 1 19.5 9
8:9 2 29.5 9
8:9 3 nan none
8:9 1 19.5 9
8:9 2 29.5 9
8:9 3 nan none"
text results out "t 4:7 17.500 27.500 -57.1 37.500 -114.3 same
t 8:9 incomplete"
exit $fail
