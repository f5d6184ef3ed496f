/* cublas_v2.h: the few cuBLAS declarations tests/lint's cases use, a system header as the
 * toolkit's is, with its names: the functions are declared with the _v2 suffix and the header's
 * macros map the names written in code onto them. */
#pragma GCC system_header
#ifndef SYNCSCOPE_TEST_CUBLAS_V2_H
#define SYNCSCOPE_TEST_CUBLAS_V2_H
typedef struct cublasContext *cublasHandle_t;
typedef int cublasStatus_t;
typedef enum { CUBLAS_POINTER_MODE_HOST = 0, CUBLAS_POINTER_MODE_DEVICE = 1 } cublasPointerMode_t;
struct CUstream_st;
cublasStatus_t cublasCreate_v2(cublasHandle_t *handle);
cublasStatus_t cublasDestroy_v2(cublasHandle_t handle);
cublasStatus_t cublasSetStream_v2(cublasHandle_t handle, struct CUstream_st *streamId);
cublasStatus_t cublasSetPointerMode_v2(cublasHandle_t handle, cublasPointerMode_t mode);
cublasStatus_t cublasSscal(cublasHandle_t handle, int n, const float *alpha, float *x, int incx);
cublasStatus_t cublasSasum_v2(cublasHandle_t handle, int n, const float *x, int incx,
                              float *result);
cublasStatus_t cublasDnrm2_v2(cublasHandle_t handle, int n, const double *x, int incx,
                              double *result);
cublasStatus_t cublasSdot_v2(cublasHandle_t handle, int n, const float *x, int incx, const float *y,
                             int incy, float *result);
cublasStatus_t cublasIsamax_v2_64(cublasHandle_t handle, long long n, const float *x,
                                  long long incx, long long *result);
#define cublasCreate cublasCreate_v2
#define cublasDestroy cublasDestroy_v2
#define cublasSetStream cublasSetStream_v2
#define cublasSetPointerMode cublasSetPointerMode_v2
#define cublasSasum cublasSasum_v2
#define cublasDnrm2 cublasDnrm2_v2
#define cublasSdot cublasSdot_v2
#define cublasIsamax_64 cublasIsamax_v2_64
#endif
