#!/bin/sh
# run_installed.sh STAGE FIXTURE HAVE_ANALYZER HAVE_INTERPOSER APP RUN_NOGPU [FAKE_CUPTI
# SIGNAL_APP]: the installed command, run from a folder outside the source and build trees:
# `syncscope lint` reports the fixture's findings (rules and places) exactly, with its
# .syncscope.yml (which marks step() hot: a warning needs a loop lint sees, or that);
# `syncscope run` preloads the installed libsyncscope.so (found as ../lib/syncscope), prints its
# one "no GPU" line and leaves the program's output and exit status alone; a copy of the
# command without its libraries says so instead of using the build tree's. With the fake CUPTI
# of tests/signal/ the installed library records a run and loads the installed finisher from
# its own folder, which writes the result; without that finisher, it says so and writes nothing.
# SS_TEST_VERSION: the version it must report.
set -u
STAGE=$1 FIXTURE=$2 HAVE_ANALYZER=$3 HAVE_INTERPOSER=$4 APP=$5 RUN_NOGPU=$6
FAKE_CUPTI=${7:-none} SIGNAL_APP=${8:-none}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
WORK=$(cd -P "$WORK" && pwd)
STAGE=$(cd -P "$STAGE" && pwd)
cd "$WORK" || exit 1
cp -R "$FIXTURE/src" "$WORK/src"
cp "$FIXTURE/.syncscope.yml" "$WORK/"
unset SYNCSCOPE_OUTPUT SYNCSCOPE_TRACE SYNCSCOPE_QUIET SYNCSCOPE_FORMAT LD_PRELOAD
fail=0
check() { # what expected actual
    if [ "$2" != "$3" ]; then
        printf 'FAIL: %s\n--- expected\n%s\n--- actual\n%s\n' "$1" "$2" "$3"
        fail=1
    fi
}
SS=$STAGE/bin/syncscope

check "version" "syncscope $SS_TEST_VERSION" "$("$SS" --version | head -1)"

if [ "$HAVE_ANALYZER" = ON ]; then
    "$SS" lint --format github --color never src/pipeline.cu >lint.out 2>lint.err
    check "lint status" 1 "$?"
    # Rules and places exactly (the wording is the analyzer tests' business).
    check "lint findings" "::warning file=src/pipeline.cu,line=13,col=5,title=SYNC201 pageable-async-copy
::warning file=src/pipeline.cu,line=14,col=5,title=SYNC101 default-stream-launch" \
        "$(sed 's/^\(::[a-z]* [^:]*\)::.*/\1/' lint.out)"
    check "lint stderr" "" "$(cat lint.err)"
fi

if [ "$HAVE_INTERPOSER" = ON ]; then
    # A copy of the command without lib/syncscope/ beside it.
    mkdir -p bare/bin
    cp "$SS" bare/bin/syncscope
    "$WORK/bare/bin/syncscope" run -- true >bare.out 2>bare.err
    check "run without its library: status" 2 "$?"
    check "run without its library: message" "syncscope: error: libsyncscope.so not found beside $WORK/bare/bin (looked in ., ../lib/syncscope, ../lib, ../interpose); reinstall syncscope" "$(cat bare.err)"

    if [ "$FAKE_CUPTI" != none ]; then
        # A recorded run: the finisher beside the installed library writes the result.
        "$SS" run -q --cupti "$FAKE_CUPTI" -o "$WORK/fake.json" -- "$SIGNAL_APP" exit >fake.out 2>fake.err
        check "fake run status" 0 "$?"
        check "fake run result" '"format":	"syncscope-result",' "$(grep -o '"format":.*' "$WORK/fake.json" 2>/dev/null)"
        check "fake run stderr" "" "$(cat fake.err)"
        # The same prefix without the finisher: nothing is written, and the message says where
        # the finisher was looked for.
        cp -R "$STAGE" "$WORK/nofinish"
        rm "$WORK/nofinish/lib/syncscope/libsyncscope_finish.so"
        "$WORK/nofinish/bin/syncscope" run -q --cupti "$FAKE_CUPTI" -o "$WORK/nofinish.json" -- \
            "$SIGNAL_APP" exit >nofinish.out 2>nofinish.err
        check "run without the finisher: status" 0 "$?"
        check "run without the finisher: message" "syncscope: cannot load $WORK/nofinish/lib/syncscope/libsyncscope_finish.so" \
            "$(sed 's/ (.*//' nofinish.err)"
        check "run without the finisher: no result" "" "$(ls "$WORK/nofinish.json" 2>/dev/null)"
    fi

    if [ -e /dev/nvidiactl ]; then
        echo "a GPU is visible here: the no-GPU checks are for machines without one"
        exit $((fail ? 1 : 77))
    fi
    "$SS" run -- sh -c 'printf "%s\n" "$LD_PRELOAD"; echo to-stderr >&2; exit 3' >run.out 2>run.err
    check "run status" 3 "$?"
    check "run preloads the installed library" "$STAGE/lib/syncscope/libsyncscope.so" "$(cat run.out)"
    check "run stderr: the program's line" "to-stderr" "$(grep -v '^syncscope: ' run.err)"
    line=$(grep '^syncscope: ' run.err)
    case $line in
    "syncscope: CUPTI cannot start here ("*"no usable GPU or driver?); the program runs unobserved" | \
        "syncscope: no CUPTI library found (set SYNCSCOPE_CUPTI_PATH to libcupti.so or its folder); the program runs unobserved") ;;
    *)
        echo "FAIL: run's no-GPU line: [$line]"
        fail=1
        ;;
    esac
    check "run: one syncscope line" 1 "$(grep -c '^syncscope: ' run.err)"
    check "run: no result file" "" "$(ls syncscope-*.json 2>/dev/null)"
    # The no-GPU suite of tests/nogpu/, with the installed library and command.
    "$RUN_NOGPU" "$APP" "$STAGE/lib/syncscope/libsyncscope.so" "$SS" || fail=1
fi
exit $fail
