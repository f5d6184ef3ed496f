// solver.h: the solver's functions, which solver.cu defines.
void solve(float *a, float *x, int n);
void solve_sometimes(float *a, float *x, int n, int check);
void smooth(float *a, int n);
