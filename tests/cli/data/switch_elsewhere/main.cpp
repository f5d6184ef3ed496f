// The loop that runs ops.cu's operators on every step.
#include "settings.h"
#include <cstring>
void clamp(float *x, int n);
void clamp_again(float *x, int n);
void clamp_checked(float *x, int n);
void clamp_traced(float *x, int n);
void clamp_verbose(float *x, int n);
void clamp_switches(float *x, int n);
void read_more(int argc);

// An option table: '--tabled' sets the switch through the pointer it holds.
struct Option {
    const char *name;
    bool *flag;
};
static Option options[] = {{"--tabled", &settings().tabled}};
int main(int argc, char **argv)
{
    if (argc > 1 && std::strcmp(argv[1], "--check-nan") == 0)
        settings().check_nan = true;
    if (argc > 2)
        enable_tracing();
    read_more(argc);
    for (int a = 1; a < argc; a++)
        if (std::strcmp(argv[a], options[0].name) == 0)
            *options[0].flag = true;
    float *x = nullptr;
    for (int i = 0; i < 100; i++) {
        clamp(x, 256);
        clamp_again(x, 256);
        clamp_checked(x, 256);
        clamp_traced(x, 256);
        clamp_verbose(x, 256);
        clamp_switches(x, 256);
    }
    return 0;
}
