#!/bin/sh
# linked_source.sh SYNCSCOPE: a compile-database entry whose file is a symbolic link to a name
# that is no source's (a build that picks its CUDA host code by linking src/docking.cpp to
# docking.cpp.Cuda) is C++ by the name the database gives it: analyzed in a -p run and when
# named, not dropped. Entries that are no C, C++ or CUDA source by their names (assembly,
# Fortran) are left out with a note that names them (exact output).
set -u
SS=$(realpath "$1") HERE=$(dirname "$(realpath "$0")")
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
cd "$WORK" || exit 1
fail=0
. "$HERE/assert.sh"

mkdir -p src build
cat >src/docking.cpp.Cuda <<'SRC'
#include <cuda_runtime.h>
void dock(float *d, int n, int runs)
{
    for (int r = 0; r < runs; r++) {
        cudaMemsetAsync(d, 0, n * sizeof(float));
        cudaDeviceSynchronize();
    }
}
SRC
ln -s docking.cpp.Cuda src/docking.cpp
echo 'nop' >src/start.S
echo 'end' >src/solver.f90
echo 'end' >src/mesh.f90
# database FILE...: one entry each, compiled in build/.
database() {
    sep='['
    for f in "$@"; do
        printf '%s{"directory": "%s/build", "file": "../src/%s", "arguments": ["cc", "-c", "../src/%s"]}' \
            "$sep" "$WORK" "$f" "$f"
        sep=','
    done >build/compile_commands.json
    echo ']' >>build/compile_commands.json
}
FINDING="src/docking.cpp.Cuda:6:9: warning: 'cudaDeviceSynchronize' in 'dock' blocks the host on every iteration of a for loop (line 4) that also enqueues device work ('cudaMemsetAsync' enqueues work at line 5): the GPU drains and idles while the host catches up [SYNC401 sync-in-loop]"
lint() {
    ss lint --no-cache --color never --cuda-path none --format text --min-severity warning "$@"
}

database docking.cpp start.S
lint -p build
status "-p, the link and an assembly file" 1
first "-p, the link and an assembly file" out "$FINDING"
text "-p, the link and an assembly file: why one entry is left out" err \
    "syncscope: 1 compile-database entry is not analyzed, not a C, C++ or CUDA source by its name: src/start.S"

database docking.cpp start.S solver.f90 mesh.f90
lint -p build
status "-p, three left out" 1
text "-p, three left out: why" err \
    "syncscope: 3 compile-database entries are not analyzed, not C, C++ or CUDA sources by their names: src/start.S, src/solver.f90 and 1 more"
lint -p build --verbose
grep 'not analyzed' err >left
text "-p --verbose: each one" left "syncscope: src/start.S: not analyzed: not a C, C++ or CUDA source by its name
syncscope: src/solver.f90: not analyzed: not a C, C++ or CUDA source by its name
syncscope: src/mesh.f90: not analyzed: not a C, C++ or CUDA source by its name"

database docking.cpp
lint -p build src/docking.cpp
status "-p with the link named" 1
first "-p with the link named" out "$FINDING"
text "-p with the link named: nothing left out" err ""

lint src/docking.cpp
status "the link named alone" 1
first "the link named alone" out "$FINDING"

lint src/docking.cpp.Cuda
status "the target named" 2
text "the target named" err "syncscope: error: 'src/docking.cpp.Cuda' is not a C, C++ or CUDA source file (by its name)"

database start.S
lint -p build
status "-p, nothing to lint" 2
text "-p, nothing to lint" err "syncscope: 1 compile-database entry is not analyzed, not a C, C++ or CUDA source by its name: src/start.S
syncscope: error: 'build/compile_commands.json' lists no C, C++ or CUDA sources"
exit $fail
