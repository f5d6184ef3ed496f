// The run's settings, read once from the environment (settings.cpp).
#pragma once
struct Settings {
    bool cuda_sync = false;   // SYNC_DEBUG=1: wait after every operator
    bool check_nan = false;   // CHECK_NAN=1, or the --check-nan flag (main.cpp)
    bool trace_steps = false; // set by enable_tracing()
    bool verbose = true;      // on unless QUIET is set
    bool no_fast = false;     // true unless FAST is set: off only when the variable is set
    bool any_arg = false;     // SYNC_ANY=1, or any command-line argument
    bool tabled = false;      // TABLED=1, or the option table of main.cpp
    bool either = false;      // SYNC_A or SYNC_B (settings.cpp, more.cpp)
};
Settings &settings();
void enable_tracing();
