#!/bin/sh
# gpu-batch.sh: several GPU validation commands after one build, each with a time budget of
# its own, for a machine with a GPU and no apt. Builds the `device` preset once (after the
# offline prefix of DEB_DIR, when given), then runs each line of BATCH_FILE, written
# "NAME SECONDS COMMAND...", from the repository root with its own output folder OUT_DIR/NAME
# passed as $1 (the command sees it as "$1"), stdout and stderr in its log.txt; a command
# still running after SECONDS is stopped. Each command's folder is packed into
# OUT_DIR/NAME.tgz as soon as it ends (so a batch cut short keeps what finished);
# OUT_DIR/summary.txt says how each ended; when the build fails, it has the build log's tail
# and no command runs (exit 1).
# A copy of the tree without its git history (or with a stale one) names its commit in the file
# .source-commit at the root (written where the copy was made: git rev-parse --short HEAD);
# it is exported as SYNCSCOPE_SOURCE_COMMIT, which the GPU scripts record instead of git's.
# Usage: scripts/gpu-batch.sh OUT_DIR BATCH_FILE [DEB_DIR]
set -u
out=${1:?usage: gpu-batch.sh OUT_DIR BATCH_FILE [DEB_DIR]}
batch=${2:?usage: gpu-batch.sh OUT_DIR BATCH_FILE [DEB_DIR]}
debs=${3:-}
root=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$out/work" || exit 2
out=$(cd "$out" && pwd)
batch=$(cd "$(dirname "$batch")" && pwd)/$(basename "$batch")
cd "$root" || exit 2
if [ -s .source-commit ]; then
    SYNCSCOPE_SOURCE_COMMIT=$(head -c 40 .source-commit | tr -cd '0-9a-f')
    export SYNCSCOPE_SOURCE_COMMIT
fi
summary="$out/work/summary.txt"
{
    echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
    echo "gpu: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -1)"
    echo "commit: ${SYNCSCOPE_SOURCE_COMMIT:-$(git rev-parse --short HEAD 2>/dev/null || echo unknown)}"
} >"$summary"
if [ -n "$debs" ]; then
    eval "$(scripts/offline-prefix.sh "$debs" /tmp/ss-prefix)"
fi
start=$(date +%s)
{ cmake --preset device && cmake --build build/device -j "$(nproc)"; } >"$out/work/build.log" 2>&1
rc=$?
echo "build: exit $rc in $(($(date +%s) - start)) s" >>"$summary"
if [ "$rc" != 0 ]; then
    # Every command needs the build: stop here rather than spend the machine's time on them.
    tail -40 "$out/work/build.log" >>"$summary"
    cp "$summary" "$out/summary.txt"
    cat "$summary"
    rm -rf "${out:?}/work"
    exit 1
fi
while read -r name seconds command; do
    case $name in '' | '#'*) continue ;; esac
    mkdir -p "$out/work/$name"
    start=$(date +%s)
    timeout -k 5 "$seconds" sh -c "$command" sh "$out/work/$name" </dev/null >"$out/work/$name/log.txt" 2>&1
    echo "$name: exit $? in $(($(date +%s) - start)) s (budget $seconds s)" >>"$summary"
    tar -C "$out/work" -czf "$out/$name.tgz" "$name" && rm -rf "${out:?}/work/$name"
    cp "$summary" "$out/summary.txt"
done <"$batch"
cp "$summary" "$out/summary.txt"
cat "$summary"
rm -rf "${out:?}/work"
