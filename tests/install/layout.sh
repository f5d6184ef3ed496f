#!/bin/sh
# layout.sh SOURCE BUILD STAGE WORK HAVE_INTERPOSER: the installed files are exactly the
# documented layout (docs/install.md) under `--prefix STAGE` and under DESTDIR with prefix
# /usr; the rule pages are those of docs/rules/; nothing installed refers to the build tree
# (no RPATH/RUNPATH) and every library the installed files need is found.
set -u
SOURCE=$1 BUILD=$2 STAGE=$3 WORK=$4 HAVE_INTERPOSER=$5
fail=0
check() { # what expected actual
    if [ "$2" != "$3" ]; then
        printf 'FAIL: %s\n--- expected\n%s\n--- actual\n%s\n' "$1" "$2" "$3"
        fail=1
    fi
}
files_under() { (cd "$1" && find . \( -type f -o -type l \) | sed 's|^\./||' | LC_ALL=C sort); }

rules=$("$STAGE/bin/syncscope" rules | cut -d' ' -f1)
expected=$(
    {
        echo bin/syncscope
        echo lib/cmake/syncscope/syncscopeConfig.cmake
        echo lib/cmake/syncscope/syncscopeConfigVersion.cmake
        echo lib/cmake/syncscope/syncscopeLint.cmake
        if [ "$HAVE_INTERPOSER" = ON ]; then
            echo lib/syncscope/libsyncscope.so
            echo lib/syncscope/libsyncscope_finish.so
        fi
        echo lib/python3/dist-packages/syncscope/__init__.py
        echo share/bash-completion/completions/syncscope
        echo share/doc/syncscope/rules/README.md
        for id in $rules; do echo "share/doc/syncscope/rules/$id.md"; done
        echo share/man/man1/syncscope.1
        echo share/man/man7/syncscope-rules.7
    } | LC_ALL=C sort
)
check "files under --prefix" "$expected" "$(files_under "$STAGE")"
# One page per rule of the catalog, as many as docs/rules/ holds.
check "rule count" "$(ls "$SOURCE"/docs/rules/SYNC*.md | wc -l)" "$(echo "$rules" | wc -l)"

# The same files under DESTDIR, and nothing beside the prefix.
rm -rf "$WORK"
DESTDIR="$WORK" cmake --install "$BUILD" --prefix /usr >/dev/null
check "DESTDIR top level" "usr" "$(ls "$WORK")"
check "files under DESTDIR/usr" "$expected" "$(files_under "$WORK/usr")"

# The rule pages are the catalog's, as in the sources.
diff -r "$SOURCE/docs/rules" "$STAGE/share/doc/syncscope/rules" || {
    echo "FAIL: the installed rule pages differ from docs/rules/"
    fail=1
}

# The installed Python module imports from the prefix, and scope() is a no-op unobserved.
if command -v python3 >/dev/null 2>&1; then
    check "python module" "ok" "$(cd / && PYTHONPATH="$STAGE/lib/python3/dist-packages" \
        python3 -c 'import syncscope
with syncscope.scope("step"):
    pass
print("ok" if syncscope.__file__.startswith("'"$STAGE"'") else syncscope.__file__)' 2>&1)"
fi

# Modes: the command 755, everything else 644 (shared libraries too, as Debian's policy
# wants and CMake does on Debian: CMAKE_INSTALL_SO_NO_EXE).
check "command mode" 755 "$(stat -c %a "$STAGE/bin/syncscope")"
check "other modes" 644 "$(cd "$STAGE" && stat -c %a $expected | sed 1d | sort -u)"

# Nothing points into the build tree, and the dynamic linker finds every library.
for f in bin/syncscope lib/syncscope/libsyncscope.so lib/syncscope/libsyncscope_finish.so; do
    [ -e "$STAGE/$f" ] || continue
    check "$f RPATH/RUNPATH" "" "$(readelf -d "$STAGE/$f" | grep -E 'R(UN)?PATH')"
    check "$f unresolved libraries" "" "$(ldd "$STAGE/$f" | grep 'not found')"
done
exit $fail
