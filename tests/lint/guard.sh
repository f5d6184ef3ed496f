#!/bin/sh
# guard.sh SYNCSCOPE CLEAN_CU: lint on headers that never end. An #include of /dev/zero or of a
# FIFO in the main file is refused before parsing; through another header, the guard stops the
# run when memory passes --max-memory or a file takes longer than --parse-timeout. Each case
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
bounded --no-cache $NONE --parse-timeout 2 deep_pipe.cu
expect "FIFO through a header, --parse-timeout 2" 2 \
    "syncscope: error: deep_pipe.cu: parsing stopped: it took longer than 2 s (a header that never arrives, such as an #include of a FIFO?)
syncscope: nothing was written: no report, no baseline (libclang cannot be stopped in the middle of a parse); --parse-timeout SECONDS sets the bound, 0 for none"
# Nothing is written, not even over an older report.
printf 'old report\n' >report.json
bounded --no-cache $NONE --parse-timeout 1 --format json -o report.json deep_pipe.cu
if [ "$rc" != 2 ] || [ "$(cat report.json)" != "old report" ]; then
    echo "FAIL: -o report.json after the guard stopped: exit $rc, report.json: $(head -c 80 report.json)"
    fail=1
else
    echo "ok: the guard writes no report"
fi

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
