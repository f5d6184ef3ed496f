int extract(int *d_count);
static int twice(int *d) { return extract(d) + extract(d + 1); }
int run(int *d)
{
    int s = 0;
    for (int i = 0; i < 1000; i++)
        s += twice(d);
    return s;
}
