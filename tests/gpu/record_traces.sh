#!/bin/sh
# record_traces.sh: on a machine with a GPU, runs every GPU test program (static cudart build)
# under `syncscope run` and collects its trace, JSON findings, stdout and expectation into one
# folder, ready to be committed under tests/data/ for trace replay in CI.
# Usage: record_traces.sh BUILD_DIR OUT_DIR [PROGRAM...]
#   BUILD_DIR  a configured and built tree (syncscope in BUILD_DIR/cli, the programs in
#              BUILD_DIR/tests/gpu)
#   OUT_DIR    created if missing; gets <program>.sstrace, .json, .stdout and .expect per
#              program and MANIFEST (GPU, driver, syncscope version, date)
#   PROGRAM    names to record (default: every tests/gpu/<name>.cu with a <name>.expect,
#              trigger programs and clean ones alike, since replay tests need both)
# Exit status: 0 when every program ran and its run matched its bare run, else 1.
set -u
if [ "$#" -lt 2 ]; then
    sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//' >&2
    exit 2
fi
build=$1
out=$2
shift 2
root=$(cd "$(dirname "$0")/../.." && pwd)
syncscope=$build/cli/syncscope
if [ ! -x "$syncscope" ]; then
    echo "record_traces: $syncscope not found; build the tree first" >&2
    exit 2
fi
if [ -z "$(nvidia-smi -L 2>/dev/null)" ]; then
    echo "record_traces: no GPU visible (nvidia-smi -L lists none)" >&2
    exit 2
fi
if [ "$#" -eq 0 ]; then
    for expect in "$root"/tests/gpu/*.expect; do
        set -- "$@" "$(basename "$expect" .expect)"
    done
fi
mkdir -p "$out" || exit 2

{
    echo "recorded: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
    echo "gpu: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1)"
    echo "syncscope: $("$syncscope" --version 2>&1 | head -1)"
    echo "source: ${SYNCSCOPE_SOURCE_COMMIT:-$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)}"
    echo "programs: $*"
} >"$out/MANIFEST"

status=0
for name in "$@"; do
    program=$build/tests/gpu/${name}_static
    if [ ! -x "$program" ]; then
        echo "record_traces: $program not built" >&2
        status=1
        continue
    fi
    bare=$("$program" 2>/dev/null)
    bare_status=$?
    "$syncscope" run --format json -o "$out/$name.json" --trace "$out/$name.sstrace" \
        -- "$program" >"$out/$name.stdout" 2>"$out/$name.stderr"
    run_status=$?
    cp "$root/tests/gpu/$name.expect" "$out/$name.expect"
    if [ "$run_status" -ne "$bare_status" ] || [ "$bare" != "$(cat "$out/$name.stdout")" ]; then
        echo "record_traces: $name: run differs from the bare run (status $run_status vs" \
             "$bare_status)" >&2
        status=1
    elif [ ! -s "$out/$name.sstrace" ] || [ ! -s "$out/$name.json" ]; then
        echo "record_traces: $name: no trace or no findings written" >&2
        status=1
    else
        rm -f "$out/$name.stderr"
        echo "recorded $name ($(wc -c <"$out/$name.sstrace") bytes of trace)"
    fi
done
exit "$status"
