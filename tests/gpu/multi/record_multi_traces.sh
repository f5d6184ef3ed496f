#!/bin/sh
# record_multi_traces.sh: after `ctest -L gpu -R multi` passed on a two-GPU machine, turns the
# traces those tests wrote into trace replay cases: OUT_DIR/gpu_multi_device.sstrace (static
# cudart) and gpu_ddp_item_rank0/1.sstrace, each with the .expect that `syncscope analyze`
# gives for it (tests/replay/README.md), ready to be reviewed and committed under tests/data/.
# Usage: record_multi_traces.sh BUILD_DIR OUT_DIR
# Exit status: 0 when every trace was found and analyzed, else 1.
set -u
if [ "$#" -ne 2 ]; then
    sed -n '2,7p' "$0" | sed 's/^# \{0,1\}//' >&2
    exit 2
fi
build=$1
out=$2
syncscope=$build/cli/syncscope
results=$build/tests/gpu/multi/results
python=${SS_GPU_PYTHON:-python3}
mkdir -p "$out" || exit 1
gpu=$(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -1)
status=0
record() { # NAME TRACE PROGRAM
    if [ ! -s "$2" ]; then
        echo "record_multi_traces: no $2 (run ctest -L gpu -R multi first)" >&2
        status=1
        return
    fi
    cp "$2" "$out/$1.sstrace" || { status=1; return; }
    "$syncscope" analyze --format json -o "$out/$1.json" "$out/$1.sstrace"
    rc=$?
    if [ "$rc" -gt 1 ]; then
        echo "record_multi_traces: syncscope analyze failed on $out/$1.sstrace" >&2
        status=1
        return
    fi
    {
        echo "# $1.sstrace: $3 recorded on $gpu"
        echo "# by tests/gpu/multi/record_multi_traces.sh on $(date -u +%Y-%m-%d)."
        echo "exit $rc"
        "$python" -c 'import json, sys
for f in json.load(open(sys.argv[1]))["findings"]:
    print(f["ruleId"], f.get("file") or "-", f.get("line") or 0, f["evidence"]["count"])' \
            "$out/$1.json"
    } >"$out/$1.expect" || status=1
}
record gpu_multi_device "$results/multi_device_static/run.sstrace" \
    "tests/gpu/multi/multi_device.cu (static cudart)"
record gpu_ddp_item_rank0 "$results/ddp_item/syncscope-0.sstrace" \
    "tests/gpu/multi/ddp_item.py, rank 0 of 2"
record gpu_ddp_item_rank1 "$results/ddp_item/syncscope-1.sstrace" \
    "tests/gpu/multi/ddp_item.py, rank 1 of 2"
ls -l "$out"
exit $status
