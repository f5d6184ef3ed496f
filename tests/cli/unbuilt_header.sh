#!/bin/sh
# unbuilt_header.sh SYNCSCOPE: a header the build makes (build/include/conf.h) that is not
# there yet, while an older copy is found further down the search path (third/include, a
# library's -isystem folder): one error at its #include says so, in place of the parse's
# cascade of errors (exact output).
# Nothing is said when the parse is clean, when the errors name nothing of that header, when
# the build's copy is there, when the command has no include folder in its build folder, when
# the folder is the project's own (beside its sources, no CMake build folder, not in the
# database's folder), or when the copy used is the project's own (a later -I folder).
set -u
SS=$(realpath "$1") HERE=$(dirname "$(realpath "$0")")
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
cd "$WORK" || exit 1
fail=0
. "$HERE/assert.sh"

mkdir -p src third/include build
cat >third/include/conf.h <<'SRC'
/* conf.h, the older copy: no depth or border yet. */
typedef struct conf {
    int width;
} conf;
SRC
cat >new_conf.h <<'SRC'
typedef struct conf {
    int width, depth, border;
} conf;
SRC
cat >uses_new.cu <<'SRC'
#include <conf.h>
int area(const conf *c)
{
    return c->width * c->depth + c->border;
}
SRC
cat >uses_old.cu <<'SRC'
#include <conf.h>
int width_of(const conf *c)
{
    return c->width;
}
SRC
cat >typo.cu <<'SRC'
#include <conf.h>
int width_of(const conf *c)
{
    return c->width + undefined_x;
}
SRC
# database INCLUDE_ARGS: the compile command of src/a.cu, run in build/.
database() {
    printf '[{"directory": "%s/build", "file": "%s/src/a.cu", "arguments": ["nvcc", %s"-c", "../src/a.cu"]}]\n' \
        "$WORK" "$WORK" "$1" >build/compile_commands.json
}
lint() {
    ss lint --no-cache --color never --cuda-path none -p build
}
BOTH="\"-I$WORK/build/include\", \"-isystem\", \"../third/include\", "
MESSAGE="src/a.cu:1:10: error: build/include/conf.h does not exist yet: the copy in third/include was used; build the project first (the 2 errors of this parse may follow from it; the first: src/a.cu:4:26: no member named 'depth' in 'conf')"

database "$BOTH"
cp uses_new.cu src/a.cu
lint
status "no build/include" 2
text "no build/include" out "$MESSAGE"

# The cache: the same message from a cached entry, and a parse again once the build has
# made the folder, then the header.
for run in cold warm; do
    ss lint --cache-dir cache --color never --cuda-path none -p build
    status "cache, $run" 2
    text "cache, $run" out "$MESSAGE"
done

mkdir build/include
lint
status "build/include without conf.h" 2
text "build/include without conf.h" out "$MESSAGE"
ss lint --cache-dir cache --color never --cuda-path none -p build
text "cache, build/include made" out "$MESSAGE"

cp new_conf.h build/include/conf.h
lint
status "the build's conf.h" 0
text "the build's conf.h" out "1 file, 0 findings"
ss lint --cache-dir cache --stats --color never --cuda-path none -p build
status "cache, conf.h made" 0
text "cache, conf.h made" err "syncscope: parsed 1, cached 0"
text "cache, conf.h made: report" out "1 file, 0 findings"

rm -r build/include
cp uses_old.cu src/a.cu
lint
status "a clean parse" 0
text "a clean parse" out "1 file, 0 findings"

cp typo.cu src/a.cu
lint
status "errors that name nothing of conf.h" 2
text "errors that name nothing of conf.h" out "src/a.cu:4:23: error: use of undeclared identifier 'undefined_x'"

# A command run in a folder of the build folder (CMake's build/src): the include folder is in
# the compile database's folder (-p).
mkdir build/src
printf '[{"directory": "%s/build/src", "file": "%s/src/a.cu", "arguments": ["nvcc", "-I%s/build/include", "-isystem", "../../third/include", "-c", "../../src/a.cu"]}]\n' \
    "$WORK" "$WORK" "$WORK" >build/compile_commands.json
cp uses_new.cu src/a.cu
lint
status "a command run in build/src" 2
text "a command run in build/src" out "$MESSAGE"

# A command run beside its sources ('-I.' in src/, an in-tree build): src/ holds the unit, and a
# header not there is no header the build makes, unless its configure template is (conf.h.in).
printf '[{"directory": "%s/src", "file": "%s/src/a.cu", "arguments": ["nvcc", "-I.", "-I../third/include", "-c", "a.cu"]}]\n' \
    "$WORK" "$WORK" >build/compile_commands.json
lint
status "an in-tree build" 2
text "an in-tree build" out "src/a.cu:4:26: error: no member named 'depth' in 'conf'
src/a.cu:4:37: error: no member named 'border' in 'conf'"
touch src/conf.h.in
lint
status "an in-tree build with conf.h.in" 2
text "an in-tree build with conf.h.in" out "src/a.cu:1:10: error: src/conf.h does not exist yet: the copy in third/include was used; build the project first (the 2 errors of this parse may follow from it; the first: src/a.cu:4:26: no member named 'depth' in 'conf')"
rm src/conf.h.in

# A project's own include folder, in the folder its command runs in (its sources' root) but
# no build's: not made by a CMake build, nor in the database's folder (db/). A header it lacks
# is a library's, not one the build makes (cuhnsw's -Icpp/include/ and thrust/copy.h).
mkdir include db
echo 'int own;' >include/own.h
RAW="src/a.cu:4:26: error: no member named 'depth' in 'conf'
src/a.cu:4:37: error: no member named 'border' in 'conf'"
printf '[{"directory": "%s", "file": "%s/src/a.cu", "arguments": ["nvcc", "-Iinclude/", "-isystem", "third/include", "-c", "src/a.cu"]}]\n' \
    "$WORK" "$WORK" >db/compile_commands.json
ss lint --no-cache --color never --cuda-path none -p db
status "the project's include folder" 2
text "the project's include folder" out "$RAW"

# A CMake build folder (CMakeCache.txt) that holds a generated header but not this one: said,
# where the copy used is a library's; not where it is the project's own (a later -I folder:
# NCCL's src/include/alloc.h, which its build/include lacks).
mkdir -p cbuild/include
touch cbuild/CMakeCache.txt cbuild/include/generated.h
cmake_db() {
    printf '[{"directory": "%s/cbuild", "file": "%s/src/a.cu", "arguments": ["nvcc", "-I%s/cbuild/include", %s, "-c", "../src/a.cu"]}]\n' \
        "$WORK" "$WORK" "$WORK" "$1" >db/compile_commands.json
}
cmake_db '"-isystem", "../third/include"'
ss lint --no-cache --color never --cuda-path none -p db
status "a CMake build folder" 2
text "a CMake build folder" out "src/a.cu:1:10: error: cbuild/include/conf.h does not exist yet: the copy in third/include was used; build the project first (the 2 errors of this parse may follow from it; the first: src/a.cu:4:26: no member named 'depth' in 'conf')"
cmake_db '"-I../third/include"'
ss lint --no-cache --color never --cuda-path none -p db
status "the project's own copy" 2
text "the project's own copy" out "$RAW"

# A CMake build folder whose generated rules exist: said only where a rule names the header
# (its path below the build folder, or its absolute path), not where no rule writes to the
# include folder (kfusion's -I${CMAKE_BINARY_DIR}/include, which stays empty).
UNBUILT="src/a.cu:1:10: error: cbuild/include/conf.h does not exist yet: the copy in third/include was used; build the project first (the 2 errors of this parse may follow from it; the first: src/a.cu:4:26: no member named 'depth' in 'conf')"
cmake_db '"-isystem", "../third/include"'
printf 'build app: link a.o\nbuild a.o: CUDA_COMPILER ../src/a.cu || other/include/conf.h\n' >cbuild/build.ninja
ss lint --no-cache --color never --cuda-path none -p db
status "a Ninja build that makes no conf.h here" 2
text "a Ninja build that makes no conf.h here" out "$RAW"
printf 'build app: link a.o\nbuild include/conf.h: CUSTOM_COMMAND ../src/conf.py\n' >cbuild/build.ninja
ss lint --no-cache --color never --cuda-path none -p db
status "a Ninja build that makes conf.h" 2
text "a Ninja build that makes conf.h" out "$UNBUILT"
printf 'build app: link a.o\nbuild include/conf.hpp: CUSTOM_COMMAND ../src/conf.py\n' >cbuild/build.ninja
ss lint --no-cache --color never --cuda-path none -p db
status "a Ninja build that makes conf.hpp only" 2
text "a Ninja build that makes conf.hpp only" out "$RAW"
# Ninja Multi-Config: build.ninja only includes the rules, which are in CMakeFiles/.
printf 'include CMakeFiles/impl-Debug.ninja\n' >cbuild/build.ninja
mkdir -p cbuild/CMakeFiles
printf 'build include/conf.h: CUSTOM_COMMAND ../src/conf.py\n' >cbuild/CMakeFiles/impl-Debug.ninja
ss lint --no-cache --color never --cuda-path none -p db
status "Ninja Multi-Config, which makes conf.h" 2
text "Ninja Multi-Config, which makes conf.h" out "$UNBUILT"
rm -r cbuild/CMakeFiles
rm cbuild/build.ninja
# CMake writes a Makefile into each folder of add_subdirectory, beside its targets' rules.
mkdir -p cbuild/sub/CMakeFiles/app.dir
touch cbuild/Makefile cbuild/sub/Makefile
printf 'app: a.o\n' >cbuild/sub/CMakeFiles/app.dir/build.make
ss lint --no-cache --color never --cuda-path none -p db
status "Makefiles that make no conf.h" 2
text "Makefiles that make no conf.h" out "$RAW"
printf '%s/cbuild/include/conf.h: ../src/conf.py\n' "$WORK" >cbuild/sub/CMakeFiles/app.dir/build.make
ss lint --no-cache --color never --cuda-path none -p db
status "Makefiles that make conf.h" 2
text "Makefiles that make conf.h" out "$UNBUILT"
rm -r cbuild/Makefile cbuild/sub

database "\"-I../third/include\", "
cp uses_new.cu src/a.cu
lint
status "no include folder in the build folder" 2
text "no include folder in the build folder" out "src/a.cu:4:26: error: no member named 'depth' in 'conf'
src/a.cu:4:37: error: no member named 'border' in 'conf'"
exit $fail
