// setup_only_caller.cu: a loop in a function that only this unit can call (static, or in an
// anonymous namespace) and that the unit calls only from set-up code (a function whose name
// says it sets up, a constructor, or a function only such code calls) runs during set-up: what
// it reaches is a note (ethminer's ethash_generate_dag, a chunked DAG build that waits for the
// device per chunk, called once per epoch from initEpoch_internal).
#include <cuda_runtime.h>

__global__ void item(unsigned base) {}

static void generate_dag(unsigned work, unsigned run, cudaStream_t s)
{
    for (unsigned base = 0; base + run <= work; base += run) {
        item<<<run / 128, 128, 0, s>>>(base);
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: note expect-message: set-up: the loop at line 12 runs during set-up: 'generate_dag' is called only from 'initEpoch_internal', which sets up (its name says so)
    }
}

bool initEpoch_internal(cudaStream_t s)
{
    generate_dag(1u << 30, 1u << 20, s);
    return true;
}

namespace {
/* Two levels up: 'fill_tables' only from 'build', 'build' only from a constructor. */
void fill_tables(float **tables, int count, cudaStream_t s)
{
    for (int i = 0; i < count; i++) {
        cudaMalloc(&tables[i], 1 << 20); // expect: SYNC402 expect-severity: note expect-message: set-up: the loop at line 28 runs during set-up: 'fill_tables' is called only from 'build', which is called only from 'Tables::Tables', which is a constructor
        cudaMemsetAsync(tables[i], 0, 1 << 20, s);
    }
}

void build(float **tables, int count, cudaStream_t s) { fill_tables(tables, count, s); }
} // namespace

struct Tables {
    float *tables[4];
    Tables(cudaStream_t s) { build(tables, 4, s); }
};

Tables *make_tables(cudaStream_t s) { return new Tables(s); }

/* A set-up function called in the loop of another set-up function (once per device) still
 * runs during set-up. */
static int upload_rows(int *table, int rows, cudaStream_t s)
{
    int last = 0;
    for (int r = 0; r < rows; r++) {
        item<<<1, 32, 0, s>>>(r);
        cudaMemcpy(&last, table + r, sizeof last, cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: note expect-message: set-up: the loop at line 49 runs during set-up: 'upload_rows' is called only from 'initDevice', which sets up (its name says so)
    }
    return last;
}

int initDevice(int *table, cudaStream_t s) { return upload_rows(table, 8, s); }

void initAll(int **tables, int devices, cudaStream_t s)
{
    for (int d = 0; d < devices; d++) {
        cudaSetDevice(d);
        initDevice(tables[d], s);
    }
}
