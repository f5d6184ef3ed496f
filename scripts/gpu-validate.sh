#!/bin/sh
# gpu-validate.sh: every check that needs a GPU, in one place, for a machine that has one but
# may lack apt (it builds with the `device` preset). Each stage writes its log into OUT_DIR;
# at the end OUT_DIR/results.tgz packs everything (traces, JSON, tables) and
# OUT_DIR/summary.txt says what passed.
# Usage: scripts/gpu-validate.sh OUT_DIR [STAGE...]
#   stages (default: all, in this order):
#     build    configure and build the `device` preset (libclang not needed)
#     tests    ctest -L gpu: every GPU test program, static and shared cudart, the lifecycle
#              programs, the PyTorch samples and prove.samples (exact findings, unchanged
#              output and exit status); their result folders are kept in OUT_DIR
#     traces   tests/gpu/record_traces.sh: traces of every GPU test program for tests/data
#     prove    samples/prove/prove.sh: SYNC502/SYNC503 predictions against the fixed samples
#     bench    bench/overhead/run.sh: bare vs CUPTI floor vs syncscope (interleaved rounds)
#     lifecycle (not in the default list: `tests` runs these too) ctest -L gpu -R lifecycle:
#              signals, the program's own handler, exit() from a thread, fork, 32 threads and
#              another CUPTI client (tests/gpu/lifecycle/); their outputs in OUT_DIR
#     real     (not in the default list) tests/gpu/real/run_real.sh: ResNet-18 with a DataLoader,
#              GPT-2 generate, CuPy and JAX, each bare, under syncscope and (PyTorch) under
#              set_sync_debug_mode("warn"); tables recall and wall times (REAL_BUDGET_S)
#     realbench (not in the default list) bench/exit/run.sh on each real workload
#              (REAL_WORKLOADS): bare, the CUPTI floor, a user's run (no trace, cache warm) and
#              the traced runs, interleaved (BENCH_ROUNDS, default 2), within REAL_BUDGET_S;
#              each through bench/exit/phases.py (where the time goes); REAL_FLOOR= (empty)
#              leaves the floor out
#     multi    (not in the default list; run it on a two-GPU machine) ctest -L gpu -R multi:
#              one process on two GPUs and a two-rank PyTorch DDP step (tests/gpu/multi/),
#              then their traces as replay cases (tests/gpu/multi/record_multi_traces.sh)
# Environment: BUILD_DIR (default build/device); on a machine without apt, first
#   eval "$(scripts/offline-prefix.sh DEB_DIR PREFIX)" so CMake finds cJSON, libdw and Check.
set -u
out=${1:?usage: gpu-validate.sh OUT_DIR [STAGE...]}
shift
[ "$#" -gt 0 ] || set -- build tests traces prove bench
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-build/device}
mkdir -p "$out" || exit 2
out=$(cd "$out" && pwd)
cd "$root" || exit 2
summary="$out/summary.txt"
{
    echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
    echo "gpu: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -1)"
    echo "commit: ${SYNCSCOPE_SOURCE_COMMIT:-$(git rev-parse --short HEAD 2>/dev/null || echo unknown)}"
} >"$summary"
status=0
stage_done() { # NAME RC
    echo "$1: $( [ "$2" = 0 ] && echo passed || echo "FAILED (exit $2)")" >>"$summary"
    [ "$2" = 0 ] || status=1
}
for stage in "$@"; do
    case $stage in
    build)
        { cmake --preset device && cmake --build "$build" -j "$(nproc)"; } >"$out/build.log" 2>&1
        stage_done build $?
        ;;
    tests)
        ctest --test-dir "$build" -L gpu --output-on-failure >"$out/gpu-tests.log" 2>&1
        rc=$?
        grep -E "tests passed|Failed|Skipped" "$out/gpu-tests.log" | tail -40 >>"$summary"
        rm -rf "$out/python-results" "$out/lifecycle-results" "$out/prove-results"
        cp -r "$build/tests/gpu/python/results" "$out/python-results" 2>/dev/null
        cp -r "$build/tests/gpu/lifecycle/results" "$out/lifecycle-results" 2>/dev/null
        cp -r "$build/tests/prove/samples" "$out/prove-results" 2>/dev/null
        stage_done tests $rc
        ;;
    traces)
        tests/gpu/record_traces.sh "$build" "$out/traces" >"$out/traces.log" 2>&1
        stage_done traces $?
        ;;
    prove)
        sh samples/prove/prove.sh -o "$out/prove" "$build" >"$out/prove.log" 2>&1
        rc=$?
        cat "$out/prove/table.md" >>"$summary" 2>/dev/null
        stage_done prove $rc
        ;;
    bench)
        BENCH_OUT="$out/overhead.txt" bash bench/overhead/run.sh "$build" >"$out/bench.log" 2>&1
        rc=$?
        cat "$out/overhead.txt" >>"$summary" 2>/dev/null
        stage_done bench $rc
        ;;
    lifecycle)
        ctest --test-dir "$build" -L gpu -R lifecycle --output-on-failure \
            >"$out/lifecycle-tests.log" 2>&1
        rc=$?
        grep -E "tests passed|Failed|Skipped|Not Run" "$out/lifecycle-tests.log" | tail -20 >>"$summary"
        rm -rf "$out/lifecycle-results"
        cp -r "$build/tests/gpu/lifecycle/results" "$out/lifecycle-results" 2>/dev/null
        stage_done lifecycle $rc
        ;;
    real)
        bash tests/gpu/real/run_real.sh "$build" "$out/real" >"$out/real.log" 2>&1
        rc=$?
        cat "$out/real/results.md" >>"$summary" 2>/dev/null
        stage_done real $rc
        ;;
    realbench)
        mkdir -p "$out/realbench"
        rc=0
        bench_end=$(($(date +%s) + ${REAL_BUDGET_S:-400}))
        for w in ${REAL_WORKLOADS:-resnet_train gpt2_generate cupy_loop jax_loop}; do
            left=$((bench_end - $(date +%s)))
            if [ "$left" -lt 30 ]; then
                echo "realbench $w: skipped (time budget)" >>"$summary"
                continue
            fi
            case $w in # what the workload imports first (bench/exit/phases.py)
            resnet_train) pre="torch torchvision" ;;
            gpt2_generate) pre="torch transformers transformers.models.gpt2.modeling_gpt2 transformers.generation.utils" ;;
            timm_infer) pre="torch timm" ;;
            cupy_loop) pre="cupy" ;;
            jax_loop) pre="jax" ;;
            *) pre="torch" ;;
            esac
            BENCH_ROUNDS=${BENCH_ROUNDS:-2} BENCH_MODULES=none BENCH_PLAIN=1 \
                BENCH_FLOOR="${REAL_FLOOR-$build/bench/overhead/libcupti_floor.so}" \
                BENCH_PREIMPORT="$pre" BENCH_OUT="$out/realbench/$w.md" timeout "$left" \
                bash bench/exit/run.sh "$build" -- \
                python3 bench/exit/phases.py "tests/gpu/real/$w.py" \
                >"$out/realbench/$w.log" 2>&1
            r=$?
            echo "realbench $w: exit $r" >>"$summary"
            sed -n '1,12p' "$out/realbench/$w.md" >>"$summary" 2>/dev/null
            [ "$r" = 0 ] || rc=$r
        done
        stage_done realbench $rc
        ;;
    multi)
        NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1 \
            ctest --test-dir "$build" -L gpu -R multi --output-on-failure >"$out/multi-tests.log" 2>&1
        rc=$?
        grep -E "tests passed|Failed|Skipped|Not Run" "$out/multi-tests.log" | tail -20 >>"$summary"
        rm -rf "$out/multi-results"
        cp -r "$build/tests/gpu/multi/results" "$out/multi-results" 2>/dev/null
        if [ "$rc" = 0 ]; then
            tests/gpu/multi/record_multi_traces.sh "$build" "$out/multi-traces" \
                >"$out/multi-traces.log" 2>&1
            rc=$?
        fi
        stage_done multi $rc
        ;;
    *)
        echo "gpu-validate: unknown stage '$stage'" >&2
        exit 2
        ;;
    esac
done
(cd "$out" && tar czf results.tgz --exclude=results.tgz . 2>/dev/null)
cat "$summary"
exit $status
