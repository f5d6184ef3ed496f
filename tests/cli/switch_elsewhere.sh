#!/bin/sh
# switch_elsewhere.sh SYNCSCOPE DATA_DIR: waits behind a bool member of a settings object that
# another unit sets (-p; docs/lint.md, "Warning or note"; held-out-38's CP, fastllm's
# DeviceSync()): settings.cpp sets 'cuda_sync' from getenv("SYNC_DEBUG") and nothing else
# writes it, so ops.cu's wait under 'if (settings().cuda_sync)', which main.cpp's loop reaches,
# is a note ("opt-in: ..."), on both ways main.cpp's loop reaches it (clamp() and clamp_again(),
# one finding each before the report merges them); so is 'either', set from SYNC_A in settings.cpp and SYNC_B in
# more.cpp (the note names both). 'check_nan' (also set by main.cpp from a command-line flag),
# 'trace_steps' (set by a function of the program), 'verbose' (true by default), 'no_fast' (true
# unless FAST is set), 'any_arg' (the environment or any argument) and 'tabled' (an option table
# holds its address) keep their waits warnings; so does every switch when the run leaves
# settings.cpp out. The same at -j 1 and -j 2, with and without the cache (exact output).
CASE=switch_elsewhere
. "$(dirname "$(realpath "$0")")/project_case.sh"
database ops.cu settings.cpp more.cpp main.cpp

wait_in() {
    echo "src/ops.cu:$1: $2: 'cudaDeviceSynchronize' in '$3()'$4 blocks the host on every call of '$5()', which also enqueues device work (kernel 'clamp_kernel' is launched at line $6): the GPU drains and idles while the host catches up; it runs on every iteration: '$5()' is called from the loop at main.cpp:29, in 'main' (another unit)"
}
OPT="; opt-in: it runs only when the environment sets 'SYNC_DEBUG' (line 15 tests 'cuda_sync', false unless set from getenv at settings.cpp:10, the only write of it in the project)"
TAG=" [SYNC401 sync-in-loop]"
N16="$(wait_in 16:9 note device_sync " called from 'clamp()'" clamp 21)$OPT$TAG"
W16="$(wait_in 16:9 warning device_sync " called from 'clamp()'" clamp 21)$TAG"
W37="$(wait_in 37:9 warning clamp_checked "" clamp_checked 35)$TAG"
W45="$(wait_in 45:9 warning clamp_traced "" clamp_traced 43)$TAG"
W53="$(wait_in 53:9 warning clamp_verbose "" clamp_verbose 51)$TAG"
W62="$(wait_in 62:9 warning clamp_switches "" clamp_switches 60)$TAG"
W64="$(wait_in 64:9 warning clamp_switches "" clamp_switches 60)$TAG"
W66="$(wait_in 66:9 warning clamp_switches "" clamp_switches 60)$TAG"
N68="$(wait_in 68:9 note clamp_switches "" clamp_switches 60); opt-in: it runs only when the environment sets 'SYNC_A' or 'SYNC_B' (line 67 tests 'either', false unless set from getenv at settings.cpp:15 or more.cpp:8, the only writes of it in the project)$TAG"
W68="$(wait_in 68:9 warning clamp_switches "" clamp_switches 60)$TAG"

for run in "no cache, -j 1" "no cache, -j 2" "cold cache" "warm cache"; do
    lint_way "$run"
    grep SYNC401 out >sync401
    text "$run: SYNC401" sync401 "$N16
$W37
$W45
$W53
$W62
$W64
$W66
$N68"
done

# settings.cpp left out: its write is not seen, and the run does not cover the project.
ss lint --no-cache -j 1 --color never --cuda-path none -p build src/ops.cu src/main.cpp src/more.cpp
grep SYNC401 out >sync401
text "settings.cpp left out: SYNC401" sync401 "$W16
$W37
$W45
$W53
$W62
$W64
$W66
$W68"
exit $fail
