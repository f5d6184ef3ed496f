# assert.sh: the assertions the shell tests of tests/cli share, sourced after `cd "$WORK"`
# (the command's standard error in the file err there) with fail=0 set.

fails() { # NAME WHAT
    echo "FAIL: $1: $2"
    fail=1
}
# status NAME WANT: the last status, $rc, was WANT.
status() {
    [ "$rc" = "$2" ] || fails "$1" "exit $rc, expected $2 (stderr: $(head -3 err))"
}
# text NAME FILE EXPECTED: FILE holds exactly EXPECTED and a newline (nothing for "").
text() {
    if [ -z "$3" ]; then
        [ ! -s "$2" ] || fails "$1" "$2 is not empty: $(head -3 "$2")"
    elif [ "$(cat "$2")" != "$3" ] || [ "$(tail -c 1 "$2" | od -An -c | tr -d ' ')" != '\n' ]; then
        fails "$1" "$2 is
$(cat "$2")
--- expected
$3"
    fi
}
# ss ARGS...: runs $SS (syncscope); its status in $rc, its outputs in the files out and err.
ss() {
    "$SS" "$@" >out 2>err
    rc=$?
}
# first NAME FILE LINE, last NAME FILE LINE: the first (last) line of FILE is LINE.
first() {
    [ "$(head -1 "$2")" = "$3" ] || fails "$1" "the first line of $2 is '$(head -1 "$2")', expected '$3'"
}
last() {
    [ "$(tail -1 "$2")" = "$3" ] || fails "$1" "the last line of $2 is '$(tail -1 "$2")', expected '$3'"
}
# lint_way WAY: lint the project of build/ one of the ways the multi-unit tests compare:
# "no cache, -j N" (N jobs, no cache) or "cold cache" / "warm cache" (the folder cache/, 2 jobs).
lint_way() {
    case $1 in
    "no cache, -j "*) ss lint --no-cache -j "${1#no cache, -j }" --color never --cuda-path none -p build ;;
    *) ss lint --cache-dir cache -j 2 --color never --cuda-path none -p build ;;
    esac
}
# database FILE...: build/compile_commands.json for the files under src/ of the working folder
# (its absolute path $WORK), each as the build compiles it: a .cu file with nvcc, another with g++.
database() {
    sep='['
    for f in "$@"; do
        case $f in *.cu) cc=nvcc ;; *) cc=g++ ;; esac
        printf '%s{"directory": "%s", "file": "%s/src/%s", "arguments": ["%s", "-c", "src/%s"]}' \
            "$sep" "$WORK" "$WORK" "$f" "$cc" "$f"
        sep=', '
    done >build/compile_commands.json
    printf ']\n' >>build/compile_commands.json
}
