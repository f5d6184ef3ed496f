#include "pipeline.h"

int main()
{
    Pipeline p;
    for (int step = 0; step < 100; step++) {
        p.batch(32);
        p.batch_kernel(32);
    }
    return 0;
}
