// old_cxx.cpp: a string literal glued to a macro name (C++03 style, "%d"PRId64-like), which
// clang 16 refuses as a reserved user-defined literal unless told otherwise.
#include <cstdio>
#define FMT "d"

void print(int v)
{
    std::printf("%"FMT"\n", v);
}
