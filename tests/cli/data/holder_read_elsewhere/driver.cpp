#include "coder.h"

int main()
{
    static Coder c;
    size_t total = 0;
    for (int frame = 0; frame < 100; frame++) {
        encode_packed(&c);
        total += encode_segments(&c);
        encode_unread(&c);
    }
    return total == 0;
}
