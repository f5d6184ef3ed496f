#!/bin/sh
# options.sh SYNCSCOPE GEN_OPTIONS ROOT HAVE_LINT HAVE_RUN: the one option table of every
# subcommand (cli/options.def), with exact exit statuses, standard output and standard error:
# did-you-mean for subcommands, options and rules; --format=VALUE and formats in any case;
# -q, -v, --color and NO_COLOR, -o/--output; analyze taking the thresholds, attribution and
# latent notes its trace recorded; --root FROM=TO in analyze and report; the docs tables
# check of syncscope-gen-options.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
SS=$(realpath "$1") GEN=$(realpath "$2") ROOT=$(realpath "$3") HAVE_LINT=$4 HAVE_RUN=$5
DATA=$ROOT/tests/data
T=$DATA/gpu_sync301_scalar_readback.sstrace
WORK=$(cd "$(mktemp -d)" && pwd -P)
trap 'rm -rf "$WORK"' EXIT
cd "$WORK" || exit 1
unset NO_COLOR SYNCSCOPE_OUTPUT SYNCSCOPE_FORMAT SYNCSCOPE_TRACE SYNCSCOPE_QUIET LD_PRELOAD
# The interposer is never started for real here: no CUPTI, the programs run unobserved.
export SYNCSCOPE_CUPTI_PATH=$WORK/no-cupti
fail=0

. "$HERE/assert.sh"
# refused NAME MESSAGE ARGS...: exit 2, nothing on stdout, exactly MESSAGE on stderr.
refused() {
    name=$1 message=$2
    shift 2
    ss "$@"
    status "$name" 2
    text "$name: stdout" out ""
    text "$name: stderr" err "$message"
}
# same NAME FILE1 FILE2: the two files are identical.
same() {
    cmp -s "$2" "$3" || fails "$1" "$2 and $3 differ: $(diff "$2" "$3" | head -6)"
}
differ() {
    ! cmp -s "$2" "$3" || fails "$1" "$2 and $3 are the same"
}
E="syncscope: error:"
# formats COLUMN: the names of the formats of report/formats.def whose COLUMN (5 lint, 6 run,
# 7 analyze, 8 report) is 1, in the table's order: "text, json or sarif". A row's first line
# holds its columns; a row that does not is a failure here, not a shorter list.
formats() {
    awk -v col="$1" '
        /^SS_FORMAT\(/ {
            line = $0
            sub(/^SS_FORMAT\(/, "", line)
            n = split(line, f, /, */)
            if (n < 9 || f[col] !~ /^[01]$/) { bad = 1; next }
            if (f[col] == 1) { gsub(/"/, "", f[2]); names[++k] = f[2] }
        }
        END {
            if (bad || k == 0) { print "unreadable report/formats.def"; exit 1 }
            for (i = 1; i <= k; i++) printf "%s%s", (i == 1 ? "" : i == k ? " or " : ", "), names[i]
        }' "$ROOT/report/formats.def"
}
ANALYZE_FORMATS=$(formats 7)
# The lines -v prints for the recorded rows of detect/detect_options.def other than the three
# that $T recorded (min-blocked, readback-bytes, slack, checked by name below): each at its
# default, in the table's order after those three, with its option's long name (the row's
# SS_DETECT_REPLAY, or for SS_DETECT_REPLAY_SHARED the option's row of cli/options.def); each
# line starts with a line break. A row (which may span lines) whose option has no long name is
# a failure here, not a shorter list.
OTHER_RECORDED=$(awk -v t="$T" '
    FNR == NR && /^SS_OPTION\(/ {
        line = $0
        sub(/^SS_OPTION\(/, "", line)
        split(line, f, /, */)
        gsub(/"/, "", f[2])
        long[f[1]] = f[2]
        next
    }
    FNR == NR { next }
    /^SS_DETECT_RECORDED\(/ { row = ""; depth = 0; inrow = 1 }
    inrow {
        row = row " " $0
        bare = $0
        gsub(/"[^"]*"/, "", bare)
        depth += gsub(/\(/, "", bare) - gsub(/\)/, "", bare)
        if (depth > 0)
            next
        inrow = 0
        sub(/^ *SS_DETECT_RECORDED\( */, "", row)
        split(row, f, / *, */)
        id = f[5]
        sub(/^SS_DETECT_REPLAY(_SHARED)?\(/, "", id)
        sub(/\).*/, "", id)
        if (id == "MIN_BLOCKED_US" || id == "READBACK_BYTES" || id == "SLACK_US")
            next
        if (f[5] ~ /^SS_DETECT_REPLAY\(/) {
            name = f[6]
            gsub(/"/, "", name)
        } else if (id in long) {
            name = long[id]
        } else {
            print "no option row for " id
            exit 1
        }
        printf "\nsyncscope: %s: --%s %s (the default)", t, name, f[3]
    }' "$ROOT/cli/options.def" "$ROOT/detect/detect_options.def")

# ---- did you mean: subcommands, options, rules ----
refused "lnit" "$E unknown command 'lnit' (did you mean 'lint'?)" lnit
refused "anlyze" "$E unknown command 'anlyze' (did you mean 'analyze'?)" anlyze "$T"
"$SS" --help >help.txt
ss bogus
status "bogus" 2
printf '%s\n' "$E unknown command 'bogus'" | cat - help.txt >expected
same "bogus: the message, then the commands" err expected
refused "--formt" "$E unknown option '--formt' (did you mean '--format'?)" analyze --formt json "$T"
refused "--format=JSN" "$E unknown --format 'JSN' (did you mean 'json'?)" analyze --format=JSN "$T"
refused "--format=pdf" "$E unknown --format 'pdf' ($ANALYZE_FORMATS)" analyze --format=pdf "$T"
refused "-format" "$E unknown option '-format' (did you mean '--format'?)" analyze -format json "$T"
refused "--frobnicate" "$E unknown option '--frobnicate' (see syncscope analyze --help)" analyze --frobnicate "$T"
refused "--min-blocked" "$E unknown option '--min-blocked' (did you mean '--min-blocked-us'?)" analyze --min-blocked 5 "$T"
refused "-qx" "$E unknown option '-x' in '-qx' (see syncscope analyze --help)" analyze -qx "$T"
refused "--titel" "$E unknown option '--titel' (did you mean '--title'?)" report --titel x r.json
refused "--hlep" "$E unknown option '--hlep' (did you mean '--help'?)" rules --hlep
refused "--quite" "$E unknown option '--quite' (did you mean '--quiet'?)" run --quite -- true
refused "explain name" "$E unknown rule 'pagable-async-copy' (did you mean 'pageable-async-copy'?)" explain pagable-async-copy
refused "explain ID" "$E unknown rule 'SYNC2O1' (did you mean 'SYNC201'?)" explain SYNC2O1
refused "explain none near" "$E unknown rule 'NOPE' (syncscope rules lists them)" explain NOPE
refused "explain nothing" "$E explain needs a rule: an ID like SYNC201 or a name like pageable-async-copy (syncscope rules lists them)" explain
refused "--no-latent=1" "$E option '--no-latent' takes no value (got '1')" analyze --no-latent=1 "$T"
refused "-o" "$E option '-o' needs a value" analyze "$T" -o
if [ "$HAVE_LINT" = 1 ]; then
    refused "--disable" "$E --disable: unknown rule 'SYNC11' (did you mean 'SYNC101'?)" lint --disable SYNC11 a.cu
    refused "--severity" "$E --severity: unknown rule 'default-stream-lunch' (did you mean 'default-stream-launch'?)" lint --severity default-stream-lunch=note a.cu
    refused "--enable" "$E --enable: unknown rule 'SYNC999' (syncscope rules lists them)" lint --enable SYNC999 a.cu
    refused "lint --fix=1" "$E option '--fix' takes no value (got '1')" lint --fix=1 a.cu
fi

# ---- help: syncscope help COMMAND, and analyze's --format names html ----
for command in lint run analyze report rules explain; do
    "$SS" "$command" --help >"$command.help" 2>/dev/null
    ss help "$command"
    status "help $command" 0
    same "help $command" out "$command.help"
done
format_help=$(sed -n '/^  --format/,/^  -o,/p' analyze.help | sed '$d' | tr -s ' \n' '  ')
[ "$format_help" = " --format FORMAT the report's format, in any case; text by default ($ANALYZE_FORMATS) " ] ||
    fails "analyze --help" "its --format: '$format_help'"

# ---- --format=VALUE and --format VALUE, in any case ----
ss analyze --format json "$T"
status "--format json" 1
cp out json.txt
ss analyze --format=JSON "$T"
status "--format=JSON" 1
same "--format=JSON" out json.txt
ss analyze --format Json "$T"
same "--format Json" out json.txt
ss analyze --format sarif "$T"
cp out sarif.txt
ss analyze --format=SARIF "$T"
same "--format=SARIF" out sarif.txt
ss analyze --format html "$T"
status "--format html" 1
first "--format html" out '<!DOCTYPE html>'
ss report --format HTML -o page.html "$T"
status "report --format HTML" 0
refused "report --format=JSON" "$E report does not write json (it writes html)" report --format=JSON "$T"

# ---- -o and --output ----
ss analyze "$T"
cp out text.txt
ss analyze -o o1.txt "$T"
status "-o" 1
text "-o: stdout" out ""
same "-o" o1.txt text.txt
ss analyze --output=o2.txt "$T"
same "--output=" o2.txt text.txt
ss analyze -oo3.txt "$T"
same "-oFILE" o3.txt text.txt

# ---- -q, --quiet and -v, --verbose ----
ss analyze --fail-on none --fail-over 1ms "$T"
status "gate" 1
text "gate: the verdict" err "syncscope: gate: failed: findings do not fail it (--fail-on none); 1.02 ms blocked, over the budget of 1.00 ms"
ss analyze -q --fail-on none --fail-over 1ms "$T"
status "-q" 1
text "-q: no verdict" err ""
ss analyze --quiet --fail-on none --fail-over 1ms "$T"
text "--quiet: no verdict" err ""
ss analyze -v "$T"
status "-v" 1
# -v: each finding as by default, with its stream and every frame of its stack but the C
# library's start below main (14 of 29 recorded frames over the five findings).
grep -v '^  \(stream: \|at \)' out >v-brief.txt
same "-v: stdout, less the stacks and streams" v-brief.txt text.txt
grep -c '^  at ' out >n.txt
text "-v: frames" n.txt 14
grep -c '^  stream: stream 7$' out >n.txt
text "-v: streams" n.txt 3
grep -c '__libc_start_main\|^  at 0x' out >n.txt
text "-v: no C library start" n.txt 0
sed -n '4,6p' out | sed 's/ (.*//' >first.txt
text "-v: the first finding's" first.txt "  stream: stream 7
  at cudaMemcpy
  at main"
cp err v-err.txt
ss analyze --frames 1 "$T"
status "--frames 1" 1
grep '^  at ' out | sed 's/^  //; s/ (.*//' | sort | uniq -c | sed 's/^ *//' >n.txt
text "--frames 1: the innermost frame of each finding" n.txt "1 at cudaFree
1 at cudaFreeHost
3 at cudaMemcpy"
# Kernel names shortened unless --full-names (py_train_loop: three readbacks waited for the
# same elementwise kernel).
P=$DATA/py_train_loop.sstrace
ss analyze "$P"
grep -o "kernel 'at::native::vectorized_elementwise_kernel' on stream 7" out | uniq -c |
    sed 's/^ *//' >n.txt
text "short kernel names" n.txt "3 kernel 'at::native::vectorized_elementwise_kernel' on stream 7"
ss analyze --full-names "$P"
grep -o "kernel 'void at::native::vectorized_elementwise_kernel<4, at::native::compare_scalar_kernel<float>(" out |
    uniq -c | sed 's/^ *//' >n.txt
text "--full-names" n.txt "3 kernel 'void at::native::vectorized_elementwise_kernel<4, at::native::compare_scalar_kernel<float>("
# A trace recorded on a GPU names it, its driver and CUDA: the JSON carries them.
ss analyze --format json "$DATA/gpu_device_metadata.sstrace"
status "metadata: json" 1
grep -o '"\(gpu\|driver\|cuda\|cudaRuntime\)":[^,]*' out >meta.txt
text "metadata: the run's GPU, driver and CUDA" meta.txt '"gpu":	"NVIDIA H200"
"driver":	"580.159.04"
"cuda":	"13.0"
"cudaRuntime":	"13.0"'
mv v-err.txt err
text "-v: the settings" err "syncscope: $T: --min-blocked-us 5 (recorded in the trace)
syncscope: $T: --readback-bytes 16 (recorded in the trace)
syncscope: $T: --slack-us 5 (recorded in the trace)$OTHER_RECORDED
syncscope: $T: --attribute-to (none) (the default)
syncscope: $T: latent notes on (the default)
syncscope: $T: --profile-from-start on (the default)
syncscope: $T: --nvtx-range '' (any) (the default)"
ss analyze -qv --min-blocked-us 50 --no-latent --attribute-to src --nvtx-range step --profile-from-start OFF "$T"
text "-qv with options" err "syncscope: $T: --min-blocked-us 50 (the command line; the trace recorded 5)
syncscope: $T: --readback-bytes 16 (recorded in the trace)
syncscope: $T: --slack-us 5 (recorded in the trace)$OTHER_RECORDED
syncscope: $T: --attribute-to $WORK/src (the command line)
syncscope: $T: latent notes off (the command line)
syncscope: $T: --profile-from-start off (the command line)
syncscope: $T: --nvtx-range step (the command line)"
ss report -v -o page.html "$T"
status "report -v" 0
text "report -v" err "syncscope: $T: --min-blocked-us 5 (recorded in the trace)
syncscope: $T: --readback-bytes 16 (recorded in the trace)
syncscope: $T: --slack-us 5 (recorded in the trace)$OTHER_RECORDED
syncscope: $T: --attribute-to (none) (the default)
syncscope: $T: latent notes on (the default)
syncscope: $T: --profile-from-start on (the default)
syncscope: $T: --nvtx-range '' (any) (the default)"
"$SS" analyze --format json -o run.json "$T"
cp "$T" run.sstrace
ss report --verbose -q -o page.html run.json
status "report -v, a JSON and its trace" 0
text "report -v, a JSON and its trace" err "syncscope: run.json: timeline from run.sstrace"

# ---- --color and NO_COLOR (a terminal is tested in check_cli) ----
esc=$(printf '\033')
ss analyze --color=always "$T"
cp out color.txt
grep -q "$esc\\[" color.txt || fails "--color=always" "no colour"
NO_COLOR=1 "$SS" analyze --color always "$T" >out 2>err
same "--color always beats NO_COLOR" out color.txt
ss analyze --color=NEVER "$T"
same "--color=NEVER" out text.txt
ss analyze --color auto "$T"
same "--color auto, not a terminal" out text.txt
refused "--color sometimes" "$E unknown --color 'sometimes' (auto, always or never)" analyze --color sometimes "$T"

# ---- analyze takes the settings its trace recorded ----
grep -v '^meta min_blocked_ns ' "$T" | sed '2i meta min_blocked_ns 1000000' >slow.sstrace
ss analyze slow.sstrace
status "recorded min_blocked_ns" 0
cp out slow.txt
ss analyze --min-blocked-us 1000 "$T"
same "recorded min_blocked_ns: as --min-blocked-us 1000" slow.txt out
last "recorded min_blocked_ns: the summary" slow.txt '5 notes generated.'
ss analyze --min-blocked-us 5 slow.sstrace
same "--min-blocked-us replaces the recorded one" out text.txt
sed '2i meta latent 0' "$T" >nolatent.sstrace
ss analyze nolatent.sstrace
cp out nolatent.txt
ss analyze --no-latent "$T"
same "recorded latent 0: as --no-latent" nolatent.txt out
last "recorded latent 0: the summary" nolatent.txt '1 warning generated.'
src=/work/main/tests/gpu/sync301_scalar_readback.cu
sed "2i meta attribute_to $src" "$T" >attributed.sstrace
ss analyze attributed.sstrace
cp out attributed.txt
ss analyze --attribute-to "$src" "$T"
same "recorded attribute_to: as --attribute-to" attributed.txt out
differ "recorded attribute_to changes the lines" attributed.txt text.txt

# ---- --root FROM=TO ----
mkdir -p co/tests/gpu
ss analyze --root /work/main="$WORK/co" --format json "$T"
status "analyze --root FROM=TO" 1
[ "$(grep -c '"file":	"/work/main/' out)" = 0 ] || fails "analyze --root" "paths left under FROM"
[ "$(grep -c "\"file\":	\"$WORK/co/tests/gpu/" out)" = 14 ] || fails "analyze --root" "$(grep -c '"file":	"' out) files, expected 14 under $WORK/co/tests/gpu"
ss analyze --root /work/main/="$WORK/co/" --format sarif "$T"
[ "$(grep -c '"uri":	"tests/gpu/' out)" = 23 ] || fails "analyze --root: SARIF" "$(grep -c '"uri":	"tests/gpu/' out) relative URIs, expected 23"
[ "$(grep -c '/work/main/tests' out)" = 0 ] || fails "analyze --root: SARIF" "paths left under FROM"
ss analyze --root /work/main="$WORK/co" --attribute-to "$WORK/co/tests/gpu/sync301_scalar_readback.cu" "$T"
sed "s|/work/main/tests/gpu/|$WORK/co/tests/gpu/|g" attributed.txt >expected
same "--attribute-to under TO matches the frames under FROM" out expected
refused "--root =x" "$E --root needs a folder, or FROM=TO (got '=x')" analyze --root =x "$T"
awk '{ print (NR == 18 ? "    marker_only_in_the_checkout(counter);" : $0) }' "$ROOT/tests/gpu/sync301_scalar_readback.cu" >co/tests/gpu/sync301_scalar_readback.cu
ss report --root /work/main="$WORK/co" -o mapped.html "$T"
status "report --root FROM=TO" 0
grep -q marker_only_in_the_checkout mapped.html || fails "report --root FROM=TO" "no excerpt from the checkout"
ss report --root "$WORK/co" -o unmapped.html "$T"
! grep -q marker_only_in_the_checkout unmapped.html || fails "report --root DIR" "an excerpt from outside the recorded path"
refused "report --root FROM=missing" "$E --root 'missing': No such file or directory" report --root /work/main=missing "$T"

# ---- lint: the same options ----
if [ "$HAVE_LINT" = 1 ]; then
    CLEAN=$ROOT/tests/lint/clean.cu
    "$SS" lint --cuda-path=none --no-cache --format sarif "$CLEAN" >sarif.expected 2>/dev/null
    ss lint --cuda-path=none --no-cache --format=SARIF "$CLEAN"
    status "lint --format=SARIF" 0
    same "lint --format=SARIF" out sarif.expected
    ss lint --cuda-path=none --no-cache --output=lint.sarif --format Sarif "$CLEAN"
    same "lint --output=" lint.sarif sarif.expected
    mkdir proj
    cp "$CLEAN" proj/a.cu
    echo 'int broken = ;' >proj/broken.cu
    ss lint --keep-going --cuda-path=none --no-cache proj
    status "lint: file counts" 0
    text "lint: file counts" err "syncscope: 2 files, 2 analyzed, 1 with errors
syncscope:   proj/broken.cu: first error: proj/broken.cu:1:14: expected expression"
    ss lint -q --keep-going --cuda-path=none --no-cache proj
    status "lint -q" 0
    text "lint -q" err ""
    "$SS" lint --verbose --cuda-path=none --no-cache proj >/dev/null 2>verbose.txt
    "$SS" lint -v --cuda-path=none --no-cache proj >/dev/null 2>v.txt
    same "lint -v" v.txt verbose.txt
    # After "--", a file named like an option is linted, not obeyed; an option there is a
    # file that is not found, and the message says why.
    cp "$CLEAN" ./--output=victim.cu
    ss lint --cuda-path=none --no-cache -- --output=victim.cu
    status "lint -- --output=victim.cu" 0
    text "lint -- --output=victim.cu: stdout" out "1 file, 0 findings"
    [ ! -e victim.cu ] || fails "lint -- --output=victim.cu" "victim.cu was written"
    refused "lint -- -p build" "$E cannot read '-p': No such file or directory
syncscope: '-p' came after '--', which ends the options: it was read as a file; options go before '--'" \
        lint --cuda-path=none --no-cache -- -p build ./--output=victim.cu
fi

# ---- run: -v says what is set; values in any case ----
if [ "$HAVE_RUN" = 1 ]; then
    ss run -qv --format JSON --min-blocked-us 10 -- true
    status "run -qv" 0
    head -4 err >err4
    text "run -qv" err4 "$(printf '%s\n' "syncscope: SYNCSCOPE_QUIET=1" "syncscope: SYNCSCOPE_FORMAT=json" "syncscope: SYNCSCOPE_MIN_BLOCKED_US=10" "syncscope: LD_PRELOAD=$(sed -n 's/^syncscope: LD_PRELOAD=//p' err)")"
    grep -q '^syncscope: LD_PRELOAD=/.*/libsyncscope.so$' err || fails "run -v" "no LD_PRELOAD line: $(cat err)"
    # The light mode's runtime wrappers, a measurement aid: preloaded after the interposer for
    # the program when SYNCSCOPE_LIGHT_PROBE names them and the build left them beside it.
    wrappers=$(sed -n 's/^syncscope: LD_PRELOAD=\(.*\)\/libsyncscope.so$/\1/p' err)/libsyncscope_cudart.so
    if [ -r "$wrappers" ]; then
        SYNCSCOPE_LIGHT_PROBE=Wrap ss run -v -- true
        grep -qx "syncscope: LD_PRELOAD=.*/libsyncscope.so:$wrappers" err ||
            fails "run -v, probe wrap" "no wrappers in LD_PRELOAD: $(cat err)"
        SYNCSCOPE_LIGHT_PROBE=noop ss run -v -- true
        grep -q '^syncscope: LD_PRELOAD=/.*/libsyncscope.so$' err ||
            fails "run -v, probe noop" "LD_PRELOAD: $(cat err)"
    fi
    refused "run --format=xml" "$E unknown --format 'xml' (did you mean 'html'?)" run --format=xml -- true
fi

# ---- the docs tables are the table's (syncscope-gen-options --check) ----
mkdir docs
cp "$ROOT"/docs/*.md docs/
"$GEN" --check docs >out 2>err
rc=$?
status "gen-options --check" 0
sed -i 's/^| `--no-trace` | draw no timeline |$/| `--no-trace` | no timeline |/' docs/report.md
"$GEN" --check docs >out 2>err
rc=$?
status "gen-options --check, a table edited" 1
text "gen-options --check, a table edited" err "$E docs/report.md: an options table differs from cli/options.def: run cmake --build BUILD --target cli-docs"
"$GEN" docs >out 2>err
cmp -s docs/report.md "$ROOT/docs/report.md" || fails "gen-options" "docs/report.md not written back as it was"

[ "$fail" = 0 ] && echo "options: every check passed"
exit $fail
