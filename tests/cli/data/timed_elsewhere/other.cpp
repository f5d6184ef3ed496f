int extract(int *d_count);
void other(int *d_count);
int run(int *d)
{
    int s = 0;
    for (int i = 0; i < 1000; i++) {
        s += extract(d);
        other(d);
    }
    return s;
}
