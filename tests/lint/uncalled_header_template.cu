// uncalled_header_template.cu: a function template a header defines (not inline) runs only in
// a unit that calls it or instantiates it explicitly: a unit that does neither cannot run it,
// so a call it makes does not count against "it runs once" (upload_table, called once from
// 'main' and from the header's 'upload_as', which nothing here calls: a note), also where two
// overloads of it name each other through a call left unresolved in a template. Still
// warnings: a helper that a header template calls where the main file instantiates that
// template explicitly (for other units to call), and one that a header template calls where
// a function of the unit that another unit may call calls the template.
#include "upload_helpers.h"
#include <vector>

void upload_table(float *d, const float *h, int n, cudaStream_t s)
{
    std::vector<float> staged(h, h + n);
    cudaMemcpyAsync(d, staged.data(), n * sizeof(float), cudaMemcpyHostToDevice, s); // expect: SYNC201 expect-severity: note expect-message: it runs once: outside any loop, and 'upload_table' is called once, from 'main' (and from 'upload_as', which nothing in this unit calls)
}

void upload_rows(float *d, const float *h, int n, cudaStream_t s)
{
    std::vector<float> staged(h, h + n);
    cudaMemcpyAsync(d, staged.data(), n * sizeof(float), cudaMemcpyHostToDevice, s); // expect: SYNC201 expect-severity: note expect-message: how often it runs is not shown
}

void upload_cols(float *d, const float *h, int n, cudaStream_t s)
{
    std::vector<float> staged(h, h + n);
    cudaMemcpyAsync(d, staged.data(), n * sizeof(float), cudaMemcpyHostToDevice, s); // expect: SYNC201 expect-severity: note expect-message: how often it runs is not shown
}

void refresh(float *d, const float *h, int n, cudaStream_t s)
{
    cols_as(d, h, n, s);
}

template void rows_as<float>(float *, const float *, int, cudaStream_t);

int main()
{
    float *d = nullptr;
    float h[4] = {1, 2, 3, 4};
    cudaMalloc(&d, sizeof h);
    upload_table(d, h, 4, cudaStreamPerThread);
    upload_rows(d, h, 4, cudaStreamPerThread);
    upload_cols(d, h, 4, cudaStreamPerThread);
    return 0;
}

// Since session 32 a warning whose call is in no loop that lint sees ends as the note "how often
// it runs is not shown" (docs/lint.md, "Warning or note", item 5): such a case that stays a
// warning above is that note here, asserted by its words (no other reason for a note applies).
