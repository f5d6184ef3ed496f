// The loop that runs ops.cu's operators on every step.
#include "settings.h"
#include <cstring>
void clamp(float *x, int n);
void clamp_checked(float *x, int n);
void clamp_traced(float *x, int n);
void clamp_verbose(float *x, int n);
int main(int argc, char **argv)
{
    if (argc > 1 && std::strcmp(argv[1], "--check-nan") == 0)
        settings().check_nan = true;
    if (argc > 2)
        enable_tracing();
    float *x = nullptr;
    for (int i = 0; i < 100; i++) {
        clamp(x, 256);
        clamp_checked(x, 256);
        clamp_traced(x, 256);
        clamp_verbose(x, 256);
    }
    return 0;
}
