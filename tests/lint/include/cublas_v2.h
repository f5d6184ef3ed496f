/* cublas_v2.h: the few cuBLAS declarations tests/lint's cases use, a system header as the
 * toolkit's is. */
#pragma GCC system_header
#ifndef SYNCSCOPE_TEST_CUBLAS_V2_H
#define SYNCSCOPE_TEST_CUBLAS_V2_H
typedef struct cublasContext *cublasHandle_t;
typedef int cublasStatus_t;
cublasStatus_t cublasSscal(cublasHandle_t handle, int n, const float *alpha, float *x, int incx);
#endif
