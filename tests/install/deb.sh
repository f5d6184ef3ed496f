#!/bin/sh
# deb.sh BUILD OUT HAVE_ANALYZER HAVE_INTERPOSER RUN_INSTALLED FIXTURE APP RUN_NOGPU [FAKE_CUPTI
# SIGNAL_APP]: the .deb
# that `cpack -G DEB` makes from BUILD: its files exactly (paths, modes, owners), its control
# fields, a Depends that names exactly the packages of the libraries its programs need (as
# dpkg -S finds them, independently of dpkg-shlibdeps), and a real `dpkg -i` into a scratch
# root (a copy of this machine's package database, so dependencies are checked against it;
# maintainer scripts run outside a chroot, with a stub ldconfig), from which the command
# lints and runs (run_installed.sh); then `dpkg --purge` removes every file. The package is left
# in OUT for install_deb_system. SS_TEST_VERSION: the version of the package.
set -u
BUILD=$1 OUT=$2 HAVE_ANALYZER=$3 HAVE_INTERPOSER=$4 RUN_INSTALLED=$5 FIXTURE=$6 APP=$7 RUN_NOGPU=$8
FAKE_CUPTI=${9:-none} SIGNAL_APP=${10:-none}
SOURCE=$(sed -n 's/^CMAKE_HOME_DIRECTORY:INTERNAL=//p' "$BUILD/CMakeCache.txt")
fail=0
check() { # what expected actual
    if [ "$2" != "$3" ]; then
        printf 'FAIL: %s\n--- expected\n%s\n--- actual\n%s\n' "$1" "$2" "$3"
        fail=1
    fi
}
rm -rf "$OUT"
mkdir -p "$OUT"
cpack -G DEB -B "$OUT" --config "$BUILD/CPackConfig.cmake" >"$OUT/cpack.log" 2>&1 || {
    cat "$OUT/cpack.log"
    exit 1
}
DEB=$OUT/syncscope_${SS_TEST_VERSION}_$(dpkg --print-architecture).deb
[ -f "$DEB" ] || {
    echo "FAIL: no $DEB"
    ls "$OUT"
    exit 1
}

# The files, exactly.
rules=$("$BUILD/cli/syncscope" rules | cut -d' ' -f1)
expected=$(
    d() { echo "drwxr-xr-x root/root ./usr/$1"; }
    f() { echo "-rw-r--r-- root/root ./usr/$1"; }
    d ""
    d bin/
    echo "-rwxr-xr-x root/root ./usr/bin/syncscope"
    d lib/
    d lib/cmake/
    d lib/cmake/syncscope/
    f lib/cmake/syncscope/syncscopeConfig.cmake
    f lib/cmake/syncscope/syncscopeConfigVersion.cmake
    f lib/cmake/syncscope/syncscopeLint.cmake
    d lib/python3/
    d lib/python3/dist-packages/
    d lib/python3/dist-packages/syncscope/
    f lib/python3/dist-packages/syncscope/__init__.py
    if [ "$HAVE_INTERPOSER" = ON ]; then
        d lib/syncscope/
        f lib/syncscope/libsyncscope.so
        f lib/syncscope/libsyncscope_finish.so
    fi
    d share/
    d share/bash-completion/
    d share/bash-completion/completions/
    f share/bash-completion/completions/syncscope
    d share/doc/
    d share/doc/syncscope/
    f share/doc/syncscope/changelog.gz
    f share/doc/syncscope/copyright
    d share/doc/syncscope/rules/
    f share/doc/syncscope/rules/README.md
    for id in $rules; do f "share/doc/syncscope/rules/$id.md"; done
    d share/man/
    d share/man/man1/
    f share/man/man1/syncscope.1.gz
    d share/man/man7/
    f share/man/man7/syncscope-rules.7.gz
)
check "dpkg-deb -c" "$expected" "$(dpkg-deb -c "$DEB" | awk '{print $1, $2, $6}')"

# The control fields.
check "control" "syncscope
$SS_TEST_VERSION
$(dpkg --print-architecture)
devel
optional
CUDA implicit synchronization finder" "$(for field in Package Version Architecture Section Priority; do dpkg-deb -f "$DEB" $field; done; dpkg-deb -f "$DEB" Description | head -1)"

# Depends: one package per library that a packaged program or library needs, no other.
depends=$(dpkg-deb -f "$DEB" Depends | tr ',' '\n' | sed 's/^ *//; s/ .*//' | LC_ALL=C sort -u)
unpacked=$OUT/unpacked
dpkg-deb -x "$DEB" "$unpacked"
needed=$(
    for elf in "$unpacked/usr/bin/syncscope" "$unpacked"/usr/lib/syncscope/*.so; do
        [ -f "$elf" ] || continue
        for soname in $(readelf -d "$elf" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'); do
            # "libc.so.6 => /lib/.../libc.so.6 (0x...)", or for the dynamic linker
            # "/lib64/ld-linux-x86-64.so.2 (0x...)".
            path=$(ldd "$elf" | awk -v s="$soname" '$1 == s && $2 == "=>" {print $3}
                $1 ~ ("/" s "$") {print $1}' | head -1)
            owner=
            if [ -n "$path" ]; then
                for candidate in "$path" "$(realpath "$path")" "/usr$path"; do
                    owner=$(dpkg -S "$candidate" 2>/dev/null | head -1 | cut -d: -f1)
                    [ -n "$owner" ] && break
                done
            fi
            echo "${owner:-unowned:$soname}"
        done
    done
    echo python3 # the Python module's
)
needed=$(echo "$needed" | LC_ALL=C sort -u)
check "Depends (as dpkg -S finds the libraries, and python3)" "$needed" "$depends"
for package in libc6 libcjson1; do
    echo "$depends" | grep -qx "$package" || { echo "FAIL: Depends lacks $package"; fail=1; }
done
if [ "$HAVE_ANALYZER" = ON ]; then
    for package in libclang1-16 libyaml-0-2; do
        echo "$depends" | grep -qx "$package" || { echo "FAIL: Depends lacks $package"; fail=1; }
    done
fi

# The packaged documentation: the copyright file names the licence and holds LICENSE's text;
# the manual pages and the changelog are gzip's, without a name or time stamp.
check "copyright" "Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/
Upstream-Name: syncscope

Files: *
Copyright: 2026 The syncscope developers
License: MIT
 MIT License" "$(head -7 "$unpacked/usr/share/doc/syncscope/copyright")"
check "copyright: the LICENSE text" "$(sed 's/^$/./; s/^/ /' "$SOURCE/LICENSE")" \
    "$(sed -n '7,$p' "$unpacked/usr/share/doc/syncscope/copyright")"
check "changelog" "syncscope ($SS_TEST_VERSION) unstable; urgency=medium" \
    "$(gzip -dc "$unpacked/usr/share/doc/syncscope/changelog.gz" | head -1)"
check "gzip -n" "" "$(for gz in "$unpacked/usr/share/doc/syncscope/changelog.gz" \
    "$unpacked"/usr/share/man/man*/*.gz; do
        # The flags (no FNAME) and the time stamp (0) of the gzip header.
        [ "$(od -An -tx1 -j3 -N5 "$gz" | tr -d ' ')" = 0000000000 ] || echo "$gz"
    done)"

# dpkg -i into a scratch root whose database is a copy of this machine's, without syncscope
# (which may be installed here: the test must not depend on it).
ROOT=$OUT/root
mkdir -p "$ROOT/var/lib/dpkg/info" "$ROOT/var/lib/dpkg/updates" "$OUT/stub"
awk 'BEGIN {RS = ""; ORS = "\n\n"} $0 !~ /(^|\n)Package: syncscope\n/' /var/lib/dpkg/status \
    >"$ROOT/var/lib/dpkg/status"
: >"$ROOT/var/lib/dpkg/available"
dpkg-query -W -f '${binary:Package}\n' | grep -vx syncscope | while read -r package; do
    : >"$ROOT/var/lib/dpkg/info/$package.list"
done
printf '#!/bin/sh\necho "ldconfig $*" >>"%s/ldconfig.log"\n' "$OUT" >"$OUT/stub/ldconfig"
chmod +x "$OUT/stub/ldconfig"
scratch_dpkg() {
    PATH="$OUT/stub:$PATH" dpkg --root="$ROOT" --force-script-chrootless --force-not-root "$@"
}
scratch_dpkg -i "$DEB" >"$OUT/dpkg-i.log" 2>&1
check "dpkg -i status" 0 "$?"
check "dpkg -i output" "Selecting previously unselected package syncscope.
Preparing to unpack $DEB ...
Unpacking syncscope ($SS_TEST_VERSION) ...
Setting up syncscope ($SS_TEST_VERSION) ..." "$(grep -v '^(Reading database' "$OUT/dpkg-i.log" | sed "s|\.\.\./[^ ]*\.deb|$DEB|")"
check "installed" "install ok installed" "$(dpkg --root="$ROOT" -s syncscope | sed -n 's/^Status: //p')"
check "dpkg -L" "$(dpkg-deb -c "$DEB" | awk '{print $6}' | sed 's|^\./|/|; s|/$||' | LC_ALL=C sort)" \
    "$(dpkg --root="$ROOT" -L syncscope | grep -v '^/\.$' | LC_ALL=C sort)"
if [ "$HAVE_INTERPOSER" = ON ]; then
    check "postinst ldconfig" "ldconfig " "$(cat "$OUT/ldconfig.log")"
fi
"$RUN_INSTALLED" "$ROOT/usr" "$FIXTURE" "$HAVE_ANALYZER" "$HAVE_INTERPOSER" "$APP" "$RUN_NOGPU" \
    "$FAKE_CUPTI" "$SIGNAL_APP"
case $? in
0 | 77) ;;
*) fail=1 ;;
esac

scratch_dpkg --purge syncscope >"$OUT/dpkg-purge.log" 2>&1
check "dpkg --purge status" 0 "$?"
check "files left after dpkg --purge" "" "$(find "$ROOT/usr" -type f 2>/dev/null)"
check "purged" "" "$(dpkg-query --admindir="$ROOT/var/lib/dpkg" -W -f '${Status}' syncscope 2>/dev/null)"
rm -rf "$ROOT" "$unpacked"
exit $fail
