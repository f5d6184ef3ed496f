#!/bin/sh
# macro_assign.sh SYNCSCOPE: lint's time on assignments written in a macro's body far below its
# #define (held-out-15's fangq/mcx, whose src/mcx_utils.c took 22 s where clang parses it in 0.1 s).
# The tokens of such an operator are lexed from the #define on, and the reaching definitions of
# the variable it assigns are read again for every use they are followed to: 300 calls with
# 'sub', each followed through 'sub = FIND(...)' to the 20 assignments of 'tmp' in FIND's body,
# 100,000 declarations below the #define. Each operator is read once per unit: about 2 s in a
# release build, against minutes when each was read at every use (past the test's timeout).
# No finding, exit 0.
set -u
SS=$(realpath "$1")
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
cd "$WORK" || exit 1
awk 'BEGIN {
    print "typedef struct node { struct node *next; int v; } node;"
    print "node *get(node *parent, const char *id);"
    print "int use(node *n);"
    print "#define FIND(id, parent) \\"
    print "    ((tmp = get(parent, id)) == 0 ? ((tmp = get(root, id)) == 0 ? (node *)0 : tmp) : tmp)"
    for (i = 0; i < 100000; i++) printf "int filler_%d;\n", i
    print "int load(node *root)\n{\n    node *tmp, *sub;\n    int s = 0;"
    for (i = 0; i < 10; i++) printf "    sub = FIND(\"k%d\", root);\n", i
    for (i = 0; i < 300; i++) print "    s += use(sub);"
    print "    return s;\n}"
}' >macro_assign.c
"$SS" lint --cuda-path=none --no-cache --format github macro_assign.c >out 2>err </dev/null
rc=$?
if [ "$rc" != 0 ] || [ -s out ] || [ -s err ]; then
    echo "FAIL: exit $rc (expected 0, no output)"
    cut -c1-200 out err
    exit 1
fi
echo "ok: 20 macro-body assignments, 300 uses"
