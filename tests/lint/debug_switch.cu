// debug_switch.cu: a wait that runs only when the environment asks for it (a debugging switch:
// 'if (getenv("APP_SYNC_EACH_LAYER"))', or a variable read with getenv and tested, as an
// error-checking helper does) runs on no ordinary run: a note, also in a function called from
// a loop, also when the switch is in the loop around the call of the function that waits. The
// same wait under a switch that does not come from the environment (a parameter), under a
// threshold read from the environment as a number (it runs whether the variable is set or
// not), or in a function that the loop also calls without the switch, stays a warning. A
// period read from the environment is not a switch either: the wait under it is periodic, as
// under any period the program computes.
#include <cuda_runtime.h>
#include <stdlib.h>
#include <string.h>

__global__ void layer(float *d) { d[threadIdx.x] += 1.0f; }

static void sync_and_check()
{
    static const char *level = getenv("APP_DEBUG_LEVEL");
    if (level != NULL) {
        if (strcmp(level, "DEBUG") == 0)
            cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: note expect-message: opt-in: it runs only when the environment sets 'APP_DEBUG_LEVEL' (line 19 tests 'level', from getenv at line 18)
    }
}

static void drain(cudaStream_t s)
{
    cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: note expect-message: opt-in: it runs only when the environment sets 'APP_DRAIN' (line 44 calls getenv)
}

static void settle(cudaStream_t s)
{
    cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning
}

void forward(float *d, int layers, cudaStream_t s, int verbose)
{
    for (int l = 0; l < layers; l++) {
        layer<<<1, 32, 0, s>>>(d);
        sync_and_check();
        if (getenv("APP_SYNC_EACH_LAYER") != NULL)
            cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: note expect-message: opt-in: it runs only when the environment sets 'APP_SYNC_EACH_LAYER' (line 40 calls getenv)
        if (verbose)
            cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning
        if (getenv("APP_DRAIN"))
            drain(s);
        if (getenv("APP_SETTLE"))
            settle(s);
        if (l == layers - 1)
            settle(s);
        static const int every = atoi(getenv("APP_SYNC_EVERY") ? getenv("APP_SYNC_EVERY") : "1");
        if (l % every == 0)
            cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: note expect-message: periodic: it runs once in a while (line 51 tests 'l % every == 0')
        static const int from = atoi(getenv("APP_SYNC_FROM") ? getenv("APP_SYNC_FROM") : "0");
        if (l >= from)
            cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning
    }
}
