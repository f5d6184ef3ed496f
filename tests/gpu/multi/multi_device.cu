/* multi_device.cu: one process driving two GPUs. Device-wide synchronizations on device 1
 * while device 0 is busy (SYNC401, SYNC402 on device 1 only), a legacy-stream kernel on device
 * 0 between two blocking streams while device 1's blocking streams run (SYNC101/SYNC103 on
 * device 0, nothing on device 1), and 4-byte peer copies behind pending work with peer access
 * on and off (no finding: a peer copy has no host side). Kernels named device0_* run on
 * device 0 only, so no finding on device 1 may have waited for them. */
#include "../gpu_common.h"

/* spin_kernel under another name, for device 0's work in the device-wide sync phase. */
static __global__ void device0_spin(unsigned *counters, int slot, unsigned long long ns)
{
    unsigned long long start = ss_globaltimer();
    while (ss_globaltimer() - start < ns) {
    }
    counters[slot] += 1;
}

/* Waits for 'stream' of 'device' by polling (ss_wait), leaving 'device' current. */
static void wait_on(int device, cudaStream_t stream)
{
    CHECK(cudaSetDevice(device));
    ss_wait(stream);
}

int main(void)
{
    int count = 0;
    CHECK(cudaGetDeviceCount(&count));
    if (count < 2) {
        fprintf(stderr, "multi_device: needs two devices, found %d\n", count);
        return 1;
    }
    unsigned *counters[2];
    unsigned *scratch = NULL, *peer_src = NULL, *peer_dst = NULL;
    cudaStream_t work[2], blocking0[2], blocking1[2];

    /* Everything allocated and created first, while nothing is pending. */
    CHECK(cudaSetDevice(1));
    counters[1] = ss_counters_alloc();
    CHECK(cudaMalloc(&scratch, 1 << 20));
    CHECK(cudaMalloc(&peer_dst, 4096));
    CHECK(cudaStreamCreateWithFlags(&work[1], cudaStreamNonBlocking));
    CHECK(cudaStreamCreate(&blocking1[0]));
    CHECK(cudaStreamCreate(&blocking1[1]));
    CHECK(cudaSetDevice(0));
    counters[0] = ss_counters_alloc();
    CHECK(cudaMalloc(&peer_src, 4096));
    CHECK(cudaStreamCreateWithFlags(&work[0], cudaStreamNonBlocking));
    CHECK(cudaStreamCreate(&blocking0[0])); /* syncscope: SYNC103 device 0 */
    CHECK(cudaStreamCreate(&blocking0[1])); /* syncscope: SYNC103 device 0 */

    /* Load the kernels on both devices before anything is measured. */
    for (int d = 1; d >= 0; d--) {
        CHECK(cudaSetDevice(d));
        spin_kernel<<<1, 1, 0, work[d]>>>(counters[d], 63, 0);
        if (d == 0) {
            device0_spin<<<1, 1, 0, work[d]>>>(counters[d], 63, 0);
        }
        CHECK(cudaGetLastError());
        ss_wait(work[d]);
    }

    /* 1. Device 0 busy 200 us, device 1 busy 400 us; device 1 synchronizes: it waits for its
     * own kernel, not for device 0's, which ended meanwhile. */
    unsigned long long start;
    CHECK(cudaSetDevice(0));
    device0_spin<<<1, 1, 0, work[0]>>>(counters[0], 0, 200000);
    CHECK(cudaSetDevice(1));
    spin_kernel<<<1, 1, 0, work[1]>>>(counters[1], 0, 400000);
    CHECK(cudaGetLastError());
    start = ss_now_ns();
    CHECK(cudaDeviceSynchronize()); /* syncscope: SYNC401 device 1 */
    ss_note_blocked("cudaDeviceSynchronize on device 1", start);
    wait_on(0, work[0]);

    /* 2. The same with cudaFree of a device 1 buffer. */
    device0_spin<<<1, 1, 0, work[0]>>>(counters[0], 1, 200000);
    CHECK(cudaSetDevice(1));
    spin_kernel<<<1, 1, 0, work[1]>>>(counters[1], 1, 400000);
    CHECK(cudaGetLastError());
    start = ss_now_ns();
    CHECK(cudaFree(scratch)); /* syncscope: SYNC402 device 1 */
    ss_note_blocked("cudaFree on device 1", start);
    wait_on(0, work[0]);

    /* 3. Two rounds: device 1's blocking streams run 300 us kernels; device 0's blocking
     * streams run 300 us kernels with a 50 us legacy-stream kernel between them. */
    for (int round = 0; round < 2; round++) {
        CHECK(cudaSetDevice(1));
        spin_kernel<<<1, 1, 0, blocking1[0]>>>(counters[1], 2, 300000);
        spin_kernel<<<1, 1, 0, blocking1[1]>>>(counters[1], 3, 300000);
        CHECK(cudaSetDevice(0));
        spin_kernel<<<1, 1, 0, blocking0[0]>>>(counters[0], 2, 300000);
        spin_kernel<<<1, 1, 0, blocking0[1]>>>(counters[0], 3, 300000);
        spin_kernel<<<1, 1>>>(counters[0], 4, 50000); /* syncscope: SYNC101 device 0 */
        CHECK(cudaGetLastError());
    }
    wait_on(1, blocking1[0]);
    wait_on(1, blocking1[1]);
    wait_on(0, blocking0[0]);
    wait_on(0, blocking0[1]);
    wait_on(0, 0);

    /* 4. 4-byte peer copies from device 0 to device 1 behind a 300 us kernel, with peer
     * access enabled (where the devices allow it) and disabled. */
    int can_access = 0;
    CHECK(cudaDeviceCanAccessPeer(&can_access, 0, 1));
    for (int enabled = 1; enabled >= 0; enabled--) {
        CHECK(cudaSetDevice(0));
        if (enabled && can_access) {
            CHECK(cudaDeviceEnablePeerAccess(1, 0));
        }
        spin_kernel<<<1, 1, 0, work[0]>>>(counters[0], 5, 300000);
        CHECK(cudaGetLastError());
        start = ss_now_ns();
        CHECK(cudaMemcpyPeerAsync(peer_dst, 1, peer_src, 0, 4, work[0]));
        ss_note_blocked("cudaMemcpyPeerAsync", start);
        ss_wait(work[0]);
        if (enabled && can_access) {
            CHECK(cudaDeviceDisablePeerAccess(1));
        }
    }

    unsigned long long extra = (unsigned long long)(can_access != 0) * 1000000ull;
    const cudaStream_t used1[] = {work[1], blocking1[0], blocking1[1]};
    CHECK(cudaSetDevice(1));
    CHECK(cudaFree(peer_dst));
    ss_finish(counters[1], 0, used1, 3);
    const cudaStream_t used0[] = {work[0], blocking0[0], blocking0[1]};
    CHECK(cudaSetDevice(0));
    CHECK(cudaFree(peer_src));
    ss_finish(counters[0], extra, used0, 3);
    for (int d = 0; d < 2; d++) {
        CHECK(cudaSetDevice(d));
        CHECK(cudaStreamDestroy(work[d]));
        CHECK(cudaStreamDestroy(d == 0 ? blocking0[0] : blocking1[0]));
        CHECK(cudaStreamDestroy(d == 0 ? blocking0[1] : blocking1[1]));
    }
    return 0;
}
