// The phases of a step, each timed with the program's clock (clock.cpp) when asked to.
__global__ void relax_k(float *u) { u[0] *= 0.5f; }
__global__ void smooth_k(float *u) { u[0] += 1.0f; }
double seconds();
struct Costs {
    double relax, smooth, damp;
};
struct Grid {
    float *u;
    bool profiling, tracing;
    Costs costs;
};
void relax(Grid &g)
{
    double t0 = 0;
    if (g.profiling)
        t0 = seconds();
    relax_k<<<64, 256>>>(g.u);
    if (g.profiling) {
        cudaDeviceSynchronize();
        g.costs.relax += seconds() - t0;
    }
}
void smooth(Grid &g)
{
    double t0 = seconds();
    smooth_k<<<64, 256>>>(g.u);
    if (g.tracing) {
        cudaDeviceSynchronize();
        g.costs.smooth += seconds() - t0;
    }
}
void set_tracing(Grid &g, int step) { g.tracing = step % 2 == 0; }
void damp(Grid &g, bool timing)
{
    double t0 = seconds();
    relax_k<<<64, 256>>>(g.u);
    if (timing) {
        cudaDeviceSynchronize();
        g.costs.damp += seconds() - t0;
    }
}
