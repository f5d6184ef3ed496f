#!/bin/sh
# virtual_elsewhere.sh SYNCSCOPE DATA_DIR: waits in overrides of virtual methods that another
# unit's loop calls virtually (-p). grow.cpp's loop in Builder::grow calls split() inside a
# lambda it hands to on_devices() (and gather() there), this->regroup(), the qualified
# Builder::prune() and mark() (whose overrides are defined in the class); Builder::init's loop
# calls load(); Sweep's constructor calls b->sweep() in a loop; Builder's constructor calls
# refresh() (its own, not an override); report() is called outside any loop; drive()'s loop
# calls e->tally() on an Exact pointer (still a virtual call: a class may derive from Exact);
# by_value()'s loop calls pack() on an Exact object and sealed()'s seal(), final in Exact, through
# a pointer: neither dispatches, and their waits are warnings. exact.cu defines Exact's overrides, each of
# which launches and waits for the device (settle() through finish.cpp's device-wide wrapper).
# Exact::split's wait (in a template it calls), Exact::regroup's and settle's call of the
# wrapper are SYNC401 notes naming the loop and the method they override (which override a
# virtual call runs is decided at run time: it may run there); load's and sweep's say set-up
# too; tally's is a note too (a virtual call names it); prune, refresh, report and mark are
# not reported. gather(), a function exact.cu defines
# and the loop's lambda calls (not virtually), is a warning at its wait. stage.cu calls
# an override it defines itself from its own loop: virtual calls within a unit are not followed,
# and its wait is not reported as another unit's. The same at -j 1 and -j 2, with and without
# the cache, and with the units in another order; without grow.cpp nothing is reported.
set -u
SS=$(realpath "$1") DATA=$(realpath "$2")/virtual_elsewhere HERE=$(dirname "$(realpath "$0")")
fail=0
. "$HERE/assert.sh"
. "$HERE/units.sh"
workspace "$DATA"

DRAINS="the GPU drains and idles while the host catches up"
R401="[SYNC401 sync-in-loop]"
VIRTUAL="which reaches it through a virtual call,"
DECIDED="virtual: which override the call runs is decided at run time, by the class of the object"
N8="src/exact.cu:8:5: note: 'cudaDeviceSynchronize' in 'launch_wait()' called from 'Exact::split()' blocks the host on every call of 'Exact::split()' (an override of 'Builder::split()'), which also enqueues device work (in the functions it calls): $DRAINS; it may run on every iteration: 'Builder::split()', $VIRTUAL is called from the loop at grow.cpp:13, in 'Builder::grow' (another unit); $DECIDED $R401"
N19="src/exact.cu:19:5: note: 'cudaDeviceSynchronize' in 'Exact::regroup()' blocks the host on every call of 'Exact::regroup()' (an override of 'Builder::regroup()'), which also enqueues device work (kernel 'gain' is launched at line 18): $DRAINS; it may run on every iteration: 'Builder::regroup()', $VIRTUAL is called from the loop at grow.cpp:13, in 'Builder::grow' (another unit); $DECIDED $R401"
N31="src/exact.cu:31:5: note: 'cudaDeviceSynchronize' in 'Exact::load()' blocks the host on every call of 'Exact::load()' (an override of 'Builder::load()'), which also enqueues device work (kernel 'gain' is launched at line 30): $DRAINS; it may run on every iteration: 'Builder::load()', $VIRTUAL is called from the loop at grow.cpp:28, in 'Builder::init' (another unit); $DECIDED; set-up: the loop at line 28 runs during set-up: 'Builder::init' sets up (its name says so) $R401"
N49="src/exact.cu:49:5: note: 'cudaDeviceSynchronize' in 'Exact::sweep()' blocks the host on every call of 'Exact::sweep()' (an override of 'Builder::sweep()'), which also enqueues device work (kernel 'gain' is launched at line 48): $DRAINS; it may run on every iteration: 'Builder::sweep()', $VIRTUAL is called from the loop at grow.cpp:36, in 'Sweep::Sweep' (another unit); $DECIDED; set-up: the loop at line 36 runs during set-up: 'Sweep::Sweep' is a constructor $R401"
N55="src/exact.cu:55:5: note: 'finish_all' in 'Exact::settle()' blocks the host on every call of 'Exact::settle()' (an override of 'Builder::settle()'), which also enqueues device work (kernel 'gain' is launched at line 54): $DRAINS; it may run on every iteration: 'Builder::settle()', $VIRTUAL is called from the loop at grow.cpp:13, in 'Builder::grow' (another unit); $DECIDED; through 'finish_all()', defined in finish.cpp:3, which waits for the whole device ('cudaDeviceSynchronize' at finish.cpp:5) $R401"
N67="src/exact.cu:67:5: note: 'cudaDeviceSynchronize' in 'Exact::tally()' blocks the host on every call of 'Exact::tally()' (an override of 'Builder::tally()'), which also enqueues device work (kernel 'gain' is launched at line 66): $DRAINS; it may run on every iteration: 'Exact::tally()' is called virtually from the loop at grow.cpp:42, in 'drive' (another unit); $DECIDED $R401"
W73="src/exact.cu:73:5: warning: 'cudaDeviceSynchronize' in 'Exact::pack()' blocks the host on every call of 'Exact::pack()' (an override of 'Builder::pack()'), which also enqueues device work (kernel 'gain' is launched at line 72): $DRAINS; it runs on every iteration: 'Exact::pack()' is called from the loop at grow.cpp:49, in 'by_value' (another unit) $R401"
W79="src/exact.cu:79:5: warning: 'cudaDeviceSynchronize' in 'Exact::seal()' blocks the host on every call of 'Exact::seal()' (an override of 'Builder::seal()'), which also enqueues device work (kernel 'gain' is launched at line 78): $DRAINS; it runs on every iteration: 'Exact::seal()' is called from the loop at grow.cpp:55, in 'sealed' (another unit) $R401"
W61="src/exact.cu:61:5: warning: 'cudaDeviceSynchronize' in 'gather()' blocks the host on every call of 'gather()', which also enqueues device work (kernel 'gain' is launched at line 60): $DRAINS; it runs on every iteration: 'gather()' is called from the loop at grow.cpp:13, in 'Builder::grow' (another unit) $R401"

for order in "grow.cpp exact.cu stage.cu finish.cpp" "finish.cpp stage.cu exact.cu grow.cpp"; do
    # shellcheck disable=SC2086
    database $order
    for run in "no cache, -j 1" "no cache, -j 2" "cold cache" "warm cache"; do
        lint_way "$run"
        status "$order, $run" 1
        grep SYNC401 out >sync401
        text "$order, $run: SYNC401" sync401 "$N8
$N19
$N31
$N49
$N55
$W61
$N67
$W73
$W79"
    done
    rm -rf cache
done

# Without the loops' unit, nothing is reported at the overrides.
database grow.cpp exact.cu stage.cu finish.cpp
ss lint --no-cache --color never --cuda-path none -p build src/exact.cu src/stage.cu src/finish.cpp
grep SYNC401 out >sync401
text "without grow.cpp: SYNC401" sync401 ""
exit $fail
