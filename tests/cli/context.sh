#!/bin/sh
# context.sh SYNCSCOPE DATA_DIR: a finding's severity from its context and what the report
# keeps of it (docs/lint.md, "Warning or note"), exactly: a readback in a function main calls
# once is a note, a synchronization on every iteration of a loop that launches a warning;
# hot-functions in .syncscope.yml makes the first a warning; --min-severity (and
# min-severity:) leaves the notes out, also of SARIF, whose level follows the severity; the
# exit status follows what is left; a mistyped level is refused; --dump-config shows both keys;
# warm-up rounds with a constant count are a note, and a warning in a function marked hot.
set -u
SS=$(realpath "$1") DATA=$(realpath "$2") HERE=$(dirname "$(realpath "$0")")
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
cd "$WORK" || exit 1
fail=0
. "$HERE/assert.sh"
lint() { # args...: stdout to out, stderr to err, status in $rc
    "$SS" lint --no-cache --cuda-path=none --color=never "$@" >out 2>err
    rc=$?
}
# levels NAME EXPECTED: the "file:line:col: level: ... [RULE" of each finding in out.
levels() {
    grep -oE '^context\.cu:[0-9]+:[0-9]+: (note|warning|error): .*\[SYNC[0-9]+' out |
        sed -E 's/: (note|warning|error): .*\[/: \1 [/' >levels
    text "$1" levels "$2"
}

cp "$DATA/context.cu" context.cu
lint context.cu
status "default" 1
levels "default" "context.cu:9:5: note [SYNC301
context.cu:19:9: note [SYNC101
context.cu:20:9: warning [SYNC401"
grep -qF "; it runs once: outside any loop, and 'process' is called once, from 'main' [SYNC301" out ||
    fails "once" "the message does not say why it runs once"

lint --min-severity warning context.cu
status "--min-severity warning" 1
levels "--min-severity warning" "context.cu:20:9: warning [SYNC401"
lint --min-severity Error context.cu
status "--min-severity error" 0
text "--min-severity error" out "1 file, 0 findings"

printf 'hot-functions:\n  - "proc*"\n' >.syncscope.yml
lint context.cu
status "hot-functions" 1
levels "hot-functions" "context.cu:9:5: warning [SYNC301
context.cu:19:9: note [SYNC101
context.cu:20:9: warning [SYNC401"
grep -qF "; 'process' is marked hot in the configuration (hot-functions) [SYNC301" out ||
    fails "hot-functions" "the message does not say the function is marked hot"

printf 'hot-functions: [process]\nmin-severity: warning\n' >.syncscope.yml
"$SS" lint --no-cache --cuda-path=none --format sarif context.cu >out.sarif 2>err
rc=$?
status "sarif" 1
# The results' rule and level (the rules' own defaultConfiguration levels come before them).
sed -n '/"results"/,$p' out.sarif | grep -oE '"(ruleId|level)":[[:space:]]*"[A-Za-z0-9]+"' |
    tr -d ' \t' | paste -d' ' - - >sarif.levels
text "sarif levels" sarif.levels '"ruleId":"SYNC301" "level":"warning"
"ruleId":"SYNC401" "level":"warning"'
lint --dump-config context.cu
status "--dump-config" 0
grep -E '^(min-severity|hot-functions)|^  - "process"' out >dumped
text "--dump-config" dumped 'min-severity: warning
hot-functions:
  - "process"'

rm .syncscope.yml
lint --min-severity eror context.cu
status "--min-severity eror" 2
text "--min-severity eror" err "syncscope: error: --min-severity: min-severity must be note, warning or error (got 'eror'; did you mean 'error'?)"
printf 'min-severity: none\n' >.syncscope.yml
lint context.cu
status "min-severity: none" 2
printf 'hot-functions: process\n' >.syncscope.yml
lint context.cu
status "hot-functions not a list" 2
rm .syncscope.yml

# Warm-up rounds with a constant count beside the loop that repeats: a note (bounded), unless
# hot-functions names the function.
cp "$DATA/context_warm_up.cu" context_warm_up.cu
warm_levels() { # NAME EXPECTED: the SYNC401 findings' places and levels
    grep -oE '^context_warm_up\.cu:[0-9]+:[0-9]+: (note|warning|error): .*\[SYNC401' out |
        sed -E 's/: (note|warning|error): .*\[/: \1 [/' >levels
    text "$1" levels "$2"
}
lint context_warm_up.cu
status "warm-up" 1
warm_levels "warm-up" "context_warm_up.cu:18:9: note [SYNC401
context_warm_up.cu:22:9: warning [SYNC401"
grep -qF "; bounded: the loop at line 16 runs at most 4 times (a constant count), outside any other loop, beside the loop at line 20, whose count is not bounded; and 'main' runs once [SYNC401" out ||
    fails "warm-up" "the message does not say why the rounds are bounded"
printf 'hot-functions: [main]\n' >.syncscope.yml
lint context_warm_up.cu
status "warm-up, hot-functions" 1
warm_levels "warm-up, hot-functions" "context_warm_up.cu:18:9: warning [SYNC401
context_warm_up.cu:22:9: warning [SYNC401"
exit $fail
