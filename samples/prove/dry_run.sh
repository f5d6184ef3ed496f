#!/bin/sh
# dry_run.sh: runs prove.sh without a GPU, on stand-in programs that print what the samples
# print and a stand-in `syncscope run` that writes a synthetic trace (fake_trace.py) and
# analyzes it with the real syncscope, so the extra figures come from the real detectors.
# Checks the verdict and the table twice: fixed programs that match the predictions (exit 0),
# then a graph replay much faster than predicted (exit 1).
# Usage: dry_run.sh SYNCSCOPE WORKDIR
# Exit status: 0 pass, 1 fail.
set -u
[ "$#" -eq 2 ] || {
    echo "usage: $0 SYNCSCOPE WORKDIR" >&2
    exit 2
}
syncscope=$1
work=$2
here=$(cd "$(dirname "$0")" && pwd)
python=${PYTHON:-python3}
rm -rf "$work"
b=$work/build
mkdir -p "$b/cli" "$b/samples/pipeline" "$b/samples/launch_overhead" || exit 1

program() {
    # program PATH LINES...: a stand-in that prints LINES and 'ok'.
    path=$1
    shift
    {
        echo '#!/bin/sh'
        for line in "$@"; do
            printf "echo '%s'\n" "$line"
        done
        echo "echo ok"
    } >"$path"
    chmod +x "$path"
}
program "$b/samples/pipeline/naive" "10 chunks: 144.0 MiB in, 96.0 MiB out, 2000 kernel iterations" \
    "per chunk (host clock): copy in 20.100 ms, kernel + copy out 21.600 ms" \
    "total: 418.900 ms for 10 chunks"
cat >"$b/samples/pipeline/fixed" <<'EOF'
#!/bin/sh
echo "per chunk (events): copy in 2.790 ms (54.1 GB/s), kernel 6.520 ms, copy out 1.830 ms (55.0 GB/s)"
echo "total: ${SS_FAKE_PIPELINE_MS:-69.800} ms for 10 chunks (events)"
echo ok
EOF
program "$b/samples/launch_overhead/naive" "50 kernels launched one by one, 1000 iterations" \
    "host submission: 190.00 us per iteration" "GPU time:        190.50 us per iteration"
cat >"$b/samples/launch_overhead/fixed" <<'EOF'
#!/bin/sh
echo "50 kernels replayed as one graph, 1000 iterations"
echo "host submission: 2.10 us per iteration"
echo "GPU time:        ${SS_FAKE_GRAPH_US:-36.70} us per iteration"
echo ok
EOF
# The stand-in syncscope: `run ... -o JSON --trace TRACE -- PROGRAM` runs PROGRAM, writes the
# synthetic trace of its sample and the real analysis of it; `analyze` is the real one.
cat >"$b/cli/syncscope" <<EOF
#!/bin/sh
if [ "\$1" = analyze ]; then
    exec "$syncscope" "\$@"
fi
json= trace=
while [ "\$#" -gt 0 ] && [ "\$1" != -- ]; do
    case \$1 in
    -o) json=\$2; shift ;;
    --trace) trace=\$2; shift ;;
    esac
    shift
done
shift
case \$1 in
*/pipeline/naive) kind=pipeline ;;
*) kind=launch ;;
esac
"\$@" || exit \$?
"$python" "$here/fake_trace.py" \$kind "\$trace" || exit 1
"$syncscope" analyze --format json -o "\$json" "\$trace" >/dev/null
exit 0
EOF
chmod +x "$b/cli/syncscope" "$b/samples/pipeline/fixed" "$b/samples/launch_overhead/fixed"

failed=0
SS_PROVE_NO_GPU_CHECK=1 sh "$here/prove.sh" -o "$work/good" "$b" >"$work/good.out" 2>&1
status=$?
cat "$work/good.out"
if [ "$status" -ne 0 ]; then
    echo "FAIL: prove.sh exited with $status on matching predictions"
    failed=1
fi
for expected in \
    '| pipeline (10 chunks) | SYNC503 | 418.90 ms | 418.78 ms | 69.86 ms | 69.80 ms | 0.1% |' \
    '| launch_overhead (per iteration of 50 kernels) | SYNC502 | 190.50 us | 274.91 us | 35.00 us | 36.70 us | 4.6% |' \
    'prove: both predictions within 20%'; do
    if ! grep -qxF "$expected" "$work/good.out"; then
        echo "FAIL: missing line: $expected"
        failed=1
    fi
done
if ! grep -qx 'SYNC503 /work/main/samples/pipeline/naive.cu 30 1' "$work/good/pipeline_naive.expect" ||
    ! grep -qx 'SYNC502 /work/main/samples/launch_overhead/naive.cu 39 1' \
        "$work/good/launch_naive_small.expect"; then
    echo "FAIL: the replay expectations lack the what-if findings"
    failed=1
fi

SS_FAKE_GRAPH_US=20.00 SS_PROVE_NO_GPU_CHECK=1 sh "$here/prove.sh" -o "$work/bad" "$b" \
    >"$work/bad.out" 2>&1
status=$?
if [ "$status" -ne 1 ] ||
    ! grep -qxF 'prove: launch_overhead: the prediction is off by 75.0% (more than 20%)' \
        "$work/bad.out"; then
    echo "FAIL: a 75% error gave exit status $status and:"
    cat "$work/bad.out"
    failed=1
fi
[ "$failed" -eq 0 ] && echo "dry run: ok"
exit "$failed"
