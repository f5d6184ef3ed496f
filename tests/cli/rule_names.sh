#!/bin/sh
# rule_names.sh SYNCSCOPE: every place `syncscope lint` reads a rule or a level from the user,
# with exact exit statuses and messages: --enable, --disable, --severity RULE=LEVEL and
# --fail-on on the command line, the rules, severities and fail-on of .syncscope.yml, and the
# rules named in suppression comments. Rule IDs, rule names and levels are accepted in any
# case; an unknown one names the nearest ("did you mean") when one is near, else where the
# words are listed. The command line and .syncscope.yml refuse with exit status 2; a
# suppression comment is warned about and lint goes on (the warning never fails it).
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
SS=$(realpath "$1")
WORK=$(cd "$(mktemp -d)" && pwd -P)
trap 'rm -rf "$WORK"' EXIT
cd "$WORK" || exit 1
unset NO_COLOR SYNCSCOPE_OUTPUT SYNCSCOPE_FORMAT
fail=0
E="syncscope: error:"

# lint DIR ARGS...: lints DIR/k.cu from DIR; the status in $rc, the outputs in $WORK/out and
# $WORK/err.
lint() {
    dir=$1
    shift
    (cd "$WORK/$dir" && "$SS" lint --no-cache --cuda-path=none --color=never "$@" k.cu \
        >"$WORK/out" 2>"$WORK/err")
    rc=$?
}
. "$HERE/assert.sh"
# refused NAME DIR MESSAGE ARGS...: exit 2, nothing on stdout, exactly MESSAGE on stderr.
refused() {
    name=$1 dir=$2 message=$3
    shift 3
    lint "$dir" "$@"
    status "$name" 2
    text "$name: stdout" "$WORK/out" ""
    text "$name: stderr" "$WORK/err" "$message"
}
# accepted NAME DIR WANT ARGS...: exit WANT, nothing on stderr.
accepted() {
    name=$1 dir=$2 want=$3
    shift 3
    lint "$dir" "$@"
    status "$name" "$want"
    text "$name: stderr" "$WORK/err" ""
}
# warned NAME DIR LINE ARGS...: the first line of stdout is exactly LINE.
warned() {
    name=$1 dir=$2 line=$3
    shift 3
    lint "$dir" "$@"
    [ "$(head -1 "$WORK/out")" = "$line" ] ||
        fails "$name" "the first line of stdout is '$(head -1 "$WORK/out")', expected '$line'"
}
# put_source DIR COMMENT: DIR/k.cu, one default-stream launch (SYNC101) on line 2 followed by
# COMMENT.
put_source() {
    mkdir -p "$WORK/$1"
    printf '__global__ void k() {}\nvoid f() { k<<<1, 1>>>(); } %s\n' "$2" >"$WORK/$1/k.cu"
}
# config DIR TEXT: DIR/.syncscope.yml holds TEXT (printf format) and DIR/k.cu a launch.
config() {
    put_source "$1" ""
    printf "$2" >"$WORK/$1/.syncscope.yml"
}

# ---- the command line: --enable, --disable, --severity, --fail-on ----
# SYNC101 is pinned to a note; the launch fails --fail-on note unless the rule is disabled.
put_source cli ""
P="--severity SYNC101=note"
accepted "finding" cli 1 $P --fail-on note
accepted "--disable name, other case" cli 0 $P --fail-on note --disable Default-Stream-Launch
accepted "--disable ID, lower case" cli 0 $P --fail-on note --disable sync101
accepted "--enable name, other case" cli 1 $P --fail-on note --enable Sync-In-Loop
refused "--disable close ID" cli "$E --disable: unknown rule 'SYNC110' (did you mean 'SYNC101'?)" \
    --disable SYNC110
refused "--disable close, lower case" cli "$E --disable: unknown rule 'sync10' (did you mean 'SYNC101'?)" \
    --disable sync10
refused "--enable close name" cli "$E --enable: unknown rule 'sync-in-lop' (did you mean 'sync-in-loop'?)" \
    --enable sync-in-lop
refused "--enable far" cli "$E --enable: unknown rule 'legacy-default-stream' (syncscope rules lists them)" \
    --enable legacy-default-stream
refused "--severity close ID" cli "$E --severity: unknown rule 'SYNC310' (did you mean 'SYNC301'?)" \
    --severity SYNC310=error
refused "--severity far" cli "$E --severity: unknown rule 'SYNC999' (syncscope rules lists them)" \
    --severity SYNC999=error
accepted "--severity Warning" cli 1 --severity SYNC101=Warning --fail-on warning
accepted "--severity name=ERROR" cli 1 --severity Default-Stream-Launch=ERROR --fail-on error
refused "--severity close level" cli \
    "$E --severity: severity must be note, warning or error (got 'warnig'; did you mean 'warning'?)" \
    --severity SYNC101=warnig
refused "--severity close level, other case" cli \
    "$E --severity: severity must be note, warning or error (got 'EROR'; did you mean 'error'?)" \
    --severity scalar-readback=EROR
refused "--severity far level" cli "$E --severity: severity must be note, warning or error (got 'loud')" \
    --severity SYNC101=loud
accepted "--fail-on NOTE" cli 1 $P --fail-on NOTE
accepted "--fail-on ERROR" cli 0 $P --fail-on ERROR
refused "--fail-on close" cli "$E unknown --fail-on 'eror' (did you mean 'error'?)" --fail-on eror
refused "--fail-on close, other case" cli "$E unknown --fail-on 'Warnig' (did you mean 'warning'?)" \
    --fail-on Warnig
refused "--fail-on far" cli "$E unknown --fail-on 'sometimes' (note, warning, error or none)" \
    --fail-on sometimes

# ---- .syncscope.yml: rules, severities, fail-on ----
config c1 'fail-on: error\nrules:\n  SYNC102: off\n  SYNC310: off\n'
refused "config close ID" c1 "$E $WORK/c1/.syncscope.yml:4:3: unknown rule 'SYNC310' in 'rules' (did you mean 'SYNC301'?)"
config c2 'rules:\n  default-stream-lunch: off\n'
refused "config close name" c2 "$E $WORK/c2/.syncscope.yml:2:3: unknown rule 'default-stream-lunch' in 'rules' (did you mean 'default-stream-launch'?)"
config c3 'rules:\n  sync4o2: off\n'
refused "config close, lower case" c3 "$E $WORK/c3/.syncscope.yml:2:3: unknown rule 'sync4o2' in 'rules' (did you mean 'SYNC402'?)"
config c4 'rules:\n  legacy-default-stream: off\n'
refused "config far" c4 "$E $WORK/c4/.syncscope.yml:2:3: unknown rule 'legacy-default-stream' in 'rules' (syncscope rules lists them)"
config c5 'fail-on: Note\nrules:\n  Default-Stream-Launch: off\n'
accepted "config name, other case" c5 0
config c6 'fail-on: NOTE\nrules:\n  sync101: {severity: Note}\n'
accepted "config levels, any case" c6 1
config c7 'fail-on: ERROR\nrules:\n  SYNC101: Warning\n'
accepted "config fail-on ERROR" c7 0
config c8 'rules:\n  SYNC101:\n    severity: Eror\n'
refused "config close severity" c8 "$E $WORK/c8/.syncscope.yml:3:15: 'severity' must be note, warning or error (got 'Eror'; did you mean 'error'?)"
config c9 'rules:\n  SYNC101: warnig\n'
refused "config close rule value" c9 "$E $WORK/c9/.syncscope.yml:2:12: rule 'SYNC101' must be true, false, a severity (note, warning, error) or a mapping with 'enabled' and 'severity' (got 'warnig'; did you mean 'warning'?)"
config c10 'fail-on: eror\n'
refused "config close fail-on" c10 "$E $WORK/c10/.syncscope.yml:1:10: 'fail-on' must be note, warning, error or none (got 'eror'; did you mean 'error'?)"
config c11 'fail-on: sometimes\n'
refused "config far fail-on" c11 "$E $WORK/c11/.syncscope.yml:1:10: 'fail-on' must be note, warning, error or none (got 'sometimes')"
config c12 'rules:\n  SYNC101: loud\n'
refused "config far rule value" c12 "$E $WORK/c12/.syncscope.yml:2:12: rule 'SYNC101' must be true, false, a severity (note, warning, error) or a mapping with 'enabled' and 'severity' (got 'loud')"
# The command line is read before the files: its refusal comes first.
refused "command line first" c1 "$E --disable: unknown rule 'SYNC110' (did you mean 'SYNC101'?)" \
    --disable SYNC110

# ---- suppression comments: a warning with the file, line and column; lint goes on ----
put_source s1 "// syncscope-ignore: SYNC110"
warned "comment close ID" s1 "k.cu:2:50: warning: unknown rule 'SYNC110' in syncscope-ignore comment (did you mean 'SYNC101'?)" $P
accepted "comment close ID: not a failure" s1 0 $P --fail-on warning
accepted "comment close ID: suppresses nothing" s1 1 $P --fail-on note
put_source s2 "// NOLINT(syncscope-default-stream-lunch)"
warned "comment close name" s2 "k.cu:2:39: warning: unknown rule 'default-stream-lunch' in NOLINT comment (did you mean 'default-stream-launch'?)" $P
accepted "comment close name: suppresses nothing" s2 1 $P --fail-on note
put_source s3 "/* syncscope-ignore: sync-in-lop, SYNC101 */"
warned "comment close, beside a known one" s3 "k.cu:2:50: warning: unknown rule 'sync-in-lop' in syncscope-ignore comment (did you mean 'sync-in-loop'?)" $P
accepted "comment: the known one suppresses" s3 0 $P --fail-on note
put_source s4 "// syncscope-ignore: legacy-default-stream"
warned "comment far" s4 "k.cu:2:50: warning: unknown rule 'legacy-default-stream' in syncscope-ignore comment (syncscope rules lists them)" $P
put_source s6 "// syncscope-ingore: SYNC101"
warned "comment close directive" s6 "k.cu:2:32: warning: unknown suppression 'syncscope-ingore' (did you mean 'syncscope-ignore'?)" $P
accepted "comment close directive: suppresses nothing" s6 1 $P --fail-on note
put_source s5 "// NOLINT(syncscope-Default-Stream-Launch)"
lint s5 $P --fail-on note
status "comment name, other case" 0
text "comment name, other case: stdout" "$WORK/out" "1 file, 0 findings"
text "comment name, other case: stderr" "$WORK/err" ""

exit $fail
