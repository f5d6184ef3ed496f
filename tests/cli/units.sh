# units.sh: compile databases of several units for the shell tests of tests/cli, sourced by
# the test (before `workspace`, or after `cd "$WORK"` with the sources in src/ and a folder
# build/).

# workspace DATA: a new folder $WORK, removed when the test exits, made the current one, with
# src/ (a copy of DATA's files) and an empty build/.
workspace() {
    WORK=$(mktemp -d)
    trap 'rm -rf "$WORK"' EXIT
    cd "$WORK" || exit 1
    mkdir src build
    cp "$1"/* src/
}

# entry FILE COMPILER [ARGS]: the database entry of src/FILE, compiled by COMPILER from $WORK;
# ARGS, when given, is JSON put before "-c" in the arguments ('"-DN=1", ').
entry() {
    printf '{"directory": "%s", "file": "%s/src/%s", "arguments": ["%s", %s"-c", "src/%s"]}' \
        "$WORK" "$WORK" "$1" "$2" "${3:-}" "$1"
}
# database FILE...: build/compile_commands.json holds those units of src/ (nvcc for a .cu, cc
# for a .c, g++ for the others; a file named twice is two entries, as when two targets build it).
database() {
    sep='['
    for f in "$@"; do
        case $f in *.cu) cc=nvcc ;; *.c) cc=cc ;; *) cc=g++ ;; esac
        printf '%s%s' "$sep" "$(entry "$f" "$cc")"
        sep=', '
    done >build/compile_commands.json
    echo ']' >>build/compile_commands.json
}
