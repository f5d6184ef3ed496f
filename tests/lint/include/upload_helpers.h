// upload_helpers.h: for uncalled_header_template.cu: a header's function templates (not
// inline) that call the unit's upload helpers; a unit runs such a template only if it calls it
// or instantiates it explicitly.
#pragma once
#include <cuda_runtime.h>

void upload_table(float *d, const float *h, int n, cudaStream_t s);
void upload_rows(float *d, const float *h, int n, cudaStream_t s);
void upload_cols(float *d, const float *h, int n, cudaStream_t s);

template <typename T> void upload_as(T *d, const float *h, int n, cudaStream_t s)
{
    upload_table(reinterpret_cast<float *>(d), h, n, s);
}

// One value: the call left unresolved in this template names the template above.
template <typename T> void upload_as(T value, const float *h, cudaStream_t s)
{
    upload_as<T>(&value, h, 1, s);
}

template <typename T> void rows_as(T *d, const float *h, int n, cudaStream_t s)
{
    upload_rows(reinterpret_cast<float *>(d), h, n, s);
}

template <typename T> void cols_as(T *d, const float *h, int n, cudaStream_t s)
{
    upload_cols(reinterpret_cast<float *>(d), h, n, s);
}
