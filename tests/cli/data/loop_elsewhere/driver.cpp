void advance(float *u);
void InitGrid(float *u);
void report(float *u);
void reset(float *u);
void smooth(float *u, int sweeps);
void InitLevels(float **levels, int n)
{
    for (int l = 0; l < n; l++)
        InitGrid(levels[l]);
}
int main(int argc, char **argv)
{
    float *u = nullptr;
    InitLevels(&u, argc);
    for (int step = 0; step < 1000; step++) {
        advance(u);
        smooth(u, 2);
        if (step % 100 == 0)
            reset(u);
    }
    report(u);
    return 0;
}
