#!/bin/sh
# set_up_elsewhere.sh SYNCSCOPE DATA_DIR: a loop in a function that only another unit's set-up
# calls (-p). stage.cu's functions each wait in a loop that uploads and launches; app.cpp calls
# them. Where every way into the function in the project passes, outside loops, through a
# function whose name says set-up and that runs a bounded number of times up to 'main', the wait is
# a note that says so: load_tables (from init_problem), seed_tables (through a plain helper that
# only init_problem calls), and put_row, a helper the loops of two such functions reach.
# fill_tables, from init_table, which nothing calls (a library's API, whose users may call it on
# every step), keeps the warning, as do a function the step loop calls too, one whose set-up caller runs on every step, one whose address is taken, one
# that set-up calls inside a loop of its own, put_edge, a helper that a set-up function's loop
# and a step function's loop reach, and put_col, a helper that only a set-up function's loop
# reaches in its unit but that the other unit's step loop calls through a function without a
# loop. The same at -j 1 and -j 2, with and without the cache (exact output). Not without the
# whole program: a run of some units only, a unit with errors, no 'main' (a library, whose users
# may call the function anywhere), a database entry lint does not analyze (Fortran, assembly,
# whose calls go unseen), a file listed twice with two commands (analyzed under the first only),
# a 'main' that calls itself in a loop or whose address is taken: every wait a warning. A file
# listed twice with the same command keeps the notes.
set -u
SS=$(realpath "$1") DATA=$(realpath "$2")/set_up_elsewhere HERE=$(dirname "$(realpath "$0")")
fail=0
. "$HERE/assert.sh"
. "$HERE/units.sh"
workspace "$DATA"
app_database() { # ARGS: JSON put before app.cpp's "-c"
    printf '[%s, %s]\n' "$(entry stage.cu nvcc)" "$(entry app.cpp g++ "$1")" >build/compile_commands.json
}

W="blocks the host on every iteration of a for loop"
D="that also enqueues device work (kernel 'bake' is launched at"
I="the GPU drains and idles while the host catches up"
warn() { # LINE NAME
    echo "src/stage.cu:$1:1: warning: 'cudaDeviceSynchronize' in '$2' $W (line $1) $D line $1): $I [SYNC401 sync-in-loop]"
}
note() { # LINE NAME CALLER CALL HOW
    echo "src/stage.cu:$1:1: note: 'cudaDeviceSynchronize' in '$2' $W (line $1) $D line $1): $I; set-up: the loop at line $1 runs during set-up: every way into '$2' in the project passes, outside loops, through '$3' (the call at app.cpp:$4), which sets up (its name says so) and $5 [SYNC401 sync-in-loop]"
}
UP="is called only outside loops, up to 'main'"
CHAIN="'cudaDeviceSynchronize' in 'put_row()' called from the loop at stage.cu:43 blocks the host on every iteration of that for loop, which also enqueues device work (kernel 'bake' is launched at line 37): $I"
ROW_NOTE="src/stage.cu:38:5: note: $CHAIN; set-up: the loop at stage.cu:43 runs during set-up: every way into 'load_rows' in the project passes, outside loops, through 'init_problem' (the call at app.cpp:28), which sets up (its name says so) and $UP; so do the ways into the other functions whose loops reach the call [SYNC401 sync-in-loop]"
ROW_WARN="src/stage.cu:38:5: warning: $CHAIN [SYNC401 sync-in-loop]"
COL="src/stage.cu:78:5: warning: 'cudaDeviceSynchronize' in 'put_col()' called from the loop at stage.cu:83 blocks the host on every iteration of that for loop, which also enqueues device work (kernel 'bake' is launched at line 77): $I [SYNC401 sync-in-loop]"
EDGE="src/stage.cu:57:5: warning: 'cudaDeviceSynchronize' in 'put_edge()' called from the loop at stage.cu:62 blocks the host on every iteration of that for loop, which also enqueues device work (kernel 'bake' is launched at line 56): $I [SYNC401 sync-in-loop]"
ALL_NOTES="$(note 18 load_tables init_problem 22 "$UP")
$(warn 20 refresh_tables)
$(warn 22 reset_tables)
$(warn 24 drop_tables)
$(note 26 seed_tables init_problem 25 "$UP")
$(warn 28 fill_tables)
$(warn 30 level_tables)
$ROW_NOTE
$EDGE
$COL"
ALL_WARNINGS="$(warn 18 load_tables)
$(warn 20 refresh_tables)
$(warn 22 reset_tables)
$(warn 24 drop_tables)
$(warn 26 seed_tables)
$(warn 28 fill_tables)
$(warn 30 level_tables)
$ROW_WARN
$EDGE
$COL"

app_database ""
for run in "no cache, -j 1" "no cache, -j 2" "cold cache" "warm cache"; do
    lint_way "$run"
    status "$run" 1
    grep -E 'SYNC401' out >found
    text "$run: set-up elsewhere" found "$ALL_NOTES"
done

# Some units only: the calls of the others are not seen.
ss lint --no-cache --color never --cuda-path none -p build src/stage.cu
status "one unit" 1
grep -E 'SYNC401' out >found
text "one unit" found "$ALL_WARNINGS"

# A unit with errors: clang's recovery may have dropped a call or a loop.
rm -rf cache
app_database '"-DBROKEN", '
for run in "no cache, -j 1" "cold cache" "warm cache"; do
    lint_way "$run"
    status "$run: errors" 2
    grep -E 'SYNC401' out >found
    text "$run: errors" found "$ALL_WARNINGS"
done

# No 'main': a library's function may be called anywhere.
rm -rf cache
app_database '"-DNO_MAIN", '
lint_way "no cache, -j 1"
status "library" 1
grep -E 'SYNC401' out >found
text "library" found "$ALL_WARNINGS"

# Entries besides the two units: JSON appended to the database.
extra_database() { # CASE EXTRA
    printf '[%s, %s%s]\n' "$(entry stage.cu nvcc)" "$(entry app.cpp g++)" "$2" >build/compile_commands.json
    ss lint --no-cache --color never --cuda-path none -p build
    status "$1" 1
    grep -E 'SYNC401' out >found
}
extra_database "Fortran" ", $(entry step.f90 gfortran)"
text "Fortran" found "$ALL_WARNINGS"
extra_database "assembly" ", $(entry step.S cc)"
text "assembly" found "$ALL_WARNINGS"
extra_database "twice, two commands" ", $(entry app.cpp g++ '"-DNO_MAIN", ')"
text "twice, two commands" found "$ALL_WARNINGS"
extra_database "twice, one command" ", $(entry app.cpp g++)"
text "twice, one command" found "$ALL_NOTES"

# 'main' run again: called in a loop of its own, or its address taken.
app_database '"-DMAIN_AGAIN", '
lint_way "no cache, -j 1"
status "main again" 1
grep -E 'SYNC401' out >found
text "main again" found "$ALL_WARNINGS"
app_database '"-DMAIN_TAKEN", '
lint_way "no cache, -j 1"
status "main taken" 1
grep -E 'SYNC401' out >found
text "main taken" found "$ALL_WARNINGS"
exit $fail
