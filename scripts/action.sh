#!/bin/bash
# action.sh STEP: the shell steps of the composite GitHub Action (action.yml), one per STEP, so
# that they are plain scripts that tests/ci/action_script.py runs with exact outputs:
#   install  apt-get the build dependencies (through sudo only when not root)
#   key      the cache key of the build: the runner's system and a hash of the action's sources
#   build    build and install syncscope under RUNNER_TEMP, unless the cache restored it
#   lint     syncscope lint: the SARIF log, then the annotations and the gate's status
#   gate     fail the job on the status of lint
# The inputs come in SS_* variables (action.yml's env:), the runner's files in GITHUB_OUTPUT,
# GITHUB_PATH, RUNNER_TEMP and GITHUB_ACTION_PATH. A refused input is a workflow error
# annotation and exit status 2.
set -euo pipefail

# The build dependencies on Debian 12 and Ubuntu 24.04 (the README's table).
PACKAGES="build-essential cmake ninja-build pkg-config libclang-16-dev clang-16 libcjson-dev
libyaml-dev libdw-dev"
# How long apt waits for another apt (an unattended upgrade at boot) to let go of its lock.
APT_LOCK_TIMEOUT=600

refuse() { # MESSAGE
    echo "::error title=syncscope::$1"
    exit 2
}

# set_output NAME VALUE: one step output. A value is one line (the inputs that become outputs
# are refused before with a newline), so that it cannot add outputs of its own.
set_output() {
    case $2 in
    *$'\n'* | *$'\r'*) refuse "the output $1 would span lines" ;;
    esac
    printf '%s=%s\n' "$1" "$2" >>"$GITHUB_OUTPUT"
}

# split_words TEXT: the words of TEXT into the array WORDS, as a POSIX shell splits a command
# line but without any expansion: blanks (spaces, tabs, newlines) separate words; '...' keeps
# every character; "..." keeps every character but a backslash before " \ $ ` or a newline;
# a backslash outside quotes keeps the next character. $VAR, $(...), `...` and * ? [ are
# plain characters. Returns 1 on an unmatched quote.
split_words() {
    local text=$1 word='' have=0 quote='' i=0 n=${#1} c
    WORDS=()
    while ((i < n)); do
        c=${text:i:1}
        if [[ $quote == "'" ]]; then
            if [[ $c == "'" ]]; then quote=''; else word+=$c; fi
        elif [[ $quote == '"' ]]; then
            if [[ $c == '"' ]]; then
                quote=''
            elif [[ $c == '\' && $((i + 1)) -lt $n && ${text:i+1:1} == [\"\\\$\`] ]]; then
                i=$((i + 1))
                word+=${text:i:1}
            elif [[ $c == '\' && $((i + 1)) -lt $n && ${text:i+1:1} == $'\n' ]]; then
                i=$((i + 1))
            else
                word+=$c
            fi
        else
            case $c in
            ' ' | $'\t' | $'\n' | $'\r')
                if ((have)); then WORDS+=("$word"); fi
                word='' have=0
                ;;
            "'" | '"')
                quote=$c have=1
                ;;
            '\')
                i=$((i + 1))
                if ((i < n)) && [[ ${text:i:1} != $'\n' ]]; then
                    word+=${text:i:1} have=1
                fi
                ;;
            *)
                word+=$c have=1
                ;;
            esac
        fi
        i=$((i + 1))
    done
    [[ -z $quote ]] || return 1
    if ((have)); then WORDS+=("$word"); fi
    return 0
}

step_install() {
    local sudo=()
    if [ "$(id -u)" != 0 ]; then
        command -v sudo >/dev/null 2>&1 ||
            refuse "installing the build dependencies needs root or sudo: run the job as root, install sudo first, or set install-dependencies to 'false'"
        sudo=(sudo)
    fi
    # shellcheck disable=SC2086 # the package names are words
    "${sudo[@]}" apt-get -o DPkg::Lock::Timeout=$APT_LOCK_TIMEOUT update -qq
    "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=$APT_LOCK_TIMEOUT \
        install -y -qq --no-install-recommends $PACKAGES
}

# The key of the cached build: the system (a build links its libraries) and the hash of every
# file of the action's checkout but its tests, so that any change to the sources rebuilds.
step_key() {
    local system hash
    system=$(
        # shellcheck source=/dev/null
        . /etc/os-release 2>/dev/null || true
        echo "${ID:-unknown}-${VERSION_ID:-unknown}-$(uname -m)"
    )
    hash=$(cd "$GITHUB_ACTION_PATH" &&
        find . \( -path ./.git -o -path ./tests -o -path ./build \) -prune -o -type f -print0 |
        LC_ALL=C sort -z | xargs -0 sha256sum | sha256sum | cut -c1-20)
    set_output key "syncscope-$system-$hash"
    set_output prefix "$RUNNER_TEMP/syncscope"
}

step_build() {
    local build=$RUNNER_TEMP/syncscope-build prefix=$RUNNER_TEMP/syncscope
    if [ "${SS_CACHE_HIT:-}" = true ] && [ -x "$prefix/bin/syncscope" ]; then
        echo "syncscope: restored from the cache ($prefix), not built"
    else
        cmake -S "$GITHUB_ACTION_PATH" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
            -DSYNCSCOPE_TESTS=OFF -DSYNCSCOPE_SAMPLES=OFF -DSYNCSCOPE_INTERPOSER=OFF
        cmake --build "$build"
        cmake --install "$build" --prefix "$prefix"
    fi
    echo "$prefix/bin" >>"$GITHUB_PATH"
    set_output syncscope "$prefix/bin/syncscope"
}

step_lint() {
    local tool=${SS_TOOL:-syncscope} found
    if ! command -v "$tool" >/dev/null 2>&1; then
        refuse "syncscope is not on PATH: set build-from-source to 'true' or install it first"
    fi
    if [ -n "${SS_VERSION:-}" ]; then
        # The whole output, then its first line: 'head -1' may close the pipe before the
        # tool has written its later lines, and pipefail then fails on its SIGPIPE.
        found=$("$tool" --version)
        found=${found%%$'\n'*}
        [ "$found" = "syncscope $SS_VERSION" ] ||
            refuse "wanted syncscope $SS_VERSION, found $found"
    fi
    case $SS_SARIF in
    '') refuse "sarif-file is empty" ;;
    *$'\n'* | *$'\r'*) refuse "sarif-file must be one line (it has a line break)" ;;
    esac
    local args=() paths=()
    if [ -n "${SS_COMPDB:-}" ]; then args+=(-p "$SS_COMPDB"); fi
    split_words "${SS_ARGS:-}" || refuse "args: a quote is not closed: ${SS_ARGS//$'\n'/ }"
    args+=(${WORDS[@]+"${WORDS[@]}"})
    split_words "${SS_PATHS:-}" || refuse "paths: a quote is not closed: ${SS_PATHS//$'\n'/ }"
    paths=(${WORDS[@]+"${WORDS[@]}"})
    if [ ${#paths[@]} -eq 0 ] && [ -z "${SS_COMPDB:-}" ]; then paths=(.); fi
    # Every finding goes to code scanning, whatever fail-on says; '--' ends the options, so a
    # path that starts with '-' is a path.
    mkdir -p "$(dirname -- "$SS_SARIF")"
    "$tool" lint ${args[@]+"${args[@]}"} --format sarif -o "$SS_SARIF" --fail-on none \
        -- ${paths[@]+"${paths[@]}"}
    set_output sarif-file "$SS_SARIF"
    # The annotations (the results of the first run come from lint's cache), and the status
    # that the gate step judges.
    local format=text status=0
    if [ "${SS_ANNOTATE:-true}" = true ]; then format=github; fi
    "$tool" lint ${args[@]+"${args[@]}"} --format "$format" --fail-on "$SS_FAIL_ON" \
        -- ${paths[@]+"${paths[@]}"} || status=$?
    set_output exit-code "$status"
    if [ "$status" -gt 1 ]; then exit "$status"; fi
}

step_gate() {
    if [ "$SS_STATUS" != 0 ]; then
        echo "syncscope: findings at or above '$SS_FAIL_ON' (exit status $SS_STATUS)"
        exit "$SS_STATUS"
    fi
}

case ${1:-} in
install | key | build | lint | gate) "step_$1" ;;
*)
    echo "usage: action.sh install|key|build|lint|gate" >&2
    exit 2
    ;;
esac
