#!/bin/sh
# closed_stream_param.sh SYNCSCOPE DATA_DIR: a stream parameter of a function that no unit of the
# whole compile database calls and that no header declares (-p, every unit linted). cells.cu
# launches on the legacy stream in CellList and NeighborList (cells.h declares both; each takes a
# stream it does not use, 'spare', since legacy work is a warning only with a stream at hand,
# and an unused parameter adds no stream to the unit) and defines
# an overload CellList(cudaStream_t &, ...) that only cells.cu declares; its stream is the only
# other stream the unit uses. solver.cpp calls NeighborList alone: no unit calls the overload,
# so nothing in the program gives it a stream, and both legacy launches are notes that say so.
# With side.cpp in the run, which declares the overload itself and calls it with a stream it
# creates, with tmpl.cpp, whose template calls it (a call left unresolved counts), with cells.h declaring the overload (a caller outside the database may include it),
# with the overload extern "C", with a unit of the database left out (cells.cu named alone) or
# failing to parse, they are not closed: since session 32 that side is a note too, "how often it
# runs is not shown" (neither launch is in a loop of cells.cu: a warning needs one), its own
# words for each function, and the run exits 0. The same at -j 1 and -j 2, with and without the
# cache.
set -u
SS=$(realpath "$1") DATA=$(realpath "$2")/closed_stream_param HERE=$(dirname "$(realpath "$0")")
fail=0
. "$HERE/assert.sh"
. "$HERE/units.sh"
workspace "$DATA"

AT="src/cells.cu:%s: %s: kernel '%s' is launched in '%s' without a stream: it runs on the legacy default stream%s [SYNC101 default-stream-launch]"
CLOSED="; the only other streams this translation unit uses are stream parameters and fields that every call and write in the project gives the legacy stream, so it holds nothing up yet ('stream' of 'CellList()' (declared in no header, and no unit of the compile database calls it))"
# expect SEVERITY WORDS_CELLLIST WORDS_NEIGHBORLIST: the two SYNC101 lines lint gives.
expect() {
    # shellcheck disable=SC2059
    printf "$AT\n$AT" 6:52 "$1" count_cells CellList "$2" 16:5 "$1" find_neighbors NeighborList "$3"
}
# not_shown FUNCTION: the words of a launch in no loop that lint sees.
not_shown() {
    printf "; how often it runs is not shown: it is in no loop that lint sees, and no loop of this translation unit reaches '%s()' (one of another unit, or a call through a pointer, may run it on every iteration; lint does not weigh those: name it, or a function that calls it, in hot-functions to make this a warning)" "$1"
}
NOTES=$(expect note "$CLOSED" "$CLOSED")
NOT_SHOWN=$(expect note "$(not_shown CellList)" "$(not_shown NeighborList)")

# check NAME STATUS EXPECTED: the last run's status and SYNC101 lines.
check() {
    status "$1" "$2"
    grep SYNC101 out >sync101
    text "$1: SYNC101" sync101 "$3"
}

database cells.cu solver.cpp
for run in "no cache, -j 1" "no cache, -j 2" "cold cache" "warm cache"; do
    lint_way "$run"
    check "$run" 0 "$NOTES"
done

database cells.cu solver.cpp side.cpp
ss lint --no-cache -j 2 --color never --cuda-path none -p build
check "side.cpp passes a created stream" 0 "$NOT_SHOWN"

database cells.cu solver.cpp
ss lint --no-cache --color never --cuda-path none -p build src/cells.cu
check "cells.cu alone" 0 "$NOT_SHOWN"

printf 'void Broken(int n) { n +; }\n' >src/broken.cpp
database cells.cu solver.cpp broken.cpp
ss lint --no-cache -j 2 --color never --cuda-path none -p build
status "a unit that does not parse" 2
grep SYNC101 out >sync101
text "a unit that does not parse: SYNC101" sync101 "$NOT_SHOWN"

cat >src/tmpl.cpp <<'END'
#include <cuda_runtime.h>

void CellList(cudaStream_t &stream, int n, int *c);

template <class S> void Each(S &s, int n, int *c) { CellList(s, n, c); }

void Go(int n, int *c)
{
    cudaStream_t s;
    cudaStreamCreate(&s);
    Each(s, n, c);
}
END
database cells.cu solver.cpp tmpl.cpp
ss lint --no-cache -j 2 --color never --cuda-path none -p build
check "a template of another unit calls it" 0 "$NOT_SHOWN"

cp src/cells.h cells.h.orig
printf 'void CellList(cudaStream_t &stream, int n, int *c);\n' >>src/cells.h
database cells.cu solver.cpp
ss lint --no-cache -j 2 --color never --cuda-path none -p build
check "cells.h declares the overload" 0 "$NOT_SHOWN"
cp cells.h.orig src/cells.h

sed 's/^void CellList(cudaStream_t/extern "C" void CellList2(cudaStream_t/' src/cells.cu >src/c.cu
mv src/c.cu src/cells.cu
database cells.cu solver.cpp
ss lint --no-cache -j 2 --color never --cuda-path none -p build
grep SYNC101 out >sync101
check "an extern \"C\" function" 0 "$NOT_SHOWN"
exit $fail
