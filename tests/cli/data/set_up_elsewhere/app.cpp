// The host side: set-up once, then the step loop.
void load_tables(float *t, const float *h, int n, int parts);
void refresh_tables(float *t, const float *h, int n, int parts);
void reset_tables(float *t, const float *h, int n, int parts);
void drop_tables(float *t, const float *h, int n, int parts);
void seed_tables(float *t, const float *h, int n, int parts);
void fill_tables(float *t, const float *h, int n, int parts);
void level_tables(float *t, const float *h, int n, int parts);
void load_rows(float *t, const float *h, int n);
void load_cols(float *t, const float *h, int n);
void load_edges(float *t, const float *h, int n);
void feed_edges(float *t, const float *h, int n);
void load_grid(float *t, const float *h, int n);
void step_col(float *t, const float *h, int n);

void (*on_exit_hook)(float *, const float *, int, int) = drop_tables;

static void prepare(float *t, const float *h, int n) { seed_tables(t, h, n, 4); }

void init_problem(float *t, const float *h, int n)
{
    load_tables(t, h, n, 4);
    refresh_tables(t, h, n, 4);
    drop_tables(t, h, n, 4);
    prepare(t, h, n);
    for (int level = 0; level < 3; level++)
        level_tables(t, h, n, 2);
    load_rows(t, h, n);
    load_cols(t, h, n);
    load_edges(t, h, n);
    load_grid(t, h, n);
}

void init_grid(float *t, const float *h, int n) { reset_tables(t, h, n, 2); }

void init_table(float *t, const float *h, int n) { fill_tables(t, h, n, 2); }

void step(float *t, const float *h, int n)
{
    init_grid(t, h, n);
    refresh_tables(t, h, n, 1);
    feed_edges(t, h, n);
    step_col(t, h, n);
}

#ifdef MAIN_TAKEN
int main();
int (*entry_point)() = main;
#endif

#ifndef NO_MAIN
int main()
{
    static float h[1024];
    float *t = 0;
    init_problem(t, h, 256);
    for (int s = 0; s < 100; s++)
        step(t, h, 256);
#ifdef BROKEN
    undeclared_call(t);
#endif
#ifdef MAIN_AGAIN
    static int runs = 0;
    for (int again = 0; again < 2 && runs < 2; again++, runs++)
        main();
#endif
    return 0;
}
#endif
