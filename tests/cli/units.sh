# units.sh: compile databases of several units for the shell tests of tests/cli, sourced after
# `cd "$WORK"` with the sources in src/ and a folder build/.

# entry FILE COMPILER: the database entry of src/FILE, compiled by COMPILER from $WORK.
entry() {
    printf '{"directory": "%s", "file": "%s/src/%s", "arguments": ["%s", "-c", "src/%s"]}' \
        "$WORK" "$WORK" "$1" "$2" "$1"
}
# database FILE...: build/compile_commands.json holds those units of src/ (nvcc for a .cu,
# g++ for the others).
database() {
    sep='['
    for f in "$@"; do
        case $f in *.cu) cc=nvcc ;; *) cc=g++ ;; esac
        printf '%s%s' "$sep" "$(entry "$f" "$cc")"
        sep=', '
    done >build/compile_commands.json
    echo ']' >>build/compile_commands.json
}
