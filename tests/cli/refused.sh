#!/bin/sh
# refused.sh SYNCSCOPE SOURCE_DIR HAVE_LINT: every command line syncscope refuses exits with
# status 2 exactly. In the sanitizer build LeakSanitizer turns a leak at exit into status 1,
# so this is also the leak test of every refusal path.
set -u
SS=$(realpath "$1") SRC=$(realpath "$2") HAVE_LINT=$3
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
cd "$WORK" || exit 1
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=1"
export ASAN_OPTIONS
unset SYNCSCOPE_OUTPUT SYNCSCOPE_TRACE SYNCSCOPE_SARIF SYNCSCOPE_FORMAT LD_PRELOAD
printf 'junk\n' >junk.sstrace
printf '{"bad\n' >bad.json
mkdir cfg
printf 'exclude: [\n' >cfg/.syncscope.yml
printf 'int main() { return 0; }\n' >cfg/a.cu
CLEAN=$SRC/tests/lint/clean.cu
fail=0
count=0
refused() { # args...: expects exit 2 and no sanitizer report
    "$SS" "$@" >out.txt 2>err.txt </dev/null
    rc=$?
    count=$((count + 1))
    if [ "$rc" != 2 ]; then
        echo "FAIL: syncscope $*: exit $rc, expected 2"
        sed 's/^/    /' err.txt | head -20
        fail=1
    elif grep -q Sanitizer err.txt; then
        echo "FAIL: syncscope $*: sanitizer report"
        sed 's/^/    /' err.txt | head -20
        fail=1
    fi
}

# The command itself.
refused
refused bogus
refused --bogus
# analyze
refused analyze
refused analyze --bogus x.sstrace
refused analyze --format
refused analyze --format xml x.sstrace
refused analyze -o
refused analyze --chrome-trace
refused analyze --readback-bytes x x.sstrace
refused analyze --min-blocked-us -1 x.sstrace
refused analyze --fail-on sometimes x.sstrace
refused analyze a.sstrace b.sstrace
refused analyze missing.sstrace
refused analyze junk.sstrace
# report
refused report
refused report --bogus
refused report -o
refused report --format xml x.json
refused report missing.json
refused report bad.json
refused report junk.sstrace
# rules and explain
refused rules --bogus
refused rules extra
refused explain
refused explain NOPE
refused explain SYNC101 extra
# run (the program is never started)
refused run
refused run --
refused run --bogus -- true
refused run -o
refused run --format xml -- true
refused run --output '' -- true
refused run --max-memory 1K -- true
refused run --min-blocked-us x -- true
refused run --readback-bytes x -- true
if [ "$HAVE_LINT" = 1 ]; then
    refused lint
    refused lint --bogus "$CLEAN"
    refused lint --format
    refused lint --format xml "$CLEAN"
    refused lint --fail-on sometimes "$CLEAN"
    refused lint --enable NOPE "$CLEAN"
    refused lint --disable NOPE "$CLEAN"
    refused lint --severity SYNC101 "$CLEAN"
    refused lint --severity SYNC101=loud "$CLEAN"
    refused lint --severity NOPE=note "$CLEAN"
    refused lint --readback-bytes x "$CLEAN"
    refused lint --color sometimes "$CLEAN"
    refused lint -j 0 "$CLEAN"
    refused lint -jx "$CLEAN"
    refused lint --exclude
    refused lint -o
    refused lint -p "$WORK/missing"
    refused lint missing.cu
    refused lint --no-cache cfg/a.cu
    refused lint --dump-config cfg
    refused lint --baseline bad.json "$CLEAN"
    refused lint --no-cache -o "$WORK/missing/out.txt" "$CLEAN"
    refused lint --no-cache --write-baseline "$WORK/missing/b.json" "$CLEAN"
    refused lint --no-cache --fix --write-baseline b.json "$CLEAN"
    # Command lines clang refuses: libclang 16 keeps the copies of the bundled headers then.
    for toolkit in "" "--cuda-path=none"; do
        for arg in -std=c++99 -std=gnu89 --cuda-gpu-arch=sm_13 -Xclang=-bogus; do
            refused lint --no-cache $toolkit "--extra-arg=$arg" "$CLEAN"
        done
    done
fi
[ "$fail" = 0 ] && echo "refused: $count command lines, each exit 2"
exit $fail
