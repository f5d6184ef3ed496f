#!/usr/bin/env bash
# device_run.sh OUT [PARTS]: the light mode on a GPU machine, from the repository root with the
# tree built in build/device (cmake --preset device). Writes everything under OUT: per part a
# log, and OUT/results.txt with one line per part. PARTS (default "same lifecycle bench"):
#   same       the light-vs-full equality (tests/gpu/light/same_answers.py) on every GPU test
#              program of tests/gpu (shared cudart; only those SS_SAME_ONLY names, when
#              set); with SS_LIGHT_PYTHON=1 also samples/python/train_loop.py and infer_loop.py
#   lifecycle  the lifecycle cases (tests/gpu/lifecycle) in the light mode, shared cudart
#   bench      bench/overhead: bare / light / full on the launch-bound MLP, interleaved rounds
#   real       same_answers.py on tests/gpu/real/resnet_train.py and gpt2_generate.py (or the
#              workloads SS_LIGHT_REAL names)
#   micro      bench/overhead: bare / light / full on the empty-launch loop and the copy
#              pipeline, 2 rounds
#   costs      bench/overhead: bare / light / sampled_dense (1 s windows every 2 s) / full on
#              the empty-launch loop, the copy pipeline and the MLP
#   sampled    the MLP under --sample 1s/2s with a trace: windows, records only inside them,
#              findings marked light or full window (check_sampled.py)
#   realcost   bench/exit whole-process rounds of resnet_train.py and gpt2_generate.py: bare,
#              full (a user's run), light, sampled (5s/120s)
#   realcost1  the same for resnet_train.py alone, bare / full / light, SS_REALCOST_ROUNDS
#              rounds (default 2) after a warm-up run of each (a run shorter than 120 s opens
#              no 5s/120s window: sampled costs what light does there)
#   windows    bench/overhead/window_cost.py under --sample ON/10m for each ON:PAIRS of
#              SS_WINDOWS (default "1:4 5:2": 4 windows of 1 s, 2 of 5 s): one window's cost
#              in ms against control periods, the slowdown inside it
#   mlpcalls   the MLP (2000 steps) in the light mode with a trace: the calls it took, in all
#              and inside the training loop (count_calls.py)
#   pinned     bench/overhead: bare / light on the MLP (600 steps), 5 interleaved rounds, every
#              process on the CPUs of SS_BENCH_CPU (default 4-7)
#   pairs      bench/overhead/mlp_pairs.py: bare / light on the MLP (SS_PAIRS_STEPS, default
#              400 steps) in forked children of one process, pairs in alternating order until
#              SS_PAIRS_SECONDS (default 80), on the CPUs of SS_BENCH_CPU: the median ratio,
#              its quartiles and a bootstrap 95% interval
#   lockstep   bench/overhead/mlp_lockstep.py: the children SS_LOCKSTEP_VARIANTS names
#              (default "bare light full bare": a second bare is the control) on the MLP, side
#              by side, taking turns block by block (SS_LOCKSTEP_BLOCK steps, default 100),
#              SS_LOCKSTEP_GENERATIONS (2) sets of children in SS_LOCKSTEP_SECONDS (100), on the
#              CPUs of SS_BENCH_CPU: per variant and measure (block, median step, CPU) the
#              median of the rounds' ratios to bare and its bootstrap 95% interval; the
#              variants may be SYNCSCOPE_LIGHT_PROBE's (load subscribe noop noop_runtime
#              noop_driver), and SS_LOCKSTEP_PAIRS ("noop/subscribe light/noop") adds the
#              ratio of two variants, paired in each round
#   switch     bench/overhead/mlp_switch.py: one process in the light mode under
#              SYNCSCOPE_LIGHT_PROBE=switch, its API callbacks switched between returning at
#              once and working, block by block (SS_SWITCH_BLOCK steps, default 30), until
#              SS_SWITCH_SECONDS (default 60), on the CPUs of SS_BENCH_CPU: the medians of the
#              rounds' ratios light/noop, query/noop and light/query (query: every memset's
#              memory kind asked of the driver) and their bootstrap 95% intervals
#   whole      bench/exit whole-process rounds, bare / light (with SS_WHOLE_FULL=1 also full),
#              of each workload SS_LIGHT_REAL names (default resnet_train), through
#              bench/exit/phases.py (import, script and exit timed apart, and the DataLoader's
#              start, waits and shutdown or generate() in each run), on the CPUs of
#              SS_WHOLE_CPU (default 8-15), no round started after SS_WHOLE_SECONDS (100):
#              the median of the paired ratios and its bootstrap 95% interval against 1.01
#   tablemicro bench/overhead: the empty-launch loop and the copy pipeline (or the workloads
#              of SS_TABLE_WORKLOADS), the variants of
#              SS_TABLE_VARIANTS (default "bare light syncscope"), rounds until
#              SS_TABLE_SECONDS (default 35), every process on the CPUs of SS_BENCH_CPU: per
#              variant the median of the rounds' ratios to bare, its bootstrap 95% interval and
#              the added ns per launch or ms
#   startcost  bench/exit whole-process rounds of bench/exit/cuda_start.py (a Python process
#              that makes a CUDA context and one synchronization): bare / light / sampled
#              (5s/120s), until SS_START_SECONDS (default 15), on the CPUs of SS_WHOLE_CPU: what
#              a mode adds to a process once (loading CUPTI, subscribing, the exit), in ms
#   forked     bench/exit/forked.py: bare / light on each workload SS_LIGHT_REAL names (default
#              resnet_train gpt2_generate), in forked children of one process that imported
#              SS_FORKED_PREIMPORT (default torch, torchvision, transformers and GPT-2's model
#              and generation modules; again with the three packages alone should no pair
#              run), pairs in ABBA
#              order until SS_FORKED_SECONDS (default 80), on the CPUs of SS_WHOLE_CPU: what
#              light adds to the workload after its import (wall, script, exit, CPU; ms)
#   race       tests/gpu/light/stream_race.py (streams destroyed during device-wide calls, and
#              the driver's answer about a destroyed stream) and graph_calls.py (graph
#              instantiation in both modes' traces)
#   startwin   where light's one-time cost in a real workload is and what a sampled window
#              costs: bench/exit/forked.py with the children SS_STARTWIN_VARIANTS names (default
#              "load subscribe noop light", SYNCSCOPE_LIGHT_PROBE's stops) beside bare, their
#              steps paired, SYNCSCOPE_TIMING=1 in them, on resnet_train and gpt2_generate after
#              their import, until SS_STARTWIN_FORKED_SECONDS (default 90), on the CPUs of
#              SS_WHOLE_CPU; then bench/overhead/window_cost.py for each WORKLOAD:ON:PAIRS of
#              SS_STARTWIN_WINDOWS (default "mlp:5:8"), SS_WINDOW_GAP s between periods (1 here)
#   reallock   bench/overhead/real_lockstep.py for each workload of SS_REALLOCK_WORKLOADS
#              (default "resnet generate": resnet_train.py's and gpt2_generate.py's loops):
#              bare light bare light children, each set up alone (its start, set-up, first
#              iteration, the script's other iterations, teardown and exit timed: paired
#              differences), then in lockstep by blocks (paired per-iteration ratios),
#              SS_REALLOCK_GENERATIONS (5) sets of children in SS_REALLOCK_SECONDS (90), then
#              SS_REALLOCK_WHOLE (2) bare whole processes of the script, on the CPUs of
#              SS_WHOLE_CPU: the whole-process figure against 1.01 with its interval;
#              SS_REALLOCK_VARIANTS sets the children (SYNCSCOPE_LIGHT_PROBE's stops too),
#              SS_REALLOCK_PAIRS adds paired ratios of two of them ("light/noop"),
#              SS_REALLOCK_TIMING=1 reads the light children's finisher times (SYNCSCOPE_TIMING),
#              SS_REALLOCK_WHOLE_BARE="resnet:S generate:S" gives W instead of whole runs
#   realswitch bench/overhead/real_switch.py for each workload of SS_REALSWITCH_WORKLOADS
#              (default "generate resnet"): one process in the light mode under
#              SYNCSCOPE_LIGHT_PROBE=switch, blocks of the workload's iterations (SS_REALSWITCH_BLOCK,
#              default the workload's) at each level of SS_REALSWITCH_LEVELS (default "light
#              off noop": off, the mode's API callbacks disabled in CUPTI), rounds until
#              SS_REALSWITCH_SECONDS (default 95, the import included), SYNCSCOPE_TIMING=1
#              (SS_REALSWITCH_TIMING=0: without it, so that the light blocks pay none of its
#              clock reads, about ten a recorded call; no own time then), on the CPUs of
#              SS_WHOLE_CPU: light/off (per iteration, against 1.01), light/noop, noop/off
#              with bootstrap 95% intervals, the events each level recorded, the own time per
#              light iteration and the findings
#   realcalls  each WORKLOAD:SIZE of SS_REALCALLS (default "resnet_train:4 gpt2_generate:1") of
#              tests/gpu/real run once in the light mode with a trace: the calls it took, in
#              all and between its first and last readback of SIZE bytes (count_calls.py)
# Each part runs under its own time bound (timeout); the whole stays under about 200 s. With
# SS_TOTAL=T no part's bound reaches past T seconds after the start (a part with less than 5 s
# left is not started). SS_WINDOW_GAP (default 3): the seconds of steps between the windows
# part's periods; SS_WHOLE_WARMUP: the whole part's BENCH_WARMUP (default: every variant).
set -u
if [ $# -lt 1 ]; then
    sed -n '2,/^set -u/{/^#/s/^# \{0,1\}//p}' "$0" >&2
    exit 2
fi
out=$1
parts=${2:-same lifecycle bench}
mkdir -p "$out"
out=$(cd "$out" && pwd)
root=$(pwd)
# Absolute paths: the runners start the programs in folders of their own.
build=$root/${SS_BUILD:-build/device}
syncscope=$build/cli/syncscope
preload=$build/interpose/libsyncscope.so
# SS_LIGHT_WRAP=1: parts same and real compare the full mode with the light mode whose runtime
# calls libsyncscope_cudart.so's wrappers take (same_answers.py --light-wrap).
wrap=()
if [ "${SS_LIGHT_WRAP:-0}" = 1 ]; then wrap=(--light-wrap); fi
probe=$build/tests/gpu/gpu_probe
python=${SS_GPU_PYTHON:-python3}
results=$out/results.txt
# Progress lines reach the logs as they are printed: a run cut by its bound still tells some.
export PYTHONUNBUFFERED=1
: >"$results"
started=$(date +%s)

note() { echo "$*" | tee -a "$results"; }
bounded() { # bounded SECONDS NAME COMMAND...: runs COMMAND with a time bound, logs to OUT/NAME.log
    local limit=$1 name=$2
    shift 2
    if [ -n "${SS_TOTAL:-}" ]; then
        local left=$((started + SS_TOTAL - $(date +%s)))
        if [ "$left" -lt 5 ]; then
            note "$name: not started: SS_TOTAL ($SS_TOTAL s) spent"
            return
        fi
        [ "$left" -lt "$limit" ] && limit=$left
    fi
    local t0=$(date +%s)
    timeout --kill-after=5 "$limit" "$@" >"$out/$name.log" 2>&1
    local rc=$?
    note "$name: exit $rc in $(($(date +%s) - t0)) s (bound $limit s); log $name.log"
    tail -n 3 "$out/$name.log" | sed 's/^/  /' | tee -a "$results"
}

# The tree is built by the caller; this only brings the three binaries up to date with the
# checkout (seconds when they are).
bounded 40 build cmake --build "$build" -j16 --target syncscope syncscope_preload syncscope_finish

for part in $parts; do
    case $part in
    same)
        programs=()
        for f in tests/gpu/*.cu; do
            name=$(basename "$f" .cu)
            case $name in gpu_probe) continue ;; esac
            if [ -n "${SS_SAME_ONLY:-}" ] && ! [[ " $SS_SAME_ONLY " == *" $name "* ]]; then
                continue
            fi
            exe=$build/tests/gpu/${name}_shared
            [ -x "$exe" ] && programs+=("$exe" "::")
        done
        if [ "${SS_LIGHT_PYTHON:-0}" = 1 ]; then
            programs+=("$python" "$root/samples/python/train_loop.py" "::"
                "$python" "$root/samples/python/infer_loop.py")
        fi
        bounded 70 same "$python" tests/gpu/light/same_answers.py --syncscope "$syncscope" \
            --root "$root" --workdir "$out/same" --probe "$probe" --report "$out/same-report.txt" \
            "${wrap[@]}" -- "${programs[@]}"
        # Keep the results, not the traces of every run.
        find "$out/same" -name '*.sstrace' -size +2M -delete 2>/dev/null
        ;;
    lifecycle)
        for case in sigterm sigint malloc handler thread_exit fork threads subscriber; do
            case $case in
            thread_exit) program=lifecycle_thread_exit ;;
            fork) program=lifecycle_fork ;;
            threads) program=lifecycle_threads ;;
            *) program=lifecycle_signal ;;
            esac
            bounded 10 "lifecycle-$case" "$python" tests/gpu/lifecycle/run_lifecycle.py run "$case" \
                --mode light --root "$root" --syncscope "$syncscope" --preload "$preload" \
                --probe "$probe" --program "$build/tests/gpu/lifecycle/${program}_shared" \
                --workdir "$out/lifecycle/$case" --floor "$build/bench/overhead/libcupti_floor.so"
        done
        find "$out/lifecycle" -name '*.sstrace' -size +2M -delete 2>/dev/null
        ;;
    bench)
        # An MLP process takes about 13 s on the H200 (10 s of them importing PyTorch).
        bounded 95 bench env BENCH_OUT="$out/bench.txt" BENCH_ROUNDS=2 BENCH_MLP_STEPS=2000 \
            BENCH_WORKLOADS="mlp" BENCH_VARIANTS="bare light syncscope" BENCH_PYTHON="$python" \
            bench/overhead/run.sh "$build"
        ;;
    real)
        programs=()
        for workload in ${SS_LIGHT_REAL:-resnet_train gpt2_generate}; do
            [ ${#programs[@]} -gt 0 ] && programs+=("::")
            programs+=("$python" "$root/tests/gpu/real/$workload.py")
        done
        bounded 120 real "$python" tests/gpu/light/same_answers.py --syncscope "$syncscope" \
            --root "$root" --workdir "$out/real" --probe "$probe" --report "$out/real-report.txt" \
            "${wrap[@]}" -- "${programs[@]}"
        find "$out/real" -name '*.sstrace' -size +2M -delete 2>/dev/null
        ;;
    micro)
        bounded 45 micro env BENCH_OUT="$out/micro.txt" BENCH_ROUNDS=2 BENCH_LAUNCHES=100000 \
            BENCH_PIPELINE_ARGS="10 16 16384" BENCH_WORKLOADS="launch pipeline" \
            BENCH_VARIANTS="bare light syncscope" bench/overhead/run.sh "$build"
        ;;
    costs)
        bounded 110 costs env BENCH_OUT="$out/costs.txt" BENCH_ROUNDS=3 BENCH_MLP_STEPS=1500 \
            BENCH_LAUNCHES=100000 BENCH_PIPELINE_ARGS="20 16 16384" \
            BENCH_WORKLOADS="launch pipeline mlp" \
            BENCH_VARIANTS="bare light sampled_dense syncscope" BENCH_PYTHON="$python" \
            bench/overhead/run.sh "$build"
        ;;
    sampled)
        mkdir -p "$out/sampled"
        bounded 40 sampled-run "$syncscope" run --sample 1s/2s --fail-on none \
            --trace "$out/sampled/mlp.sstrace" -o "$out/sampled/mlp.json" \
            -- "$python" "$root/bench/overhead/mlp_train.py" 2000
        bounded 10 sampled-check "$python" tests/gpu/light/check_sampled.py \
            "$out/sampled/mlp.sstrace" "$out/sampled/mlp.json" 1
        find "$out/sampled" -name '*.sstrace' -size +5M -delete 2>/dev/null
        ;;
    realcost)
        for workload in resnet_train gpt2_generate; do
            bounded 75 "realcost-$workload" env BENCH_OUT="$out/realcost-$workload.txt" \
                BENCH_WHOLE=1 BENCH_ROUNDS=2 \
                BENCH_VARIANTS="light:SYNCSCOPE_MODE=light sampled:SYNCSCOPE_SAMPLE=5s/120s" \
                bench/exit/run.sh "$build" -- "$python" "$root/tests/gpu/real/$workload.py"
        done
        ;;
    realcost1)
        # A resnet_train.py process takes about 10 s bare, 13 s under the full mode; each of
        # the three variants also runs once as a warm-up (its time printed in the log).
        rounds=${SS_REALCOST_ROUNDS:-2}
        bounded $((10 + 48 * (rounds + 1))) realcost1 env BENCH_OUT="$out/realcost1.txt" \
            BENCH_WHOLE=1 BENCH_ROUNDS="$rounds" BENCH_VARIANTS="light:SYNCSCOPE_MODE=light" \
            bench/exit/run.sh "$build" -- "$python" "$root/tests/gpu/real/resnet_train.py"
        ;;
    windows)
        mkdir -p "$out/windows"
        gap=${SS_WINDOW_GAP:-3}
        for spec in ${SS_WINDOWS:-1:4 5:2}; do
            on=${spec%%:*} pairs=${spec#*:}
            # import and warm-up, then per pair a window and a control period of ON + 1.5 s
            # of steps, each after GAP s of steps
            bounded "$(awk -v p="$pairs" -v o="$on" -v g="$gap" \
                'BEGIN { printf "%d", 25 + p * (2 * o + 6 + 2 * g) }')" "windows-${on}s" \
                "$syncscope" run --sample "${on}s/10m" --fail-on none \
                --trace "$out/windows/mlp-${on}s.sstrace" -o "$out/windows/mlp-${on}s.json" \
                -- "$python" "$root/bench/overhead/window_cost.py" "$on" "$pairs" "$gap"
            grep '^bench:' "$out/windows-${on}s.log" >>"$results"
        done
        find "$out/windows" -name '*.sstrace' -size +5M -delete 2>/dev/null
        ;;
    mlpcalls)
        mkdir -p "$out/mlpcalls"
        bounded 45 mlpcalls-run "$syncscope" run --mode light --fail-on none \
            --trace "$out/mlpcalls/mlp.sstrace" -o "$out/mlpcalls/mlp.json" \
            -- "$python" "$root/bench/overhead/mlp_train.py" 2000
        bounded 10 mlpcalls "$python" tests/gpu/light/count_calls.py "$out/mlpcalls/mlp.sstrace"
        find "$out/mlpcalls" -name '*.sstrace' -size +5M -delete 2>/dev/null
        ;;
    pinned)
        bounded 180 pinned env BENCH_OUT="$out/pinned.txt" BENCH_ROUNDS=5 BENCH_MLP_STEPS=600 \
            BENCH_CPU="${SS_BENCH_CPU:-4-7}" BENCH_WORKLOADS="mlp" BENCH_VARIANTS="bare light" \
            BENCH_PYTHON="$python" bench/overhead/run.sh "$build"
        ;;
    pairs)
        # One process imports PyTorch and forks a child per run (bare, or light through
        # CUDA_INJECTION64_PATH): no pair starts after SS_PAIRS_SECONDS.
        seconds=${SS_PAIRS_SECONDS:-80}
        bounded $((seconds + 40)) pairs "$python" bench/overhead/mlp_pairs.py "$preload" \
            "$out/pairs" --seconds "$seconds" --steps "${SS_PAIRS_STEPS:-400}" \
            --cpus "${SS_BENCH_CPU:-4-7}"
        rm -rf "$out/pairs/cache"
        ;;
    lockstep)
        seconds=${SS_LOCKSTEP_SECONDS:-100}
        bounded $((seconds + 45)) lockstep "$python" bench/overhead/mlp_lockstep.py "$preload" \
            "$out/lockstep" --seconds "$seconds" --block "${SS_LOCKSTEP_BLOCK:-100}" \
            --generations "${SS_LOCKSTEP_GENERATIONS:-2}" --cpus "${SS_BENCH_CPU:-4-7}" \
            --variants "${SS_LOCKSTEP_VARIANTS:-bare light full bare}" \
            --pairs "${SS_LOCKSTEP_PAIRS:-}"
        grep '^bench:' "$out/lockstep.log" >>"$results"
        rm -rf "$out/lockstep/cache"
        ;;
    switch)
        seconds=${SS_SWITCH_SECONDS:-60}
        bounded $((seconds + 30)) switch "$python" bench/overhead/mlp_switch.py "$preload" \
            "$out/switch" --seconds "$seconds" --block "${SS_SWITCH_BLOCK:-30}" \
            --cpus "${SS_BENCH_CPU:-4-7}"
        grep '^bench:' "$out/switch.log" >>"$results"
        rm -rf "$out/switch/cache"
        ;;
    whole)
        seconds=${SS_WHOLE_SECONDS:-100}
        for workload in ${SS_LIGHT_REAL:-resnet_train}; do
            # the modules the workload imports, timed apart from its run, and the steps whose
            # durations each run prints (bench/exit/phases.py BENCH_MARKS)
            loader=torch.utils.data.dataloader:_MultiProcessingDataLoaderIter
            case $workload in
            resnet_train)
                preimport="torch torchvision"
                marks="loader_start=$loader.__init__ loader_wait=$loader._get_data"
                marks+=" loader_exit=$loader._shutdown_workers"
                marks+=" forward=torchvision.models.resnet:ResNet.forward"
                ;;
            gpt2_generate)
                preimport="torch transformers"
                marks="generate=transformers.generation.utils:GenerationMixin.generate"
                ;;
            *) preimport=torch marks= ;;
            esac
            # a warm-up run of each variant and a round may start just before the limit
            bounded $((seconds + 60)) "whole-$workload" env BENCH_OUT="$out/whole-$workload.txt" \
                BENCH_WHOLE=1 BENCH_WHOLE_FULL="${SS_WHOLE_FULL:-0}" BENCH_ROUNDS=100 \
                BENCH_SECONDS="$seconds" BENCH_CPU="${SS_WHOLE_CPU:-8-15}" \
                BENCH_PREIMPORT="${SS_WHOLE_PREIMPORT:-$preimport}" BENCH_MARKS="$marks" \
                BENCH_WARMUP="${SS_WHOLE_WARMUP:-}" \
                BENCH_VARIANTS="light:SYNCSCOPE_MODE=light" \
                bench/exit/run.sh "$build" -- "$python" "$root/bench/exit/phases.py" \
                "$root/tests/gpu/real/$workload.py"
            grep '^bench:' "$out/whole-$workload.log" >>"$results"
        done
        ;;
    tablemicro)
        seconds=${SS_TABLE_SECONDS:-35}
        bounded $((seconds + 15)) tablemicro env BENCH_OUT="$out/tablemicro.txt" \
            BENCH_ROUNDS=100 BENCH_SECONDS="$seconds" BENCH_CPU="${SS_BENCH_CPU:-4-7}" \
            BENCH_LAUNCHES=100000 BENCH_PIPELINE_ARGS="10 16 16384" \
            BENCH_WORKLOADS="${SS_TABLE_WORKLOADS:-launch pipeline}" \
            BENCH_VARIANTS="${SS_TABLE_VARIANTS:-bare light syncscope}" \
            bench/overhead/run.sh "$build"
        grep '^bench:' "$out/tablemicro.log" >>"$results"
        ;;
    startcost)
        seconds=${SS_START_SECONDS:-15}
        bounded $((seconds + 15)) startcost env BENCH_OUT="$out/startcost.txt" \
            BENCH_WHOLE=1 BENCH_WHOLE_FULL=0 BENCH_ROUNDS=1000 BENCH_SECONDS="$seconds" \
            BENCH_CPU="${SS_WHOLE_CPU:-8-15}" \
            BENCH_VARIANTS="light:SYNCSCOPE_MODE=light sampled:SYNCSCOPE_SAMPLE=5s/120s" \
            bench/exit/run.sh "$build" -- "$python" "$root/bench/exit/cuda_start.py"
        grep '^bench:' "$out/startcost.log" >>"$results"
        ;;
    forked)
        seconds=${SS_FORKED_SECONDS:-80}
        scripts=()
        for workload in ${SS_LIGHT_REAL:-resnet_train gpt2_generate}; do
            [ ${#scripts[@]} -gt 0 ] && scripts+=("::")
            scripts+=("$root/tests/gpu/real/$workload.py")
        done
        # The import (about 15 s), then pairs until the limit; the last may start just before.
        # GPT-2's model and generation modules are imported before the fork too (a child would
        # import them otherwise, CPU work whose speed varies); should a child then fail to use
        # CUDA, the part runs again with the three packages alone (the 13:16 run's imports).
        base="torch torchvision transformers"
        gpt2="transformers.models.gpt2.modeling_gpt2 transformers.generation.utils"
        preimport=${SS_FORKED_PREIMPORT:-$base $gpt2}
        for attempt in "$preimport" "$base"; do
            bounded $((seconds + 45)) forked "$python" bench/exit/forked.py "$preload" \
                "$out/forked" --seconds "$seconds" --cpus "${SS_WHOLE_CPU:-8-15}" \
                --preimport "$attempt" -- "${scripts[@]}"
            grep -q '^bench: forked' "$out/forked.log" && break
            [ "$attempt" = "$base" ] && break
            mv "$out/forked.log" "$out/forked-first.log"
        done
        grep '^bench:' "$out/forked.log" >>"$results"
        rm -rf "$out/forked/cache"
        ;;
    race)
        bounded 60 race-build cmake --build "$build" -j16 --target gpu_light_stream_race \
            sync501_clean_shared gpu_probe
        bounded 45 race "$python" tests/gpu/light/stream_race.py --syncscope "$syncscope" \
            --probe "$probe" --program "$build/tests/gpu/gpu_light_stream_race" \
            --workdir "$out/race"
        bounded 25 graph "$python" tests/gpu/light/graph_calls.py --syncscope "$syncscope" \
            --probe "$probe" --program "$build/tests/gpu/sync501_clean_shared" \
            --workdir "$out/graph"
        find "$out/race" "$out/graph" -name '*.sstrace' -size +5M -delete 2>/dev/null
        ;;
    startwin)
        seconds=${SS_STARTWIN_FORKED_SECONDS:-90}
        variants=${SS_STARTWIN_VARIANTS:-load subscribe noop light}
        steps=
        previous=
        for variant in $variants; do
            [ -n "$previous" ] && steps+=" $variant/$previous"
            previous=$variant
        done
        base="torch torchvision transformers"
        gpt2="transformers.models.gpt2.modeling_gpt2 transformers.generation.utils"
        # the import (about 13 s) and a warm-up of bare and the first variant, then rounds of
        # every child until the limit (the last may start just before it)
        bounded $((seconds + 60)) startwin-forked "$python" bench/exit/forked.py "$preload" \
            "$out/startwin-forked" --seconds "$seconds" --cpus "${SS_WHOLE_CPU:-8-15}" \
            --variants "$variants" --steps "$steps" --timing --preimport "$base $gpt2" \
            -- "$root/tests/gpu/real/resnet_train.py" :: "$root/tests/gpu/real/gpt2_generate.py"
        grep '^bench:' "$out/startwin-forked.log" >>"$results"
        # the light children's timing lines (start, callbacks, exit), one file
        grep -H 'timing' "$out"/startwin-forked/*.log >"$out/startwin-timing.txt" 2>/dev/null
        rm -rf "$out/startwin-forked/cache"
        mkdir -p "$out/startwin-windows"
        gap=${SS_WINDOW_GAP:-1}
        for spec in ${SS_STARTWIN_WINDOWS:-mlp:5:8}; do
            IFS=: read -r workload on pairs <<<"$spec"
            # the import and warm-up, then per pair a window and a control period of ON + 1.5 s
            # of steps, each after GAP s of steps
            bounded "$(awk -v p="$pairs" -v o="$on" -v g="$gap" \
                'BEGIN { printf "%d", 30 + p * (2 * o + 4 + 2 * g) }')" "startwin-$workload-${on}s" \
                env SYNCSCOPE_TIMING=1 "$syncscope" run --sample "${on}s/10m" --fail-on none \
                -o "$out/startwin-windows/$workload-${on}s.json" \
                -- "$python" "$root/bench/overhead/window_cost.py" "$on" "$pairs" "$gap" "$workload"
            grep '^bench:' "$out/startwin-$workload-${on}s.log" | sed "s/^bench: /bench: $workload /" \
                >>"$results"
        done
        ;;
    reallock)
        # The import (10 to 15 s) counts in the seconds; after them the last generation's
        # children exit (about 1.5 s each) and the bare whole processes run (11 to 16 s each).
        seconds=${SS_REALLOCK_SECONDS:-90}
        whole=${SS_REALLOCK_WHOLE:-2}
        for workload in ${SS_REALLOCK_WORKLOADS:-resnet generate}; do
            given=
            for spec in ${SS_REALLOCK_WHOLE_BARE:-}; do
                [ "${spec%%:*}" = "$workload" ] && given=${spec#*:}
            done
            bounded $((seconds + 25 + 18 * whole)) "reallock-$workload" "$python" \
                bench/overhead/real_lockstep.py "$preload" "$out/reallock-$workload" \
                --workload "$workload" --seconds "$seconds" --whole-runs "$whole" \
                --generations "${SS_REALLOCK_GENERATIONS:-5}" --cpus "${SS_WHOLE_CPU:-8-15}" \
                --variants "${SS_REALLOCK_VARIANTS:-bare light bare light}" \
                --pairs "${SS_REALLOCK_PAIRS:-}" ${SS_REALLOCK_TIMING:+--timing} \
                ${given:+--whole-bare "$given"}
            grep '^bench:' "$out/reallock-$workload.log" >>"$results"
            rm -rf "$out/reallock-$workload/cache"
            find "$out/reallock-$workload" -name '*.err' -size +1M -delete 2>/dev/null
        done
        ;;
    realswitch)
        # The import (10 to 15 s) counts in the seconds; the exit (the finisher) after them.
        seconds=${SS_REALSWITCH_SECONDS:-95}
        timing=--timing
        if [ "${SS_REALSWITCH_TIMING:-1}" = 0 ]; then timing=; fi
        for workload in ${SS_REALSWITCH_WORKLOADS:-generate resnet}; do
            bounded $((seconds + 25)) "realswitch-$workload" "$python" \
                bench/overhead/real_switch.py "$preload" "$out/realswitch-$workload" \
                --workload "$workload" --seconds "$seconds" $timing \
                --levels "${SS_REALSWITCH_LEVELS:-light off noop}" \
                --block "${SS_REALSWITCH_BLOCK:-0}" --cpus "${SS_WHOLE_CPU:-8-15}"
            grep '^bench:' "$out/realswitch-$workload.log" >>"$results"
            grep -H 'timing' "$out/realswitch-$workload/child.err" >>"$out/realswitch-timing.txt" \
                2>/dev/null
            rm -rf "$out/realswitch-$workload/cache"
        done
        ;;
    realcalls)
        mkdir -p "$out/realcalls"
        for spec in ${SS_REALCALLS:-resnet_train:4 gpt2_generate:1}; do
            workload=${spec%%:*} size=${spec#*:}
            bounded 45 "realcalls-run-$workload" "$syncscope" run --mode light --fail-on none \
                --trace "$out/realcalls/$workload.sstrace" -o "$out/realcalls/$workload.json" \
                -- "$python" "$root/tests/gpu/real/$workload.py"
            bounded 10 "realcalls-$workload" "$python" tests/gpu/light/count_calls.py \
                "$out/realcalls/$workload.sstrace" "$size"
            head -n 30 "$out/realcalls-$workload.log" | sed "s/^/calls $workload: /" >>"$results"
        done
        find "$out/realcalls" -name '*.sstrace' -size +5M -delete 2>/dev/null
        ;;
    *)
        note "unknown part '$part'"
        ;;
    esac
done
note "total: $(($(date +%s) - started)) s"
