#!/bin/sh
# man.sh STAGE: the installed manual pages are found by man, format without a groff
# warning, show every command's --help exactly as the installed command prints it, and
# explain every rule of the catalog, in ID order.
set -u
STAGE=$1
SS=$STAGE/bin/syncscope
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
cd "$WORK" || exit 1
MAN1=$STAGE/share/man/man1/syncscope.1 MAN7=$STAGE/share/man/man7/syncscope-rules.7
fail=0
check() { # what expected actual
    if [ "$2" != "$3" ]; then
        printf 'FAIL: %s\n--- expected\n%s\n--- actual\n%s\n' "$1" "$2" "$3"
        fail=1
    fi
}
render() { MANWIDTH=1000 man -l "$1" 2>/dev/null | col -bx; }

check "man finds syncscope(1)" "$MAN1" "$(man -M "$STAGE/share/man" -w syncscope)"
check "man finds syncscope-rules(7)" "$MAN7" "$(man -M "$STAGE/share/man" -w 7 syncscope-rules)"
check "groff warnings" "" "$(groff -man -Tutf8 -ww -z "$MAN1" "$MAN7" 2>&1)"

# Every command's help, line by line (leading blanks aside), in the page's section of it.
render "$MAN1" >page1.txt
commands=$("$SS" --help | sed -n '/^commands:$/,/^$/s/^  \([a-z]*\) .*/\1/p')
check "commands" "lint run analyze report rules explain" "$(echo $commands)"
for command in $commands; do
    "$SS" "$command" --help | sed 's/^ *//' | grep -v '^$' >help.txt
    sed -n "/^   syncscope $command\$/,/^ \{0,3\}[A-Za-z]/p" page1.txt | sed '1d;$d' | sed 's/^ *//' |
        grep -v '^$' >section.txt
    cmp -s help.txt section.txt || {
        echo "FAIL: the $command section of syncscope(1) is not its --help:"
        diff help.txt section.txt
        fail=1
    }
done
check "synopsis" "       syncscope lint [options] [FILE|DIR ...]
       syncscope run [options] [--] program [args...]
       syncscope analyze [options] TRACE
       syncscope report [options] INPUT... [-o report.html]
       syncscope rules
       syncscope explain RULE
       syncscope --version" "$(sed -n '/^SYNOPSIS$/,/^$/p' page1.txt | sed '1d;$d')"

# syncscope-rules(7): one section per rule, in catalog order, with its fix.
render "$MAN7" >page7.txt
check "rule sections" "$("$SS" rules | awk '{print "   " $1 " " $2}')" "$(grep '^   SYNC' page7.txt)"
check "SYNC201 fix" "       How to fix: Allocate the host buffer with cudaMallocHost or cudaHostAlloc, or pin an existing buffer once with cudaHostRegister before the copies." "$(sed -n '/^   SYNC201 /,/^   SYNC202 /p' page7.txt | grep 'How to fix')"
exit $fail
