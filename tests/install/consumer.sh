#!/bin/sh
# consumer.sh STAGE CONSUMER WORK: a project (tests/install/consumer/) configured against the
# staged prefix: find_package(syncscope SS_TEST_VERSION) finds it (and refuses 99.0),
# syncscope::syncscope is the staged command, and syncscope_lint(TARGET host) lints exactly
# the target's sources with their compile commands (the target's per-thread default stream
# hides the memset that a lint without them reports).
set -u
STAGE=$1 CONSUMER=$2 WORK=$3
fail=0
check() { # what expected actual
    if [ "$2" != "$3" ]; then
        printf 'FAIL: %s\n--- expected\n%s\n--- actual\n%s\n' "$1" "$2" "$3"
        fail=1
    fi
}
rm -rf "$WORK"
mkdir -p "$WORK"
BUILD=$WORK/build
cmake -S "$CONSUMER" -B "$BUILD" -DCMAKE_PREFIX_PATH="$STAGE" -DSYNCSCOPE_WANTED="$SS_TEST_VERSION" \
    >"$WORK/configure.log" 2>&1 || {
    cat "$WORK/configure.log"
    exit 1
}
check "syncscope_DIR" "syncscope_DIR:PATH=$STAGE/lib/cmake/syncscope" "$(grep '^syncscope_DIR:' "$BUILD/CMakeCache.txt")"
check "syncscope::syncscope" "syncscope: $STAGE/bin/syncscope" \
    "$(cmake --build "$BUILD" --target syncscope_location | grep '^syncscope: ')"

cmake --build "$BUILD" --target host_lint_json >"$WORK/json.log" 2>&1
check "JSON lint target status" 0 "$?"
check "JSON findings" "SYNC201 src/copy.cpp 9 5 upload" "$(python3 -c '
import json, sys
result = json.load(open(sys.argv[1]))
for f in result["findings"]:
    print(f["ruleId"], f["file"], f["line"], f["column"], f["function"])
' "$BUILD/reports/host.json")"

cmake --build "$BUILD" --target syncscope_lint_host >"$WORK/text.log" 2>&1
check "text lint target fails on the warning" 1 "$([ $? -ne 0 ] && echo 1)"
check "text lint findings" "src/copy.cpp:9:5: warning: [SYNC201 pageable-async-copy]
src/copy.cpp:9:5: note:" "$(grep '^src/' "$WORK/text.log" | sed 's/^\([^ ]* [a-z]*:\) .*\( \[SYNC.*\]\)$/\1\2/; s/^\([^ ]* note:\) .*/\1/')"

# The same file without its compile command: the memset is on the legacy default stream.
check "without compile commands" "SYNC201:9 SYNC102:15 " "$(cd "$CONSUMER" && "$STAGE/bin/syncscope" lint --no-cache --format github --fail-on none src/copy.cpp |
    sed 's/^::warning file=src\/copy.cpp,line=\([0-9]*\),col=[0-9]*,title=\(SYNC[0-9]*\) .*/\2:\1/' | tr '\n' ' ')"

# A newer version than the one installed is refused.
cmake -S "$CONSUMER" -B "$WORK/newer" -DCMAKE_PREFIX_PATH="$STAGE" -DSYNCSCOPE_WANTED=99.0 \
    >"$WORK/newer.log" 2>&1
check "newer version refused: status" 1 "$?"
grep -q 'The following configuration files were considered but not accepted' "$WORK/newer.log" &&
    grep -q "$STAGE/lib/cmake/syncscope/syncscopeConfig.cmake, version: $SS_TEST_VERSION" "$WORK/newer.log" || {
    echo "FAIL: the refusal does not name the installed version:"
    cat "$WORK/newer.log"
    fail=1
}
exit $fail
