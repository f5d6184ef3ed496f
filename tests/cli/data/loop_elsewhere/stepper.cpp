void relax(float *u);
void smooth(float *u, int sweeps)
{
    relax(u);
    if (sweeps > 1)
        relax(u);
}
