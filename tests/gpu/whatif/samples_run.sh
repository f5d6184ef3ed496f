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
#   itself, its pair), SAMPLES_TRACED (default 1: traced runs of streamOrderedAllocation and
#   of the UnifiedMemoryPerf pair's written form, to show how the prediction varies with them).
# OUT_DIR gets: MANIFEST; logs/; traces/NAME.{sstrace,json,stdout,stderr} for NAME in ump,
#   soa, soa_pair_written and ump_pair_written (soa_2, ump_pair_written_2, ... with
#   SAMPLES_TRACED);
#   results.txt, one line each:
#   soa_sample ROUND total_ms        (the sample's own "Total elapsed time" of its 20 iterations)
#   traced soa_sample N total_ms     (the same under syncscope, traced run N)
#   PAIR written_median_us rewritten_median_us saving_us rounds   (per iteration; PAIR soa_pair
#                                    or ump_pair: stream_ordered_pair.cu, unified_memory_pair.cu)
#   traced PAIR us                   (the written form's time per iteration under syncscope)
#   host PAIR written_us rewritten_us  (medians of the host's own work per iteration, where the
#                                    pair prints it: unified_memory_pair.cu's "host:" line)
#   form PAIR FORM us host_us rounds (a further form's medians: unified_memory_pair.cu's serial)
#   ump_sample                       (the sample's own table, bare, is in logs/ump_bare.stdout)
# Exit status: 0 when every step ran, 1 when one failed or was cut by the budget, 2 on usage.
set -u
if [ "$#" -ne 2 ]; then
    sed -n '2,29p' "$0" | sed 's/^# \{0,1\}//' >&2
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
status=0
mkdir -p "$out/traces" "$out/logs"
log() { echo "samples: $*" | tee -a "$out/logs/samples_run.log"; }

. "$here/common.sh"

{
    manifest_head
    echo "samples: $samples; rounds: $rounds; parts: $parts; traced runs: $traced_runs;" \
        "budget: ${SAMPLES_BUDGET_S:-75} s"
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
has_part ump_pair && programs="$programs unified_memory_pair"
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

# traced NAME CMD...: one run under syncscope, its trace and JSON result kept as traces/NAME.*
traced() {
    local name=$1 dir
    shift
    dir=$(mktemp -d "$out/traces/.$name.XXXX")
    bounded 40 "$syncscope" run -q --format json -o "$dir/result.json" \
        --trace "$dir/trace.sstrace" -- "$@" >"$out/traces/$name.stdout" \
        2>"$out/traces/$name.stderr"
    local rc=$?
    [ -f "$dir/result.json" ] && mv "$dir/result.json" "$out/traces/$name.json"
    [ -f "$dir/trace.sstrace" ] && mv "$dir/trace.sstrace" "$out/traces/$name.sstrace"
    rm -rf "$dir"
    log "traced $name: exit $rc"
    if [ "$rc" != 0 ] && [ "$rc" != 1 ] || [ ! -f "$out/traces/$name.sstrace" ]; then
        status=1
    fi
}

# pair_rounds PAIR PROGRAM ARGS...: the pair's forms bare in interleaved rounds (PROGRAM with
# written|rewritten, then each form of 'extra_forms', and ARGS), their medians per iteration
# into results.txt.
pair_rounds() {
    local pair=$1 program=$2 file=$out/logs/$1_rounds.txt
    shift 2
    : >"$file"
    for r in $(seq 1 "$rounds"); do
        for form in written rewritten ${extra_forms:-}; do
            bounded 30 "$bin/$program" "$form" "$@" >"$out/logs/$pair.$form.$r.stdout" 2>&1 ||
                status=1
            echo "round $r $form $(steady "$out/logs/$pair.$form.$r.stdout")" >>"$file"
        done
    done
    local w rw n saving t
    w=$(awk '$3 == "written" && $4 != "" { print $4 }' "$file" | median)
    rw=$(awk '$3 == "rewritten" && $4 != "" { print $4 }' "$file" | median)
    n=$(awk '$3 == "written" && $4 != "" { n++ } END { print n + 0 }' "$file")
    saving=$(awk -v a="$w" -v b="$rw" 'BEGIN { if (a == "nan" || b == "nan") print "nan"; else printf "%.3f", a - b }')
    echo "$pair $w $rw $saving $n" >>"$out/results.txt"
    # The host's own work per iteration, where the program says it ("host: <us> us ..."):
    # what SYNC503's model takes to stay as it is.
    local hw hr
    hw=$(cat "$out/logs/$pair.written."*.stdout | sed -n 's/^host: \([0-9.]*\) us.*/\1/p' | median)
    hr=$(cat "$out/logs/$pair.rewritten."*.stdout | sed -n 's/^host: \([0-9.]*\) us.*/\1/p' | median)
    [ "$hw" != nan ] && echo "host $pair $hw $hr" >>"$out/results.txt"
    # A further form's medians (its steady time, its host work): "form PAIR FORM us host rounds".
    local f fs fh fn
    for f in ${extra_forms:-}; do
        fs=$(awk -v f="$f" '$3 == f && $4 != "" { print $4 }' "$file" | median)
        fh=$(cat "$out/logs/$pair.$f."*.stdout | sed -n 's/^host: \([0-9.]*\) us.*/\1/p' | median)
        fn=$(awk -v f="$f" '$3 == f && $4 != "" { n++ } END { print n + 0 }' "$file")
        echo "form $pair $f $fs $fh $fn" >>"$out/results.txt"
    done
    t=$(steady "$out/traces/${pair}_written.stdout")
    [ -n "$t" ] && echo "traced $pair $t" >>"$out/results.txt"
    log "$pair: written $w us, rewritten $rw us per iteration, saving $saving us ($n rounds)"
}

steady() { sed -n 's/^steady: \([0-9.]*\) us per iteration.*/\1/p' "$1"; }
median() { sort -g | awk '{ v[NR] = $1 } END { if (NR) print v[int((NR + 1) / 2)]; else print "nan" }'; }
: >"$out/results.txt"

soa_total() { sed -n 's/^Total elapsed time = \([0-9.]*\) ms.*/\1/p' "$1"; }

# ---- streamOrderedAllocation: traced (SAMPLES_TRACED times), bare in rounds; its loop as a
# pair ----
if has_part soa; then
    for n in $(seq 1 "$traced_runs"); do
        name=soa
        [ "$n" -gt 1 ] && name=soa_$n
        traced "$name" "$bin/streamOrderedAllocation"
        total=$(soa_total "$out/traces/$name.stdout")
        echo "traced soa_sample $n ${total:-nan}" >>"$out/results.txt"
    done
    for r in $(seq 1 "$rounds"); do
        bounded 20 "$bin/streamOrderedAllocation" >"$out/logs/soa_bare.$r.stdout" 2>&1 || status=1
        total=$(soa_total "$out/logs/soa_bare.$r.stdout")
        echo "soa_sample $r ${total:-nan}" >>"$out/results.txt"
    done
    traced soa_pair_written "$bin/stream_ordered_pair" written 20 2
    pair_rounds soa_pair stream_ordered_pair 40 3
fi

# ---- UnifiedMemoryPerf: bare once with its own per-stage table, then traced; its copy modes
# as a pair (10 runs per size and mode, the sample's sizes) ----
if has_part ump; then
    bounded 40 "$bin/UnifiedMemoryPerf" -print-launch-transfer-results \
        >"$out/logs/ump_bare.stdout" 2>&1 || status=1
    echo "ump_sample" >>"$out/results.txt"
    traced ump "$bin/UnifiedMemoryPerf"
fi
if has_part ump_pair; then
    for n in $(seq 1 "$traced_runs"); do
        name=ump_pair_written
        [ "$n" -gt 1 ] && name=ump_pair_written_$n
        traced "$name" "$bin/unified_memory_pair" written 10 2048
    done
    # Its serial form (the rewritten one without the overlap) tells what of a difference in
    # the host's own work between the two forms is the overlap's.
    extra_forms=serial pair_rounds ump_pair unified_memory_pair 10 2048
fi

log "done in $(($(date +%s) - start)) s, exit $status"
exit "$status"
