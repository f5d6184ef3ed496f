// Another unit that sets a switch from the environment.
#include "settings.h"
#include <cstdlib>

void read_more(int argc)
{
    const char *b = std::getenv("SYNC_B");
    settings().either = b != nullptr;
    settings().any_arg = std::getenv("SYNC_ANY") != nullptr || argc > 1;
}
