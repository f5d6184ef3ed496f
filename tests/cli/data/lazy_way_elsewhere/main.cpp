// The loop that runs infos.cu's steps on every iteration.
#include "model.h"
void attention_step(float *x, int n);
void reduce_step(float *x, int n);
void mixed_step(float *x, int n);
void local_step(float *x, int n);
void ordered_step(float *x, int n);
void table_step(float *x, int n);
void reset_step(float *x, int n);
int main()
{
    float *x = nullptr;
    for (int i = 0; i < 100; i++) {
        attention_step(x, 256);
        reduce_step(x, 256);
        mixed_step(x, 256);
        local_step(x, 256);
        ordered_step(x, 256);
        table_step(x, 256);
        reset_step(x, 256);
        Model m;
        m.forward(x, 256);
    }
    return 0;
}
