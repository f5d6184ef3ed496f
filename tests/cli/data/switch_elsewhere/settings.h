// The run's settings, read once from the environment (settings.cpp).
#pragma once
struct Settings {
    bool cuda_sync = false;   // SYNC_DEBUG=1: wait after every operator
    bool check_nan = false;   // CHECK_NAN=1, or the --check-nan flag (main.cpp)
    bool trace_steps = false; // set by enable_tracing()
    bool verbose = true;      // on unless QUIET is set
};
Settings &settings();
void enable_tracing();
