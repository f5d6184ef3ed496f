#!/bin/bash
# device_run.sh: the what-if pairs on a GPU (tests/gpu/whatif/README.md). Builds the C pairs
# with nvcc, runs each as-written program (and the C rewritten ones) under
# `syncscope run --trace`, then runs as-written and rewritten bare in interleaved rounds and
# writes their medians to OUT_DIR/results.txt, all within a time budget.
# Usage: tests/gpu/whatif/device_run.sh OUT_DIR     (from anywhere; run on a machine with a GPU)
# Environment: BUILD_DIR (default build/device: its cli/syncscope), PYTHON (python3),
#   WHATIF_BUDGET_S (default 150), WHATIF_ROUNDS (default 5), WHATIF_ARCH (nvcc -arch, default
#   sm_90: the H200), WHATIF_PAIRS (default: every pair, see below; only their C programs are
#   built), WHATIF_PROVE (default 1; 0: not samples/prove/prove.sh at the end).
# OUT_DIR gets: MANIFEST; traces/NAME.{sstrace,json,stdout,stderr} (NAME = pair_form);
#   rounds/PAIR.txt (every round's "steady:" figure); results.txt, one line per pair:
#   PAIR written_median_us rewritten_median_us saving_us rounds, and "traced PAIR us" (the
#   written form's own time under syncscope); for bench/whatif/run.py; prove/ (the samples' pairs,
#   samples/prove/prove.sh, when the budget leaves 20 s for it).
# Exit status: 0 when every step ran, 1 when one failed or was cut by the budget, 2 on usage.
set -u
if [ "$#" -ne 1 ]; then
    sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//' >&2
    exit 2
fi
start=$(date +%s)
budget=${WHATIF_BUDGET_S:-150}
deadline=$((start + budget))
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
mkdir -p "$1" || exit 2
out=$(cd "$1" && pwd)
build=${BUILD_DIR:-$root/build/device}
case $build in /*) ;; *) build=$root/$build ;; esac
syncscope=$build/cli/syncscope
python=${PYTHON:-python3}
rounds=${WHATIF_ROUNDS:-5}
pairs=${WHATIF_PAIRS:-"c_sync503 c_sync502 c_sync201 c_sync301 cupy_sync503 torch_sync502 torch_sync301 torch_sync201 jax_sync503"}
status=0
mkdir -p "$out/traces" "$out/rounds" "$out/logs"
log() { echo "whatif: $*" | tee -a "$out/logs/device_run.log"; }

. "$here/common.sh"

{
    manifest_head
    echo "python: $("$python" --version 2>&1)"
    for module in torch cupy jax; do
        echo "$module: $("$python" -c "import $module; print($module.__version__)" 2>/dev/null || echo missing)"
    done
    echo "rounds: $rounds; budget: $budget s"
} >"$out/MANIFEST"
cat "$out/MANIFEST"
[ -x "$syncscope" ] || { log "no syncscope at $syncscope"; exit 2; }

# ---- the C programs of the pairs asked for, built in parallel ----
bin=$(mktemp -d)
trap 'rm -rf "$bin"' EXIT
rules=$(for pair in $pairs; do case $pair in c_*) echo "${pair#c_}" ;; esac; done)
for form in written rewritten; do
    for rule in $rules; do
        nvcc -O2 -g -lineinfo -arch="${WHATIF_ARCH:-sm_90}" -Xcompiler=-fno-omit-frame-pointer \
            -o "$bin/${rule}_$form" "$here/${rule}_$form.cu" >"$out/logs/nvcc_${rule}_$form.log" 2>&1 &
    done
done
wait
log "built in $(($(date +%s) - start)) s: $(ls "$bin" | tr '\n' ' ')"

# The arguments of each pair: the bare runs' and the traced runs' (fewer iterations, so that
# the traces stay small; the figures compared are per iteration).
args_of() { # PAIR traced|bare
    case $1:$2 in
    c_sync503:bare) echo "60 5" ;; c_sync503:traced) echo "24 4" ;;
    c_sync502:bare) echo "2000 20" ;; c_sync502:traced) echo "12 3" ;;
    c_sync201:bare) echo "100 5" ;; c_sync201:traced) echo "24 4" ;;
    c_sync301:bare) echo "500 10" ;; c_sync301:traced) echo "40 5" ;;
    cupy_sync503:bare) echo "40 5" ;; cupy_sync503:traced) echo "16 4" ;;
    torch_sync502:bare) echo "1000 20" ;; torch_sync502:traced) echo "24 4" ;;
    torch_sync301:bare) echo "300 10" ;; torch_sync301:traced) echo "40 5" ;;
    torch_sync201:bare) echo "80 16" ;; torch_sync201:traced) echo "24 8" ;;
    jax_sync503:bare) echo "40 5" ;; jax_sync503:traced) echo "20 4" ;;
    esac
}
command_of() { # PAIR FORM: the command line of one form (C: the program; Python: the module)
    case $1 in
    c_*) echo "$bin/${1#c_}_$2" ;;
    *) echo "$python $here/$1.py $2" ;;
    esac
}

# traced NAME CMD...: one run under syncscope; keeps the trace and result of the process that
# used CUDA (DataLoader workers write none) as traces/NAME.{sstrace,json}.
traced() {
    local name=$1 dir
    shift
    dir=$(mktemp -d "$out/traces/.$name.XXXX")
    bounded 60 "$syncscope" run -q --format json -o "$dir/result-%p.json" \
        --trace "$dir/trace-%p.sstrace" -- "$@" >"$out/traces/$name.stdout" \
        2>"$out/traces/$name.stderr"
    local rc=$?
    local result trace
    result=$(ls -S "$dir"/result-*.json 2>/dev/null | head -1)
    trace=$(ls -S "$dir"/trace-*.sstrace 2>/dev/null | head -1)
    [ -n "$result" ] && mv "$result" "$out/traces/$name.json"
    [ -n "$trace" ] && mv "$trace" "$out/traces/$name.sstrace"
    rm -rf "$dir"
    log "traced $name: exit $rc, $(grep -h '^steady:' "$out/traces/$name.stdout" || echo 'no steady line')"
    if [ "$rc" != 0 ] && [ "$rc" != 1 ] || [ -z "$trace" ]; then
        status=1
    fi
}

steady() { sed -n 's/^steady: \([0-9.]*\) us per iteration.*/\1/p' "$1"; }
median() { sort -g | awk '{ v[NR] = $1 } END { if (NR) print v[int((NR + 1) / 2)]; else print "nan" }'; }

# ---- per pair, in order (what the budget cuts is the last ones): the traced runs (the C
# pairs' both forms, the framework pairs' written form), then the bare interleaved rounds ----
: >"$out/results.txt"
for pair in $pairs; do
    case $pair in
    c_*) forms="written rewritten" ;;
    *) forms="written" ;;
    esac
    for form in $forms; do
        # shellcheck disable=SC2046
        traced "${pair}_$form" $(command_of "$pair" "$form") $(args_of "$pair" traced)
    done
    file=$out/rounds/$pair.txt
    : >"$file"
    case $pair in
    c_*)
        for r in $(seq 1 "$rounds"); do
            for form in written rewritten; do
                # shellcheck disable=SC2046
                bounded 30 $(command_of "$pair" "$form") $(args_of "$pair" bare) \
                    >"$out/logs/$pair.$form.$r.stdout" 2>"$out/logs/$pair.$form.$r.stderr" ||
                    status=1
                echo "round $r $form $(steady "$out/logs/$pair.$form.$r.stdout")" >>"$file"
            done
        done
        ;;
    *)
        # The framework pairs alternate the forms in one process (whatif_pair.py rounds).
        # shellcheck disable=SC2046
        bounded 90 "$python" "$here/$pair.py" rounds "$rounds" $(args_of "$pair" bare) \
            >"$file.stdout" 2>"$out/logs/$pair.rounds.stderr" || status=1
        sed -n 's/^round \([0-9]*\) \([a-z]*\) \([0-9.]*\)$/round \1 \2 \3/p' "$file.stdout" >>"$file"
        ;;
    esac
    w=$(awk '$3 == "written" && $4 != "" { print $4 }' "$file" | median)
    rw=$(awk '$3 == "rewritten" && $4 != "" { print $4 }' "$file" | median)
    n=$(awk '$3 == "written" && $4 != "" { n++ } END { print n + 0 }' "$file")
    saving=$(awk -v a="$w" -v b="$rw" 'BEGIN { if (a == "nan" || b == "nan") print "nan"; else printf "%.3f", a - b }')
    echo "$pair $w $rw $saving $n" >>"$out/results.txt"
    t=$(steady "$out/traces/${pair}_written.stdout" 2>/dev/null)
    [ -n "$t" ] && echo "traced $pair $t" >>"$out/results.txt"
    log "bare $pair: written $w us, rewritten $rw us per iteration, saving $saving us ($n rounds)"
done

# ---- last, with what the budget has left: the samples' pairs (samples/prove/prove.sh), whose
# traces the what-if models are also checked against ----
if [ "${WHATIF_PROVE:-1}" != 0 ] && [ -x "$build/samples/pipeline/naive" ] &&
    [ $((deadline - $(date +%s))) -gt 20 ]; then
    bounded 45 sh "$root/samples/prove/prove.sh" -o "$out/prove" "$build" \
        >"$out/logs/prove.log" 2>&1
    log "samples/prove/prove.sh: exit $? ($out/prove/table.md)"
fi

log "done in $(($(date +%s) - start)) s (budget $budget s), exit $status"
exit "$status"
