// error_limit.cu: when clang stops at an error limit (lint sets none; here the user's
// -ferror-limit=20, clang's default), that diagnostic names the file it belongs to (clang gives
// it no location), and the code it recovered is still analyzed. Without the limit:
// tests/cli/error_limit.sh.
// lint-args: -ferror-limit=20
// expect-error: use of undeclared identifier 'missing_helper'
// expect-error: too many errors emitted
#include <cuda_runtime.h>

void noisy()
{
    missing_helper(0);
    missing_helper(1);
    missing_helper(2);
    missing_helper(3);
    missing_helper(4);
    missing_helper(5);
    missing_helper(6);
    missing_helper(7);
    missing_helper(8);
    missing_helper(9);
    missing_helper(10);
    missing_helper(11);
    missing_helper(12);
    missing_helper(13);
    missing_helper(14);
    missing_helper(15);
    missing_helper(16);
    missing_helper(17);
    missing_helper(18);
    missing_helper(19);
    missing_helper(20);
    missing_helper(21);
    missing_helper(22);
    missing_helper(23);
}

__global__ void tick(int *x) { x[0]++; }

void after_errors(int *x)
{
    tick<<<1, 1>>>(x); // expect: SYNC101
}
