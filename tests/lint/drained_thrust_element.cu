// drained_thrust_element.cu: a wait for the whole device followed at once by the read of a
// Thrust device container's element (session 46, held-out-39's shape Y: nvbio's work queue reads
// the next queue size back as 'm_continuations[n - 1]' right after cudaDeviceSynchronize). Such a
// read is a synchronous copy from the device on the default stream, as a cudaMemcpy readback is
// (drained_*.cu): where no other stream holds work, it waits for the same work, so the wait is
// "drained anyway" and the read is the stall, a warning. Still a warning: the wait where another
// stream holds work, and the wait before a store into an element (nothing read).
// lint-args: -std=c++17
#include <thrust/device_vector.h>

__global__ void load(unsigned *c, unsigned n)
{
    if (threadIdx.x < n)
        c[threadIdx.x] = 1;
}

// A local container.
unsigned consume(unsigned total, unsigned *d_c)
{
    thrust::device_vector<unsigned> cont(1024);
    unsigned size = 0, begun = 0;
    while (size || begun < total) {
        load<<<1, 1024>>>(d_c, size + 1); // expect: SYNC101 expect-severity: note
        begun += 1;
        size += 1;
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: note expect-message: drained anyway: the next device call, 'cont[size - 1]' at line 27, a read of a device container's element, a synchronous copy from the device, waits for the same work
        const unsigned next = cont[size - 1]; // expect: SYNC301 expect-severity: warning
        size = next > 1 ? next - 1 : 0;
    }
    return begun;
}

// The container a member, the method a class template's (nvbio's form).
template <typename T> struct Queue {
    thrust::device_vector<unsigned> conts;
    unsigned *d_c;
    unsigned consume(unsigned total);
};

template <typename T> unsigned Queue<T>::consume(unsigned total)
{
    unsigned size = 0, begun = 0;
    while (size || begun < total) {
        load<<<1, 1024>>>(d_c, size + 1); // expect: SYNC101 expect-severity: note
        begun += 1;
        size += 1;
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: note expect-message: drained anyway: the next device call, 'conts[size - 1]' at line 48
        const unsigned next = conts[size - 1]; // expect: SYNC301 expect-severity: warning
        size = next > 1 ? next - 1 : 0;
    }
    return begun;
}

template struct Queue<int>;

// Another stream holds work when the wait runs: it waits for more than the read does.
unsigned consume_busy(unsigned total, unsigned *d_c, unsigned *d_side, cudaStream_t side)
{
    thrust::device_vector<unsigned> cont(1024);
    unsigned size = 0, begun = 0;
    while (size || begun < total) {
        load<<<1, 32, 0, side>>>(d_side, 32);
        load<<<1, 1024>>>(d_c, size + 1); // expect: SYNC101 expect-severity: note
        begun += 1;
        size += 1;
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
        const unsigned next = cont[size - 1]; // expect: SYNC301
        size = next > 1 ? next - 1 : 0;
    }
    return begun;
}

// A store into an element reads nothing back.
void reset(unsigned rounds, unsigned *d_c)
{
    thrust::device_vector<unsigned> cont(1024);
    for (unsigned r = 0; r < rounds; r++) {
        load<<<1, 1024>>>(d_c, 1024); // expect: SYNC101 expect-severity: note
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
        cont[0] = 5;
    }
}
