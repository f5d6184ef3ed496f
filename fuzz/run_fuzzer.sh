#!/bin/sh
# run_fuzzer.sh FUZZER CORPUS SECONDS ARTIFACTS [DICT]: fuzzes one target for SECONDS, starting
# from a copy of its seed corpus CORPUS (the checked-in corpus is never modified). Fails on any
# crash, leak, timeout (one input running over 10 s) or memory blow-up (over 2 GB), and copies
# the input that did it into ARTIFACTS, printing its first bytes.
set -eu
if [ $# -lt 4 ]; then
    echo "usage: run_fuzzer.sh FUZZER CORPUS SECONDS ARTIFACTS [DICT]" >&2
    exit 2
fi
fuzzer=$1
corpus=$2
seconds=$3
artifacts=$4
dict=${5:-}

work=$(mktemp -d "${TMPDIR:-/tmp}/syncscope-fuzz-run.XXXXXX")
# The target rewrites its input file on every run: on tmpfs when there is one. libFuzzer ends
# without removing it, so its folder is made (and removed) here.
if [ -d /dev/shm ] && [ -w /dev/shm ]; then
    scratch=$(mktemp -d /dev/shm/syncscope-fuzz-run.XXXXXX)
else
    scratch=$work/scratch
    mkdir "$scratch"
fi
trap 'rm -rf "$work" "$scratch"' EXIT
trap 'exit 130' INT TERM
mkdir "$work/corpus" "$work/found"
cp -R "$corpus"/. "$work/corpus/"

set -- -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
    -artifact_prefix="$work/found/"
if [ -n "$dict" ]; then set -- "$@" -dict="$dict"; fi

# Readable stacks in the reports: clang 16's symbolizer when it is installed (package llvm-16).
if [ -z "${ASAN_SYMBOLIZER_PATH:-}" ]; then
    for s in llvm-symbolizer-16 llvm-symbolizer; do
        if command -v "$s" >/dev/null 2>&1; then
            ASAN_SYMBOLIZER_PATH=$(command -v "$s")
            export ASAN_SYMBOLIZER_PATH
            break
        fi
    done
fi

status=0
TMPDIR=$scratch "$fuzzer" "$@" "$work/corpus" || status=$?
found=$(ls "$work/found")
if [ "$status" != 0 ] || [ -n "$found" ]; then
    echo "syncscope: error: $(basename "$fuzzer") failed (exit status $status)" >&2
    mkdir -p "$artifacts"
    for name in $found; do
        cp "$work/found/$name" "$artifacts/"
        echo "reproducer $artifacts/$name ($(wc -c <"$work/found/$name") bytes), first 256:" >&2
        head -c 256 "$work/found/$name" | od -An -c >&2
    done
    exit 1
fi
