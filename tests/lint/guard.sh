#!/bin/sh
# guard.sh SYNCSCOPE CLEAN_CU: lint on headers that never end. An #include of /dev/zero or of a
# FIFO in the main file is refused before parsing; through another header, the guard stops the
# run when memory passes --max-memory, and gives up on a file that takes longer than
# --parse-timeout while the other files are analyzed and reported. Each case
# asserts the exit status and the exact messages. syncscope runs under a watch of its own here
# that kills it past 4 GiB or 60 s, so that a guard that fails fails this test, not the machine.
set -u
SS=$(realpath "$1") CLEAN=$(realpath "$2")
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
cd "$WORK" || exit 1
unset SYNCSCOPE_NO_CUDA CUDA_PATH
fail=0

# bounded ARGS...: runs syncscope lint ARGS in WORK (stdout to out.txt, stderr to err.txt),
# killing it when its resident memory passes 4 GiB or it runs for 60 s; sets rc.
bounded() {
    "$SS" lint "$@" >out.txt 2>err.txt </dev/null &
    pid=$!
    ticks=0
    while kill -0 "$pid" 2>/dev/null; do
        pages=$(cut -d' ' -f2 "/proc/$pid/statm" 2>/dev/null || echo 0)
        if [ "${pages:-0}" -gt 1048576 ] || [ "$ticks" -ge 300 ]; then
            kill -9 "$pid" 2>/dev/null
            echo "killed: memory ${pages} pages after $ticks ticks" >>err.txt
            break
        fi
        sleep 0.2
        ticks=$((ticks + 1))
    done
    wait "$pid"
    rc=$?
}

# expect NAME STATUS EXPECTED_STDERR: checks the last run.
expect() {
    if [ "$rc" != "$2" ] || [ "$(cat err.txt)" != "$3" ]; then
        echo "FAIL: $1: exit $rc (expected $2), stderr:"
        sed 's/^/    /' err.txt
        echo "  expected:"
        printf '%s\n' "$3" | sed 's/^/    /'
        fail=1
    else
        echo "ok: $1"
    fi
}

NONE="--cuda-path=none"
mkfifo pipe.h
ln -s /dev/zero zero.h
mkdir sub
printf '#include "../zero.h"\n' >sub/zero_wrap.h
printf '#include "../pipe.h"\n' >sub/pipe_wrap.h
printf 'int before;\n#include "/dev/zero"\nint main() { return 0; }\n' >direct_zero.cu
printf '#include "pipe.h"\nint main() { return 0; }\n' >direct_pipe.cu
printf '#include "zero.h"\nint main() { return 0; }\n' >link_zero.cu
printf '#include "sub/zero_wrap.h"\nint main() { return 0; }\n' >deep_zero.cu
printf '#include "sub/pipe_wrap.h"\nint main() { return 0; }\n' >deep_pipe.cu
printf 'int regular_header;\n' >plain.h
printf '#include "%s/plain.h"\n#include <stddef.h>\nint main() { return regular_header; }\n' \
    "$WORK" >absolute_regular.cu

# The main file's own #include lines: refused before parsing, with the line.
bounded --no-cache $NONE direct_zero.cu
expect "#include \"/dev/zero\"" 2 \
    "syncscope: error: direct_zero.cu:2: cannot #include '/dev/zero': not a regular file (a character device)"
bounded --no-cache $NONE direct_pipe.cu
expect "#include of a FIFO beside the file" 2 \
    "syncscope: error: direct_pipe.cu:1: cannot #include 'pipe.h': not a regular file (a FIFO)"
bounded --no-cache $NONE link_zero.cu
expect "#include of a link to /dev/zero" 2 \
    "syncscope: error: link_zero.cu:1: cannot #include 'zero.h': not a regular file (a character device)"

# Through another header: the guard.
bounded --no-cache $NONE --max-memory 1G deep_zero.cu
expect "/dev/zero through a header, --max-memory 1G" 2 \
    "syncscope: error: deep_zero.cu: parsing stopped: memory use passed 1 GiB (a header that never ends, such as an #include of a device file?)
syncscope: nothing was written: no report, no baseline (libclang cannot be stopped in the middle of a parse); --max-memory SIZE sets the bound, 0 for none"
STOPPED="parsing stopped: it took longer than 2 s (a header that never arrives, such as an #include of a FIFO?); its findings are not reported (--parse-timeout SECONDS sets the bound, 0 for none)"
bounded --no-cache $NONE --color never --parse-timeout 2 deep_pipe.cu
expect "FIFO through a header, --parse-timeout 2" 2 ""
if [ "$(cat out.txt)" != "deep_pipe.cu: error: $STOPPED" ]; then
    echo "FAIL: FIFO through a header: the report is"
    sed 's/^/    /' out.txt
    fail=1
fi

# The guard gives up on that file only: the other files are analyzed and reported, at -j 1
# (the one worker replaced) and -j 2, and the report is written over an older one.
printf '__global__ void k() {}\nvoid f()\n{\n    for (int i = 0; i < 4; i++) {\n        k<<<1, 1>>>();\n        cudaDeviceSynchronize();\n    }\n}\n' >finding.cu
for jobs in 1 2; do
    printf 'old report\n' >report.json
    bounded --no-cache $NONE --parse-timeout 2 -j $jobs --format json -o report.json deep_pipe.cu finding.cu
    expect "a FIFO's file and another, -j $jobs" 2 \
        "syncscope: 2 files, 2 analyzed, 1 with errors
syncscope:   deep_pipe.cu: first error: deep_pipe.cu: $STOPPED"
    got=$(python3 -c 'import json, sys
d = json.load(open("report.json"))
print(" ".join("%s:%s:%s:%s" % (f["ruleId"], f["file"], f["line"], f["severity"]) for f in d["findings"]))
print(" | ".join("%s:%s:%s" % (x["severity"], x["file"], x["message"]) for x in d["diagnostics"]))' 2>&1)
    want="SYNC101:finding.cu:5:note SYNC401:finding.cu:6:warning
error:deep_pipe.cu:$STOPPED"
    if [ "$got" != "$want" ]; then
        echo "FAIL: -j $jobs: report.json holds"
        printf '%s\n' "$got" | sed 's/^/    /'
        fail=1
    else
        echo "ok: -j $jobs: the other file's findings and the stopped file's error are reported"
    fi
done
# With --fail-fast no file after it is started.
bounded --no-cache $NONE --color never --parse-timeout 2 --fail-fast deep_pipe.cu finding.cu
expect "--fail-fast after a FIFO's file" 2 \
    "syncscope: 2 files, 1 analyzed, 1 with errors; not analyzed: 1 after the first file with errors (--fail-fast)
syncscope:   deep_pipe.cu: first error: deep_pipe.cu: $STOPPED"

# Normal files: unaffected, by default and under small bounds.
bounded --no-cache $NONE "$CLEAN"
expect "clean.cu, default bounds" 0 ""
bounded --no-cache $NONE --max-memory 1G --parse-timeout 60 "$CLEAN" absolute_regular.cu
expect "clean.cu and an absolute #include of a regular file, small bounds" 0 ""
bounded --no-cache $NONE --max-memory 0 --parse-timeout 0 absolute_regular.cu
expect "no bounds (0)" 0 ""

# Option values.
bounded --max-memory 4X "$CLEAN"
expect "--max-memory 4X" 2 \
    "syncscope: error: --max-memory needs a size such as 512M, 4G or 0 (no bound) (got '4X')"
bounded --max-memory=99999999999999999999 "$CLEAN"
expect "--max-memory too large" 2 \
    "syncscope: error: --max-memory needs a size such as 512M, 4G or 0 (no bound) (got '99999999999999999999')"
bounded --parse-timeout 1.5 "$CLEAN"
expect "--parse-timeout 1.5" 2 \
    "syncscope: error: --parse-timeout needs a number of seconds, or 0 (no bound) (got '1.5')"
bounded "$CLEAN" --parse-timeout
expect "--parse-timeout without a value" 2 \
    "syncscope: error: option '--parse-timeout' needs a value"
exit $fail
