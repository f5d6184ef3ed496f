# common.sh: what the what-if device scripts (device_run.sh, samples_run.sh) share; sourced
# after the caller has set 'deadline' (seconds since the epoch), 'root' (the repository) and
# a function 'log'.

# bounded LIMIT CMD...: runs CMD for at most LIMIT seconds and what the budget has left.
bounded() {
    local limit=$1 left
    shift
    left=$((deadline - $(date +%s)))
    [ "$left" -lt "$limit" ] && limit=$left
    if [ "$limit" -le 2 ]; then
        log "out of time budget: $*"
        return 124
    fi
    timeout "$limit" "$@"
}

# manifest_head: the first lines of a MANIFEST: when, on which GPU and driver, from which
# commit, with which nvcc.
manifest_head() {
    echo "recorded: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
    echo "gpu: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -1)"
    echo "source: ${SYNCSCOPE_SOURCE_COMMIT:-$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)}"
    echo "nvcc: $(nvcc --version 2>/dev/null | tail -1)"
}
