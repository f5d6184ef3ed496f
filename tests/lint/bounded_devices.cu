// bounded_devices.cu: a loop over the devices (each iteration sets the device to the variable
// it steps through, or to an element of a list it indexes) in a function that runs once runs
// what it reaches once per device: kmcuda's prepare_mem reads each GPU's shared-memory size
// back before its iterations. A loop that picks a device from its counter otherwise
// (round-robin, 'it % n'), a device loop in a function that may run on every step, or one
// inside another loop keeps the warning.
#include <cuda_runtime.h>
#include <vector>

__global__ void fill(unsigned *p) {}

int prepare_mem(const std::vector<int> &devs, std::vector<unsigned *> &bufs,
                std::vector<unsigned> *sizes)
{
    for (size_t devi = 0; devi < devs.size(); devi++) {
        cudaSetDevice(devs[devi]);
        unsigned h_size;
        cudaMemcpy(&h_size, bufs[0], sizeof(h_size), cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: note expect-message: bounded: the loop at line 15 runs once per device (line 16 sets the device from 'devi'), and 'prepare_mem' sets up
        sizes->push_back(h_size);
        fill<<<1, 1>>>(bufs[devi]); // expect: SYNC101 expect-severity: note
    }
    return 0;
}

void configure_devices(int ndev, std::vector<unsigned *> &bufs, std::vector<unsigned> *sizes)
{
    for (int d = 0; d < ndev; d++) {
        cudaSetDevice(d);
        unsigned h_size;
        cudaMemcpy(&h_size, bufs[0], sizeof(h_size), cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: note expect-message: bounded: the loop at line 27 runs once per device (line 28 sets the device from 'd'), and 'configure_devices' sets up
        sizes->push_back(h_size);
        fill<<<1, 1>>>(bufs[d]); // expect: SYNC101 expect-severity: note
    }
}

void step_devices(int ndev, std::vector<unsigned *> &bufs, std::vector<unsigned> *sizes)
{
    for (int d = 0; d < ndev; d++) {
        cudaSetDevice(d);
        unsigned h_size;
        cudaMemcpy(&h_size, bufs[0], sizeof(h_size), cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: warning
        sizes->push_back(h_size);
        fill<<<1, 1>>>(bufs[d]); // expect: SYNC101 expect-severity: note
    }
}

void prepare_round_robin(int iters, int ndev, std::vector<unsigned *> &bufs, unsigned *h)
{
    for (int it = 0; it < iters; it++) {
        cudaSetDevice(it % ndev);
        fill<<<1, 1>>>(bufs[it % ndev]); // expect: SYNC101 expect-severity: note
        cudaMemcpy(h, bufs[0], sizeof(unsigned), cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: warning
    }
}

void prepare_rounds(int rounds, int ndev, std::vector<unsigned *> &bufs, unsigned *h)
{
    for (int r = 0; r < rounds; r++) {
        for (int d = 0; d < ndev; d++) {
            cudaSetDevice(d);
            fill<<<1, 1>>>(bufs[d]); // expect: SYNC101 expect-severity: note
            cudaMemcpy(h, bufs[0], sizeof(unsigned), cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: warning
        }
    }
}

// The loop a macro writes (kmcuda's FOR_EACH_DEVI), read from its cursors.
#define FOR_EACH_DEVI(...)                                                                       \
    do {                                                                                         \
        for (size_t devi = 0; devi < devs.size(); devi++) {                                      \
            cudaSetDevice(devs[devi]);                                                           \
            __VA_ARGS__;                                                                         \
        }                                                                                        \
    } while (false)

static int prepare_macro(const std::vector<int> &devs, std::vector<unsigned *> &bufs, unsigned *h)
{
    FOR_EACH_DEVI(cudaMemcpy(&h[devi], bufs[devi], sizeof(unsigned), cudaMemcpyDeviceToHost); fill<<<1, 1>>>(bufs[devi])); // expect: SYNC301, SYNC101 expect-severity: note expect-message: bounded: the loop at line 78 runs once per device (line 78 sets the device from 'devi'), and 'prepare_macro'
    return 0;
}

int run_macro(const std::vector<int> &devs, std::vector<unsigned *> &bufs, unsigned *h)
{
    return prepare_macro(devs, bufs, h);
}
