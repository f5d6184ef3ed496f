struct Costs {
    double relax, smooth, damp;
};
struct Grid {
    float *u;
    bool profiling, tracing;
    Costs costs;
};
void relax(Grid &g);
void smooth(Grid &g);
void set_tracing(Grid &g, int step);
void damp(Grid &g, bool timing);
void run(Grid &g, int steps)
{
    for (int step = 0; step < steps; step++) {
        relax(g);
        set_tracing(g, step);
        smooth(g);
        damp(g, true);
    }
}
