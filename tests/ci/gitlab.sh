#!/bin/sh
# gitlab.sh STAGE FIXTURE TRACE: GitLab Code Quality reports from the command line: `syncscope
# lint --format gitlab` on the fixture and `syncscope analyze --format gitlab` on a recorded
# trace write a JSON array of issues with exactly the documented keys, the rule, GitLab's
# severity, the repository-relative path and line, and one fingerprint per issue. (The exact
# bytes are check_report's test_gitlab_exact.)
set -u
STAGE=$1 FIXTURE=$2 TRACE=$3
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
export XDG_CACHE_HOME="$WORK/cache"
fail=0
check() { # what expected actual
    if [ "$2" != "$3" ]; then
        printf 'FAIL: %s\n--- expected\n%s\n--- actual\n%s\n' "$1" "$2" "$3"
        fail=1
    fi
}
# issues FILE [RULE]: one line per issue (of RULE only, when given): check_name severity path
# line; fails when an issue has other keys, or a fingerprint repeats or is not 16 hex digits.
issues() {
    python3 - "$@" <<'EOF2'
import json, re, sys
issues = json.load(open(sys.argv[1]))
assert isinstance(issues, list), "not a JSON array"
seen = set()
for i in issues:
    assert sorted(i) == ["categories", "check_name", "description", "fingerprint", "location",
                         "severity", "type"], sorted(i)
    assert i["type"] == "issue" and i["categories"] == ["Performance"], i
    assert sorted(i["location"]) == ["lines", "path"] and list(i["location"]["lines"]) == ["begin"]
    assert re.fullmatch("[0-9a-f]{16}", i["fingerprint"]) and i["fingerprint"] not in seen, i
    seen.add(i["fingerprint"])
    assert i["description"].endswith("[%s " % i["check_name"] + i["description"].rsplit(" ", 1)[1]), i
    if len(sys.argv) < 3 or i["check_name"] == sys.argv[2]:
        print(i["check_name"], i["severity"], i["location"]["path"], i["location"]["lines"]["begin"])
EOF2
}

cp -R "$FIXTURE" "$WORK/repo"
cd "$WORK/repo" || exit 1
"$STAGE/bin/syncscope" lint --format gitlab -o gl-code-quality-report.json src/pipeline.cu
check "lint status" 1 "$?"
check "lint issues" "SYNC201 minor src/pipeline.cu 13
SYNC101 minor src/pipeline.cu 14" "$(issues gl-code-quality-report.json)"
"$STAGE/bin/syncscope" lint --format gitlab --fail-on none include/ring.h >clean.json
check "clean lint status" 0 "$?"
check "clean lint report" "[]" "$(cat clean.json)"

# A run's findings: paths as recorded (relative to '/', where this runs), the costliest first.
cd / || exit 1
"$STAGE/bin/syncscope" analyze --format gitlab --fail-on none -o "$WORK/run.json" "$TRACE"
check "analyze status" 0 "$?"
check "analyze SYNC201 issues" "SYNC201 minor work/main/tests/gpu/sync201_pageable_async.cu 45
SYNC201 minor work/main/tests/gpu/sync201_pageable_async.cu 35" "$(issues "$WORK/run.json" SYNC201)"
exit $fail
