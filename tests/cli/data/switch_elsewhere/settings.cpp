// Reads the switches from the environment, once.
#include "settings.h"
#include <cstdlib>
#include <cstring>

static Settings make_settings()
{
    Settings s;
    const char *sync = std::getenv("SYNC_DEBUG");
    s.cuda_sync = sync != nullptr && std::strcmp(sync, "1") == 0;
    s.check_nan = std::getenv("CHECK_NAN") != nullptr;
    s.verbose = std::getenv("QUIET") == nullptr;
    s.no_fast = std::getenv("FAST") == nullptr;
    s.tabled = std::getenv("TABLED") != nullptr;
    s.either = std::getenv("SYNC_A") != nullptr;
    return s;
}

Settings &settings()
{
    static Settings s = make_settings();
    return s;
}

void enable_tracing()
{
    settings().trace_steps = true;
}
