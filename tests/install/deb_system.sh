#!/bin/sh
# deb_system.sh DEB FIXTURE HAVE_ANALYZER HAVE_INTERPOSER RUN_INSTALLED APP RUN_NOGPU [FAKE_CUPTI
# SIGNAL_APP]: the .deb installed for real with `dpkg -i` (then purged): the command lints and
# runs from /usr/bin, man finds its page, bash finds its completion. It changes the machine, so
# it runs only as root with SYNCSCOPE_TEST_DPKG=1, or inside a chroot; elsewhere it is skipped
# (77). dpkg runs the triggers of man-db: minutes on a machine with many manual pages.
set -u
DEB=$1 FIXTURE=$2 HAVE_ANALYZER=$3 HAVE_INTERPOSER=$4 RUN_INSTALLED=$5 APP=$6 RUN_NOGPU=$7
FAKE_CUPTI=${8:-none} SIGNAL_APP=${9:-none}
if [ "$(id -u)" != 0 ] || { [ "${SYNCSCOPE_TEST_DPKG:-0}" != 1 ] && ! ischroot 2>/dev/null; }; then
    echo "skipped: dpkg -i changes this machine (run as root with SYNCSCOPE_TEST_DPKG=1, or in a chroot)"
    exit 77
fi
if dpkg-query -W -f '${Status}' syncscope 2>/dev/null | grep -q ' installed$'; then
    echo "FAIL: a syncscope package is installed already; remove it first (dpkg -r syncscope)"
    exit 1
fi
fail=0
check() { # what expected actual
    if [ "$2" != "$3" ]; then
        printf 'FAIL: %s\n--- expected\n%s\n--- actual\n%s\n' "$1" "$2" "$3"
        fail=1
    fi
}
dpkg -i "$DEB" >/dev/null 2>&1
check "dpkg -i status" 0 "$?"
check "installed" "install ok installed" "$(dpkg -s syncscope | sed -n 's/^Status: //p')"
check "syncscope on PATH" /usr/bin/syncscope "$(PATH=/usr/bin:/bin command -v syncscope)"
check "man page" /usr/share/man/man1/syncscope.1.gz "$(man -w syncscope)"
check "completion" /usr/share/bash-completion/completions/syncscope \
    "$(ls /usr/share/bash-completion/completions/syncscope)"
"$RUN_INSTALLED" /usr "$FIXTURE" "$HAVE_ANALYZER" "$HAVE_INTERPOSER" "$APP" "$RUN_NOGPU" \
    "$FAKE_CUPTI" "$SIGNAL_APP"
case $? in
0 | 77) ;;
*) fail=1 ;;
esac
dpkg --purge syncscope >/dev/null 2>&1
check "dpkg --purge status" 0 "$?"
check "removed" "" "$(ls /usr/bin/syncscope /usr/lib/syncscope 2>/dev/null)"
check "forgotten" "" "$(dpkg-query -W -f '${Status}' syncscope 2>/dev/null)"
exit $fail
