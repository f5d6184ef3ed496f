#!/bin/bash
# completion.sh STAGE SOURCE: the installed bash completion completes the installed command's
# commands, each command's options (from its --help), formats (those of SOURCE's
# report/formats.def), levels, rule IDs and names, and the program after `run --`.
set -u
STAGE=$1
SOURCE=$2
# A second copy of the command further on PATH (as when the .deb is installed too): the
# program after `run --` is still offered once.
SECOND=$(mktemp -d)
trap 'rm -rf "$SECOND"' EXIT
ln -s "$STAGE/bin/syncscope" "$SECOND/syncscope"
PATH=$STAGE/bin:$SECOND:$PATH
# shellcheck source=/dev/null
source "$STAGE/share/bash-completion/completions/syncscope" || exit 1
fail=0
check() { # what expected actual
    if [ "$2" != "$3" ]; then
        printf 'FAIL: %s\n--- expected\n%s\n--- actual\n%s\n' "$1" "$2" "$3"
        fail=1
    fi
}
# complete WORD...: the sorted candidates for the last word of the command line WORD...
complete() {
    COMP_WORDS=("$@")
    COMP_CWORD=$(($# - 1))
    COMP_LINE="$*"
    COMP_POINT=${#COMP_LINE}
    COMPREPLY=()
    _syncscope
    if ((${#COMPREPLY[@]} > 0)); then
        printf '%s\n' "${COMPREPLY[@]}" | LC_ALL=C sort | tr '\n' ' '
    fi
}

check "registration" "complete -o default -F _syncscope syncscope" "$(builtin complete -p syncscope)"
check "commands" "--help --version analyze explain lint report rules run " "$(complete syncscope '')"
check "l" "lint " "$(complete syncscope l)"
check "lint --f" "--fail-fast --fail-on --fix --format " "$(complete syncscope lint --f)"
check "lint -" "$(syncscope lint --help | grep -Eo '^  (-[a-z], )?--?[a-z-]+' | tr -d ' ' | tr ',' '\n' | LC_ALL=C sort | tr '\n' ' ')" "$(complete syncscope lint -)"
check "run --" "$(syncscope run --help | grep -Eo '^  (-[a-z], )?--[a-z-]+' | grep -Eo -- '--[a-z-]+' | LC_ALL=C sort | tr '\n' ' ')" "$(complete syncscope run --)"
check "run --no-k" "--no-kernel-activity " "$(complete syncscope run --no-k)"
# formats COLUMN: the sorted names of the rows of report/formats.def whose COLUMN (5 lint,
# 6 run, 8 report) is 1, each followed by a space, as complete writes them.
formats() {
    awk -v col="$1" '/^SS_FORMAT\(/ {
        line = $0
        sub(/^SS_FORMAT\(/, "", line)
        split(line, f, /, */)
        if (f[col] == 1) { gsub(/"/, "", f[2]); print f[2] }
    }' "$SOURCE/report/formats.def" | LC_ALL=C sort | tr '\n' ' '
}
# The formats come from each command's --help (written from report/formats.def): the rows,
# and two named examples.
check "--format" "$(formats 5)" "$(complete syncscope lint --format '')"
check "run --format" "$(formats 6)" "$(complete syncscope run --format '')"
check "lint --format: json and sarif" "json sarif " "$(complete syncscope lint --format '' | tr ' ' '\n' | grep -x 'json\|sarif' | tr '\n' ' ')"
check "report --format" "$(formats 8)" "$(complete syncscope report --format '')"
check "report --format: html" "html" "$(complete syncscope report --format '' | tr ' ' '\n' | grep -x html)"
check "--fail-on" "error none note warning " "$(complete syncscope analyze --fail-on '')"
check "--color a" "always auto " "$(complete syncscope lint --color a)"
check "explain SYNC2" "SYNC201 SYNC202 " "$(complete syncscope explain SYNC2)"
check "--disable page" "pageable-async-copy " "$(complete syncscope lint --disable page)"
check "after run --: the program" "syncscope " "$(complete syncscope run -q -- syncsc)"
check "after run -- prog: its arguments are files" "" "$(complete syncscope run -- ./app --fo)"
check "files" "" "$(complete syncscope lint src/)"
exit $fail
