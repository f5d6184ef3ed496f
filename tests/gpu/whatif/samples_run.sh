#!/bin/bash
# samples_run.sh: two cuda-samples of issue 23's real cases, UnifiedMemoryPerf and
# streamOrderedAllocation, built with nvcc as their CMake files build them, run bare and under
# `syncscope run --trace`, and each one's loop as written and rewritten the way SYNC503's hint
# says (stream_ordered_pair.cu, unified_memory_pair.cu) in interleaved rounds, within a budget.
# Usage: tests/gpu/whatif/samples_run.sh SAMPLES_DIR OUT_DIR    (run on a machine with a GPU)
#   SAMPLES_DIR: a cuda-samples checkout, or a copy holding Common/ and the two samples'
#   folders under Samples/ (6_Performance/UnifiedMemoryPerf,
#   2_Concepts_and_Techniques/streamOrderedAllocation); only the parts soa and ump read it
#   (the pairs are this folder's own programs).
# Environment: BUILD_DIR (default build/device: its cli/syncscope), WHATIF_ARCH (nvcc -arch,
#   default sm_90), SAMPLES_BUDGET_S (default 75), SAMPLES_ROUNDS (default 3), SAMPLES_PARTS
#   (default "soa ump ump_pair": streamOrderedAllocation and its pair, UnifiedMemoryPerf
#   itself, its pair; ump_inproc: that pair's three forms alternating in one process,
#   unified_memory_pair.cu's "rounds", SAMPLES_ROUNDS rounds), SAMPLES_TRACED (default 1:
#   traced runs of streamOrderedAllocation and of the UnifiedMemoryPerf pair's written form,
#   to show how the prediction varies with them),
#   SAMPLES_TASKSET (a CPU list, e.g. 2-3: every run of a sample or a pair, bare or traced,
#   pinned to those CPUs with taskset, the same for every process; default: not pinned),
#   SAMPLES_SEQUENCES (default 1: with N > 1 the parts run N times one after another, each
#   sequence's traces/, logs/ and results.txt in OUT_DIR/seqK/, to show whether a ratio
#   repeats), SAMPLES_SERIAL (default 1; 0: the UnifiedMemoryPerf pair, and ump_inproc, without
#   its serial form), SAMPLES_TRACED_REWRITTEN (default 0; 1: ump_inproc's first sequence also
#   traces the rewritten form, traces/ump_inproc_rewritten.*, the fixed program's replay).
# OUT_DIR gets: MANIFEST; logs/ (the builds', the runs'); traces/NAME.{sstrace,json,stdout,
#   stderr} for NAME in ump, soa, soa_pair_written and ump_pair_written (soa_2,
#   ump_pair_written_2, ... with SAMPLES_TRACED); with SAMPLES_SEQUENCES, the runs' logs/,
#   traces/ and results.txt in each OUT_DIR/seqK instead;
#   results.txt, one line each:
#   soa_sample ROUND total_ms        (the sample's own "Total elapsed time" of its 20 iterations)
#   traced soa_sample N total_ms     (the same under syncscope, traced run N)
#   PAIR written_median_us rewritten_median_us saving_us rounds   (per iteration; PAIR soa_pair
#                                    or ump_pair: stream_ordered_pair.cu, unified_memory_pair.cu)
#   spread PAIR median_us lowest_us highest_us  (each round's own saving, its written form's
#                                    time less its rewritten form's: their median and range)
#   traced PAIR us                   (the written form's time per iteration under syncscope)
#   host PAIR written_us rewritten_us  (medians of the host's own work per iteration, where the
#                                    pair prints it: unified_memory_pair.cu's "host:" line)
#   form PAIR FORM us host_us rounds (a further form's medians: unified_memory_pair.cu's serial)
#   (for ump_inproc, the same lines with PAIR ump_inproc, its saving the median of each
#   round's own saving (the forms of a round paired), its written form traced as
#   traces/ump_inproc_written.*, its rounds in logs/ump_inproc.stdout, the forms interleaved
#   by matrix size, with each form's time per size in its "size" lines; with
#   SAMPLES_SEQUENCES, OUT_DIR/results.txt pools every sequence's rounds, and
#   OUT_DIR/logs/ump_inproc_rounds.txt lists them, round K-R being sequence K's round R)
#   ump_sample                       (the sample's own table, bare, is in logs/ump_bare.stdout)
# Exit status: 0 when every step ran, 1 when one failed or was cut by the budget, 2 on usage.
set -u
if [ "$#" -ne 2 ]; then
    sed -n '2,47p' "$0" | sed 's/^# \{0,1\}//' >&2
    exit 2
fi
start=$(date +%s)
deadline=$((start + ${SAMPLES_BUDGET_S:-75}))
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
samples=$(cd "$1" 2>/dev/null && pwd) || {
    echo "samples_run.sh: no folder $1" >&2
    exit 2
}
ump_dir=$samples/Samples/6_Performance/UnifiedMemoryPerf
soa_dir=$samples/Samples/2_Concepts_and_Techniques/streamOrderedAllocation
parts=${SAMPLES_PARTS:-soa ump ump_pair}
has_part() { case " $parts " in *" $1 "*) return 0 ;; esac; return 1; }
# The samples' sources the parts asked for need (the pairs are this folder's own programs).
needed=
has_part ump && needed="$needed $samples/Common/helper_cuda.h $ump_dir/matrixMultiplyPerf.cu"
has_part soa && needed="$needed $samples/Common/helper_cuda.h $soa_dir/streamOrderedAllocation.cu"
for f in $needed; do
    [ -f "$f" ] || {
        echo "samples_run.sh: $f is missing" >&2
        exit 2
    }
done
mkdir -p "$2" || exit 2
out=$(cd "$2" && pwd)
build=${BUILD_DIR:-$root/build/device}
case $build in /*) ;; *) build=$root/$build ;; esac
syncscope=$build/cli/syncscope
arch=${WHATIF_ARCH:-sm_90}
rounds=${SAMPLES_ROUNDS:-3}
traced_runs=${SAMPLES_TRACED:-1}
sequences=${SAMPLES_SEQUENCES:-1}
status=0
mkdir -p "$out/logs"
# 'dest': where the runs of the current sequence write their traces/, logs/ and results.txt.
dest=$out
log() { echo "samples: $*" | tee -a "$out/logs/samples_run.log"; }

. "$here/common.sh"

is_count() { case $1 in '' | *[!0-9]*) return 1 ;; esac; }
if ! is_count "$rounds" || ! is_count "$traced_runs" || ! is_count "$sequences" ||
    [ "$sequences" -lt 1 ]; then
    echo "samples_run.sh: SAMPLES_ROUNDS, SAMPLES_TRACED and SAMPLES_SEQUENCES are counts" \
        "(SAMPLES_SEQUENCES at least 1)" >&2
    exit 2
fi
# pin: the prefix of every run of a sample or a pair (taskset to SAMPLES_TASKSET's CPUs).
pin=()
if [ -n "${SAMPLES_TASKSET:-}" ]; then
    pin=(taskset -c "$SAMPLES_TASKSET")
    taskset -c "$SAMPLES_TASKSET" true 2>/dev/null || {
        echo "samples_run.sh: SAMPLES_TASKSET=$SAMPLES_TASKSET: taskset cannot run there" >&2
        exit 2
    }
fi

{
    manifest_head
    echo "samples: $samples; rounds: $rounds; parts: $parts; traced runs: $traced_runs;" \
        "sequences: $sequences; budget: ${SAMPLES_BUDGET_S:-75} s"
    echo "cpus: $(nproc --all 2>/dev/null) online; runs pinned to: ${SAMPLES_TASKSET:-none};" \
        "$(lscpu 2>/dev/null | sed -n 's/^Model name: *//p' | head -1);" \
        "$(lscpu 2>/dev/null | grep -i '^NUMA node(s)' | tr -s ' ')"
    governor=/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor
    [ -r "$governor" ] && echo "cpufreq governor: $(cat "$governor")"
} >"$out/MANIFEST"
cat "$out/MANIFEST"
[ -x "$syncscope" ] || {
    log "no syncscope at $syncscope"
    exit 2
}

# ---- builds, in parallel, of the parts asked for: the samples as their CMakeLists.txt build
# them (-lineinfo, C++17; UnifiedMemoryPerf with separable compilation and --extended-lambda),
# and the pairs ----
bin=$(mktemp -d)
trap 'rm -rf "$bin"' EXIT
programs=
if has_part ump; then
    programs="$programs UnifiedMemoryPerf"
    nvcc -O2 -lineinfo -arch="$arch" -std=c++17 -rdc=true --extended-lambda \
        -I"$samples/Common" -I"$ump_dir" -o "$bin/UnifiedMemoryPerf" \
        "$ump_dir/helperFunctions.cpp" "$ump_dir/matrixMultiplyPerf.cu" \
        "$ump_dir/commonKernels.cu" >"$out/logs/nvcc_ump.log" 2>&1 &
fi
if has_part soa; then
    programs="$programs streamOrderedAllocation stream_ordered_pair"
    nvcc -O2 -lineinfo -arch="$arch" -std=c++17 -I"$samples/Common" \
        -o "$bin/streamOrderedAllocation" "$soa_dir/streamOrderedAllocation.cu" \
        >"$out/logs/nvcc_soa.log" 2>&1 &
fi
if has_part ump_pair || has_part ump_inproc; then
    programs="$programs unified_memory_pair"
fi
for p in $programs; do
    case $p in stream_ordered_pair | unified_memory_pair) ;; *) continue ;; esac
    nvcc -O2 -g -lineinfo -arch="$arch" -Xcompiler=-fno-omit-frame-pointer \
        -o "$bin/$p" "$here/$p.cu" >"$out/logs/nvcc_$p.log" 2>&1 &
done
wait
for p in $programs; do
    [ -x "$bin/$p" ] || {
        log "build of $p failed (logs/nvcc_*.log)"
        status=1
    }
done
log "built in $(($(date +%s) - start)) s"

# traced NAME CMD...: one run under syncscope (pinned as every run), its trace and JSON result
# kept as traces/NAME.*
traced() {
    local name=$1 dir
    shift
    dir=$(mktemp -d "$dest/traces/.$name.XXXX")
    bounded 40 ${pin[@]+"${pin[@]}"} "$syncscope" run -q --format json -o "$dir/result.json" \
        --trace "$dir/trace.sstrace" -- "$@" >"$dest/traces/$name.stdout" \
        2>"$dest/traces/$name.stderr"
    local rc=$?
    [ -f "$dir/result.json" ] && mv "$dir/result.json" "$dest/traces/$name.json"
    [ -f "$dir/trace.sstrace" ] && mv "$dir/trace.sstrace" "$dest/traces/$name.sstrace"
    rm -rf "$dir"
    log "traced $name: exit $rc"
    if [ "$rc" != 0 ] && [ "$rc" != 1 ] || [ ! -f "$dest/traces/$name.sstrace" ]; then
        status=1
    fi
}

# bare LIMIT CMD...: one run without syncscope (pinned as every run), within the budget.
bare() {
    local limit=$1
    shift
    bounded "$limit" ${pin[@]+"${pin[@]}"} "$@"
}

# pair_rounds PAIR PROGRAM ARGS...: the pair's forms bare in interleaved rounds, each form a
# process of its own (PROGRAM with written|rewritten, then each form of 'extra_forms', and
# ARGS), summed up into results.txt (summarize).
pair_rounds() {
    local pair=$1 program=$2 file=$dest/logs/$1_rounds.txt log
    shift 2
    : >"$file"
    for r in $(seq 1 "$rounds"); do
        for form in written rewritten ${extra_forms:-}; do
            log=$dest/logs/$pair.$form.$r.stdout
            bare 30 "$bin/$program" "$form" "$@" >"$log" 2>&1 || status=1
            echo "round $r $form $(steady "$log" | grep . || echo nan) $(host_median "$log")" \
                >>"$file"
        done
    done
    summarize "$pair" "$file"
}

# summarize PAIR FILE: the rounds in FILE ("round R FORM us host_us", nan where a run gave no
# figure) into results.txt: the forms' medians per iteration, each round's own saving (its
# written form less its rewritten form) as median and range, the host's own work's medians
# where the program says it, and each form of 'extra_forms' (see the usage above).
summarize() {
    local pair=$1 file=$2
    local w rw n saving t each hw hr f fs fh fn
    w=$(column_median "$file" written 4)
    rw=$(column_median "$file" rewritten 4)
    n=$(awk '$3 == "written" && $4 != "nan" && $4 != "" { n++ } END { print n + 0 }' "$file")
    saving=$(awk -v a="$w" -v b="$rw" 'BEGIN { if (a == "nan" || b == "nan") print "nan"; else printf "%.3f", a - b }')
    each=$(awk '$4 != "nan" && $4 != "" { t[$2, $3] = $4 }
        END { for (k in t) { split(k, p, SUBSEP)
                  if (p[2] == "written" && (p[1], "rewritten") in t)
                      printf "%.3f\n", t[k] - t[p[1], "rewritten"] } }' "$file" | sort -g)
    # With 'paired' set (the forms of a round run in one process, one after the other), the
    # saving is the median of each round's own saving, not the forms' medians' difference,
    # which rounds of different speed (another sequence, the machine's state) would move.
    [ -n "${paired:-}" ] && [ -n "$each" ] && saving=$(echo "$each" | median)
    echo "$pair $w $rw $saving $n" >>"$dest/results.txt"
    [ -n "$each" ] && echo "spread $pair $(echo "$each" | median) $(echo "$each" | head -1)" \
        "$(echo "$each" | tail -1)" >>"$dest/results.txt"
    # The host's own work per iteration, where the program says it ("host: <us> us ..."):
    # what SYNC503's model takes to stay as it is.
    hw=$(column_median "$file" written 5)
    hr=$(column_median "$file" rewritten 5)
    [ "$hw" != nan ] && echo "host $pair $hw $hr" >>"$dest/results.txt"
    # A further form's medians (its steady time, its host work): "form PAIR FORM us host rounds".
    for f in ${extra_forms:-}; do
        fs=$(column_median "$file" "$f" 4)
        fh=$(column_median "$file" "$f" 5)
        fn=$(awk -v f="$f" '$3 == f && $4 != "nan" && $4 != "" { n++ } END { print n + 0 }' "$file")
        echo "form $pair $f $fs $fh $fn" >>"$dest/results.txt"
    done
    t=$(steady "$dest/traces/${pair}_written.stdout" 2>/dev/null)
    [ -n "$t" ] && echo "traced $pair $t" >>"$dest/results.txt"
    log "$pair: written $w us, rewritten $rw us per iteration, saving $saving us ($n rounds;" \
        "each round's: $(echo "$each" | head -1) to $(echo "$each" | tail -1) us)"
}

steady() { sed -n 's/^steady: \([0-9.]*\) us per iteration.*/\1/p' "$1"; }
median() { sort -g | awk '{ v[NR] = $1 } END { if (NR) print v[int((NR + 1) / 2)]; else print "nan" }'; }
# column_median FILE FORM COLUMN: the median of COLUMN over FILE's rounds of FORM.
column_median() {
    awk -v f="$2" -v c="$3" '$3 == f && $c != "nan" && $c != "" { print $c }' "$1" | median
}
# host_median FILE...: the median of the runs' "host: <us> us ..." lines.
host_median() { cat "$@" | sed -n 's/^host: \([0-9.]*\) us.*/\1/p' | median; }
soa_total() { sed -n 's/^Total elapsed time = \([0-9.]*\) ms.*/\1/p' "$1"; }

# run_parts: the parts asked for, once, into 'dest'.
run_parts() {
    mkdir -p "$dest/traces" "$dest/logs"
    : >"$dest/results.txt"
    local n name total r
    # ---- streamOrderedAllocation: traced (SAMPLES_TRACED times), bare in rounds; its loop
    # as a pair ----
    if has_part soa; then
        for n in $(seq 1 "$traced_runs"); do
            name=soa
            [ "$n" -gt 1 ] && name=soa_$n
            traced "$name" "$bin/streamOrderedAllocation"
            total=$(soa_total "$dest/traces/$name.stdout")
            echo "traced soa_sample $n ${total:-nan}" >>"$dest/results.txt"
        done
        for r in $(seq 1 "$rounds"); do
            bare 20 "$bin/streamOrderedAllocation" >"$dest/logs/soa_bare.$r.stdout" 2>&1 ||
                status=1
            total=$(soa_total "$dest/logs/soa_bare.$r.stdout")
            echo "soa_sample $r ${total:-nan}" >>"$dest/results.txt"
        done
        traced soa_pair_written "$bin/stream_ordered_pair" written 20 2
        pair_rounds soa_pair stream_ordered_pair 40 3
    fi

    # ---- UnifiedMemoryPerf: bare once with its own per-stage table, then traced; its copy
    # modes as a pair (10 runs per size and mode, the sample's sizes) ----
    if has_part ump; then
        bare 40 "$bin/UnifiedMemoryPerf" -print-launch-transfer-results \
            >"$dest/logs/ump_bare.stdout" 2>&1 || status=1
        echo "ump_sample" >>"$dest/results.txt"
        traced ump "$bin/UnifiedMemoryPerf"
    fi
    if has_part ump_pair; then
        for n in $(seq 1 "$traced_runs"); do
            name=ump_pair_written
            [ "$n" -gt 1 ] && name=ump_pair_written_$n
            traced "$name" "$bin/unified_memory_pair" written 10 2048
        done
        # Its serial form (the rewritten one without the overlap) tells what of a difference
        # in the host's own work between the two forms is the overlap's.
        local serial=serial
        [ "${SAMPLES_SERIAL:-1}" = 0 ] && serial=
        extra_forms=$serial pair_rounds ump_pair unified_memory_pair 10 2048
    fi
    # ---- the same pair with its forms alternating in one process (unified_memory_pair
    # rounds): separate processes' host work differs by more than the saving ----
    if has_part ump_inproc; then
        for n in $(seq 1 "$traced_runs"); do
            name=ump_inproc_written
            [ "$n" -gt 1 ] && name=ump_inproc_written_$n
            traced "$name" "$bin/unified_memory_pair" written 10 2048
        done
        if [ "${SAMPLES_TRACED_REWRITTEN:-0}" = 1 ] && [ "$k" = 1 ]; then
            traced ump_inproc_rewritten "$bin/unified_memory_pair" rewritten 10 2048
        fi
        local file=$dest/logs/ump_inproc_rounds.txt forms=3 serial=serial
        [ "${SAMPLES_SERIAL:-1}" = 0 ] && forms=2 serial=
        # The budget's share left to this sequence (less 5 s) for the one process; its rounds
        # print as they end.
        bare $(((deadline - $(date +%s)) / (sequences - k + 1) - 5)) \
            "$bin/unified_memory_pair" rounds "$rounds" 10 2048 "$forms" \
            >"$dest/logs/ump_inproc.stdout" 2>&1 || status=1
        sed -n 's/^round \([0-9]*\) \([a-z]*\) \([0-9.]*\) host \([0-9.]*\)$/round \1 \2 \3 \4/p' \
            "$dest/logs/ump_inproc.stdout" >"$file"
        paired=1 extra_forms=$serial summarize ump_inproc "$file"
    fi
}

# ---- the parts, once into OUT_DIR, or SAMPLES_SEQUENCES times, one after another, each into
# OUT_DIR/seqK ----
for k in $(seq 1 "$sequences"); do
    if [ "$sequences" -gt 1 ]; then
        dest=$out/seq$k
        log "sequence $k of $sequences, at $(($(date +%s) - start)) s"
    fi
    run_parts
done
# ---- with several sequences, the UnifiedMemoryPerf pair's rounds of all of them pooled into
# OUT_DIR/results.txt (round K-R: sequence K's round R), each round's saving paired ----
if [ "$sequences" -gt 1 ] && has_part ump_inproc; then
    dest=$out
    : >"$out/results.txt"
    for k in $(seq 1 "$sequences"); do
        sed "s/^round /round $k-/" "$out/seq$k/logs/ump_inproc_rounds.txt" 2>/dev/null
    done >"$out/logs/ump_inproc_rounds.txt"
    serial=serial
    [ "${SAMPLES_SERIAL:-1}" = 0 ] && serial=
    paired=1 extra_forms=$serial summarize ump_inproc "$out/logs/ump_inproc_rounds.txt"
fi

log "done in $(($(date +%s) - start)) s, exit $status"
exit "$status"
