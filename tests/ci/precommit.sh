#!/bin/sh
# precommit.sh MODE SOURCE STAGE FIXTURE: the hook of .pre-commit-hooks.yaml against a copy of
# the fixture repository, with the staged syncscope on PATH.
#   MODE=entry:      runs the hook's entry the way pre-commit does (files of `git ls-files`
#                    that match its 'files', appended to the entry), with no pre-commit needed.
#   MODE=pre-commit: pre-commit itself (skipped, 77, where it is not installed): `pre-commit
#                    run --all-files` fails on the findings; the installed git hook refuses the
#                    commit, accepts it once the file is fixed, and skips a commit without
#                    matching files.
# In both, a file named like an option (`--output=victim.cu`) is linted, not obeyed: its
# finding is reported and no victim.cu is written (the entry ends the options with `--`).
set -u
MODE=$1 SOURCE=$2 STAGE=$3 FIXTURE=$4
if [ "$MODE" = pre-commit ] && ! command -v pre-commit >/dev/null 2>&1; then
    echo "skipped: pre-commit is not installed (Debian package pre-commit)"
    exit 77
fi
if ! python3 -c 'import yaml' 2>/dev/null; then
    echo "skipped: PyYAML is missing (Debian package python3-yaml)"
    exit 77
fi
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
PATH=$STAGE/bin:$PATH
export XDG_CACHE_HOME="$WORK/cache" PRE_COMMIT_HOME="$WORK/pre-commit"
export GIT_AUTHOR_NAME=ci GIT_AUTHOR_EMAIL=ci@example.invalid
export GIT_COMMITTER_NAME=ci GIT_COMMITTER_EMAIL=ci@example.invalid
fail=0
check() { # what expected actual
    if [ "$2" != "$3" ]; then
        printf 'FAIL: %s\n--- expected\n%s\n--- actual\n%s\n' "$1" "$2" "$3"
        fail=1
    fi
}
# Text findings reduced to place, severity and rule (the wording is the analyzer tests').
findings() {
    grep -E '^[^ ]+:[0-9]+:[0-9]+: (warning|error|note):' |
        sed 's/^\([^ ]* [a-z]*:\) .*\( \[SYNC.*\]\)$/\1\2/; s/^\([^ ]* note:\) .*/\1/'
}
# The file named like an option, and its one finding (a warning: run()'s loop calls f()).
add_dash_file() {
    cat >./--output=victim.cu <<'EOF2'
// A file named like an option: linted, not obeyed.
#include <cuda_runtime.h>
__global__ void k(float *x) { x[0] = 1.0f; }
void f(float *x, cudaStream_t s)
{
    k<<<1, 1, 0, s>>>(x);
    k<<<1, 1>>>(x);
}
void run(float *x, cudaStream_t s, int steps)
{
    for (int i = 0; i < steps; i++)
        f(x, s);
}
EOF2
    git add -- --output=victim.cu
}
DASH_FINDINGS="--output=victim.cu:7:5: warning: [SYNC101 default-stream-launch]
--output=victim.cu:7:5: note:"
EXPECTED_FINDINGS="src/pipeline.cu:13:5: warning: [SYNC201 pageable-async-copy]
src/pipeline.cu:13:5: note:
src/pipeline.cu:14:5: warning: [SYNC101 default-stream-launch]
src/pipeline.cu:14:5: note:"

# The hook repository: .pre-commit-hooks.yaml as in the sources.
HOOKS=$WORK/hooks
git init -q "$HOOKS"
cp "$SOURCE/.pre-commit-hooks.yaml" "$HOOKS/"
git -C "$HOOKS" add .pre-commit-hooks.yaml
git -C "$HOOKS" commit -qm hooks
REV=$(git -C "$HOOKS" rev-parse HEAD)

# The repository that uses it.
REPO=$WORK/repo
cp -R "$FIXTURE" "$REPO"
git init -q "$REPO"
cat >"$REPO/.pre-commit-config.yaml" <<EOF2
repos:
  - repo: $HOOKS
    rev: $REV
    hooks:
      - id: syncscope-lint
EOF2
cd "$REPO" || exit 1
git add -A

if [ "$MODE" = entry ]; then
    check "hook definition" "syncscope-lint|syncscope lint --|system|\\.(cu|cuh|cpp|cc|h|hpp)\$|True" \
        "$(python3 -c '
import sys, yaml
hook, = yaml.safe_load(open(sys.argv[1]))
print("|".join(str(hook[k]) for k in ("id", "entry", "language", "files", "require_serial")))
' "$SOURCE/.pre-commit-hooks.yaml")"
    run_entry() { # the entry on the tracked files that match, output in $WORK/entry.out
        python3 - "$SOURCE/.pre-commit-hooks.yaml" >"$WORK/entry.out" 2>&1 <<'EOF2'
import re, shlex, subprocess, sys, yaml
hook, = yaml.safe_load(open(sys.argv[1]))
files = [f for f in subprocess.run(["git", "ls-files"], capture_output=True, text=True,
                                   check=True).stdout.splitlines()
         if re.search(hook["files"], f)]
print("files: " + " ".join(files))
sys.stdout.flush()
sys.exit(subprocess.run(shlex.split(hook["entry"]) + hook.get("args", []) + files).returncode)
EOF2
    }
    run_entry
    check "entry status" 1 "$?"
    check "files handed to the entry" "files: include/ring.cuh include/ring.h src/pipeline.cu" \
        "$(head -1 "$WORK/entry.out")"
    check "entry findings" "$EXPECTED_FINDINGS" "$(findings <"$WORK/entry.out")"
    check "entry summary" "2 warnings generated." "$(tail -1 "$WORK/entry.out")"
    add_dash_file
    run_entry
    check "entry with a file named like an option: status" 1 "$?"
    check "entry with a file named like an option: files" \
        "files: --output=victim.cu include/ring.cuh include/ring.h src/pipeline.cu" \
        "$(head -1 "$WORK/entry.out")"
    check "entry with a file named like an option: findings" "$DASH_FINDINGS
$EXPECTED_FINDINGS" "$(findings <"$WORK/entry.out")"
    check "entry with a file named like an option: no victim.cu" no \
        "$([ -e victim.cu ] && echo yes || echo no)"
    exit $fail
fi

# pre-commit itself.
pre-commit run --all-files --color never >"$WORK/run.out" 2>&1
check "pre-commit run status" 1 "$?"
check "pre-commit run header" "syncscope lint...........................................................Failed
- hook id: syncscope-lint
- exit code: 1" "$(grep -v '^\[INFO\]' "$WORK/run.out" | head -3)"
check "pre-commit run findings" "$EXPECTED_FINDINGS" "$(findings <"$WORK/run.out")"

pre-commit install >/dev/null
check "installed git hook" yes "$([ -x .git/hooks/pre-commit ] && echo yes)"
git commit -qm "pipeline" >"$WORK/commit.out" 2>&1
check "commit refused" 1 "$?"
check "commit refused: findings" "$EXPECTED_FINDINGS" "$(findings <"$WORK/commit.out")"
check "no commit" "" "$(git rev-parse -q --verify HEAD)"

# Pinned memory and the stream: nothing left to report.
sed -i 's/float \*host = (float \*)malloc(n \* sizeof(float));/float *host;\n    cudaMallocHost(\&host, n * sizeof(float));/; s/scale<<<1, 256>>>(device, 2.0f);/scale<<<1, 256, 0, stream>>>(device, 2.0f);/; s/free(host);/cudaFreeHost(host);/' src/pipeline.cu
git add src/pipeline.cu
git commit -m "pipeline" >"$WORK/commit.out" 2>&1
check "commit accepted" 0 "$?"
check "commit accepted: hook" "syncscope lint...........................................................Passed" \
    "$(grep '^syncscope lint' "$WORK/commit.out")"

echo "Notes." >>README.md
git commit -qam "notes" >"$WORK/commit.out" 2>&1
check "commit without sources" 0 "$?"
check "commit without sources: hook" "syncscope lint.......................................(no files to check)Skipped" \
    "$(grep '^syncscope lint' "$WORK/commit.out")"
check "commits" 2 "$(git rev-list --count HEAD)"

# A file named like an option is linted (its warning refuses the commit), not obeyed.
add_dash_file
git commit -qm "dash" >"$WORK/commit.out" 2>&1
check "file named like an option: commit refused" 1 "$?"
check "file named like an option: findings" "$DASH_FINDINGS" "$(findings <"$WORK/commit.out")"
check "file named like an option: no victim.cu" no "$([ -e victim.cu ] && echo yes || echo no)"

# Options go in an overridden entry that ends with "--": warnings then pass.
cat >.pre-commit-config.yaml <<EOF2
repos:
  - repo: $HOOKS
    rev: $REV
    hooks:
      - id: syncscope-lint
        entry: syncscope lint --fail-on error --
EOF2
git add .pre-commit-config.yaml
pre-commit run --all-files --color never >"$WORK/run.out" 2>&1
check "overridden entry: status" 0 "$?"
check "overridden entry: hook" "syncscope lint...........................................................Passed" \
    "$(grep '^syncscope lint' "$WORK/run.out")"
check "overridden entry: no victim.cu" no "$([ -e victim.cu ] && echo yes || echo no)"
exit $fail
