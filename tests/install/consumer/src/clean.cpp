// clean.cpp: host code without CUDA calls.
int twice(int x)
{
    return 2 * x;
}
