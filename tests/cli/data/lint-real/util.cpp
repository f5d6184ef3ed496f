// Plain C++: analyzed, nothing to report.
int twice(int x)
{
    return 2 * x;
}
