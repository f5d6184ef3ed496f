// exit_flag_direct.cu: a loop whose kernel writes a flag into memory the host reads directly
// (managed memory, or mapped pinned host memory through its device address), and whose host
// waits and then only tests the flag to decide whether to go on (session 46, held-out-43's CY:
// gpu_ext's breadth-first search). The wait is what lets the host read the flag, as a
// synchronous copy of a flag in device memory is: a note, "inherent as written", with why. A
// wait for the whole device only where no other stream can hold work when it runs. Still a
// warning: a flag the host uses for more than a test, a wait for the whole device while another
// stream holds work, memory that may be pinned or pageable, a flag in device memory.
#include <climits>
#include <cstdio>
#include <cuda_runtime.h>

__global__ void relax(const int *next, int *level, int *flag, int depth, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && level[i] == depth && level[next[i]] == INT_MAX) {
        level[next[i]] = depth + 1;
        *flag = 1;
    }
}

__global__ void visit(int *offsets, int *sizes, int *edges, int *distance, int *parent, int *flag)
{
    if (offsets[threadIdx.x] < sizes[threadIdx.x] && distance[edges[0]] > 0) {
        parent[threadIdx.x] = 1;
        *flag = 1;
    }
}

__global__ void side(int *work)
{
    work[threadIdx.x] += 1;
}

// gpu_ext's form: managed memory, a wait for the whole device, the flag read into a local the
// loop's condition tests; a safety limit between.
int managed_levels(const int *d_next, int *d_level, int n)
{
    int *flag;
    cudaMallocManaged(&flag, sizeof(int));
    int depth = 0;
    int changed = 1;
    while (changed) {
        *flag = 0;
        relax<<<(n + 255) / 256, 256>>>(d_next, d_level, flag, depth, n); // expect: SYNC101 expect-severity: note
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: note expect-message: inherent as written: it waits for kernel 'relax' launched at line 45, which writes 'flag', managed memory that the host reads directly (line 47), and it waits for the whole device where, in every round but the first, no stream but the unit's default one holds work on any way the unit reaches it (the first round also waits for what was queued before the loop); the loop only tests it to decide whether to go on (line 43, the loop's condition); to remove the stall, test it every N iterations or on the device
        changed = *flag;
        depth++;
        if (depth > 100)
            break;
    }
    cudaFree(flag);
    return depth;
}

// Mapped pinned host memory: the kernel writes through the device address, the host reads the
// host one; the wait is for the launch's stream.
int pinned_levels(const int *d_next, int *d_level, int n, cudaStream_t stream)
{
    int *flag;
    int *d_flag;
    cudaHostAlloc(&flag, sizeof(int), cudaHostAllocMapped);
    cudaHostGetDevicePointer(&d_flag, flag, 0);
    int depth = 0;
    int changed = 1;
    while (changed) {
        *flag = 0;
        relax<<<(n + 255) / 256, 256, 0, stream>>>(d_next, d_level, d_flag, depth, n);
        cudaStreamSynchronize(stream); // expect: SYNC401 expect-severity: note expect-message: inherent as written: it waits for kernel 'relax' launched at line 68, which writes 'flag', pinned host memory that the host reads directly (line 70); the loop only tests it to decide whether to go on (line 66, the loop's condition); to remove the stall, test it every N iterations or on the device
        changed = flag[0];
        depth++;
    }
    cudaFreeHost(flag);
    return depth;
}

// The loop's condition reads the flag itself.
int do_levels(const int *d_next, int *d_level, int n, cudaStream_t stream)
{
    int *flag;
    cudaMallocManaged(&flag, sizeof(int));
    int depth = 0;
    do {
        *flag = 0;
        relax<<<(n + 255) / 256, 256, 0, stream>>>(d_next, d_level, flag, depth, n);
        cudaStreamSynchronize(stream); // expect: SYNC401 expect-severity: note expect-message: the loop tests it to decide whether to go on (line 88, the loop's condition)
        depth++;
    } while (*flag != 0);
    cudaFree(flag);
    return depth;
}

// A branch right after the wait tests the flag itself and leaves the loop.
int bounded_levels(const int *d_next, int *d_level, int n, int rounds, cudaStream_t stream)
{
    int *flag;
    cudaMallocManaged(&flag, sizeof(int));
    int depth = 0;
    for (; depth < rounds; depth++) {
        *flag = 0;
        relax<<<(n + 255) / 256, 256, 0, stream>>>(d_next, d_level, flag, depth, n);
        cudaStreamSynchronize(stream); // expect: SYNC401 expect-severity: note expect-message: the host tests it to decide what runs next (line 103 branches on it)
        if (!*flag)
            break;
    }
    cudaFree(flag);
    return depth;
}

// The host adds the flag up: more than a test, the wait is the loop's own choice.
int counted_levels(const int *d_next, int *d_level, int n, cudaStream_t stream)
{
    int *flag;
    cudaMallocManaged(&flag, sizeof(int));
    int found = 0;
    for (int depth = 0; depth < n; depth++) {
        *flag = 0;
        relax<<<(n + 255) / 256, 256, 0, stream>>>(d_next, d_level, flag, depth, n);
        cudaStreamSynchronize(stream); // expect: SYNC401 expect-severity: warning
        int changed = *flag;
        found += changed;
    }
    cudaFree(flag);
    return found;
}

// A wait for the whole device while another stream holds work: it waits for more than the flag.
int busy_levels(const int *d_next, int *d_level, int n, int *d_work, cudaStream_t other)
{
    int *flag;
    cudaMallocManaged(&flag, sizeof(int));
    int depth = 0;
    int changed = 1;
    while (changed) {
        side<<<1, 32, 0, other>>>(d_work);
        *flag = 0;
        relax<<<(n + 255) / 256, 256>>>(d_next, d_level, flag, depth, n); // expect: SYNC101 expect-severity: warning
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
        changed = *flag;
        depth++;
    }
    cudaFree(flag);
    return depth;
}

// The flag may be pinned or pageable memory: not known to be read as the kernel wrote it.
int either_levels(const int *d_next, int *d_level, int n, int pinned, cudaStream_t stream)
{
    int *flag;
    if (pinned)
        cudaMallocHost(&flag, sizeof(int));
    else
        flag = new int;
    int depth = 0;
    int changed = 1;
    while (changed) {
        *flag = 0;
        relax<<<(n + 255) / 256, 256, 0, stream>>>(d_next, d_level, flag, depth, n);
        cudaStreamSynchronize(stream); // expect: SYNC401 expect-severity: warning
        changed = *flag;
        depth++;
    }
    return depth;
}

// A flag in device memory the host dereferences (a mistake of its own): not memory the host
// reads directly.
int device_levels(const int *d_next, int *d_level, int n, cudaStream_t stream)
{
    int *flag;
    cudaMalloc(&flag, sizeof(int));
    int depth = 0;
    int changed = 1;
    while (changed) {
        relax<<<(n + 255) / 256, 256, 0, stream>>>(d_next, d_level, flag, depth, n);
        cudaStreamSynchronize(stream); // expect: SYNC401 expect-severity: warning
        changed = *flag;
        depth++;
    }
    cudaFree(flag);
    return depth;
}

// gpu_ext's whole form: the graph's arrays in managed memory too, five of them given to the
// kernel before the flag, the device-wide wait in a warm-up loop.
struct Graph {
    int *offsets;
    int *sizes;
    int *edges;
};

int graph_levels(int nodes, int degree)
{
    Graph g;
    cudaMallocManaged(&g.offsets, sizeof(int) * nodes);
    cudaMallocManaged(&g.sizes, sizeof(int) * nodes);
    cudaMallocManaged(&g.edges, sizeof(int) * nodes * degree);
    int *distance, *parent, *flag;
    cudaMallocManaged(&distance, sizeof(int) * nodes);
    cudaMallocManaged(&parent, sizeof(int) * nodes);
    cudaMallocManaged(&flag, sizeof(int));
    int level = 0;
    for (int w = 0; w < 2; w++) {
        level = 0;
        int changed = 1;
        while (changed) {
            *flag = 0;
            visit<<<(nodes + 255) / 256, 256>>>(g.offsets, g.sizes, g.edges, distance, parent, flag); // expect: SYNC101 expect-severity: note
            cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: note expect-message: which writes 'flag', managed memory that the host reads directly (line 210), and it waits for the whole device where, in every round but the first, no stream but the unit's default one holds work on any way the unit reaches it (the first round also waits for what was queued before the loop, once per pass of the loop at line 203)
            changed = *flag;
            level++;
        }
    }
    // The timed run reads the same flag in a loop of its own: each loop only tests it.
    int changed = 1;
    while (changed) {
        *flag = 0;
        visit<<<(nodes + 255) / 256, 256>>>(g.offsets, g.sizes, g.edges, distance, parent, flag); // expect: SYNC101 expect-severity: note
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: note expect-message: which writes 'flag', managed memory that the host reads directly (line 220), and it waits for the whole device where, in every round but the first, no stream but the unit's default one holds work on any way the unit reaches it (the first round also waits for what was queued before the loop); the loop only tests it
        changed = *flag;
        level++;
    }
    return level;
}

// Review (session 46): what keeps the warning.
// The flag read every round but tested only every eighth ('continue' between): seven of eight
// stalls buy nothing.
int sparse_levels(const int *d_next, int *d_level, int n, cudaStream_t stream)
{
    int *flag;
    cudaMallocManaged(&flag, sizeof(int));
    int depth = 0;
    for (;;) {
        *flag = 0;
        relax<<<(n + 255) / 256, 256, 0, stream>>>(d_next, d_level, flag, depth, n);
        cudaStreamSynchronize(stream); // expect: SYNC401 expect-severity: warning
        int changed = *flag;
        depth++;
        if (depth % 8 != 0)
            continue;
        if (!changed)
            break;
    }
    cudaFree(flag);
    return depth;
}

// A host loop in a branch between the wait and the test: host work that could overlap the kernel.
int summed_levels(const int *d_next, int *d_level, int n, const float *stats, int m, int verbose,
                  cudaStream_t stream)
{
    int *flag;
    cudaMallocManaged(&flag, sizeof(int));
    int depth = 0;
    float acc = 0.0f;
    int changed = 1;
    while (changed) {
        *flag = 0;
        relax<<<(n + 255) / 256, 256, 0, stream>>>(d_next, d_level, flag, depth, n);
        cudaStreamSynchronize(stream); // expect: SYNC401 expect-severity: warning
        if (verbose) {
            for (int i = 0; i < m; i++)
                acc += stats[i];
        }
        changed = *flag;
        depth++;
    }
    cudaFree(flag);
    return depth + (int)acc;
}

// Another object's flag than the one the kernel writes.
struct Solver {
    int *flag;
};

int two_solvers(Solver &a, Solver &b, const int *d_next, int *d_level, int n, cudaStream_t stream)
{
    cudaMallocManaged(&a.flag, sizeof(int));
    cudaMallocManaged(&b.flag, sizeof(int));
    int depth = 0;
    int changed = 1;
    while (changed) {
        *a.flag = 0;
        relax<<<(n + 255) / 256, 256, 0, stream>>>(d_next, d_level, a.flag, depth, n);
        cudaStreamSynchronize(stream); // expect: SYNC401 expect-severity: warning
        changed = *b.flag;
        depth++;
    }
    return depth;
}

// The flag also read through another pointer, handed to a host function, or copied by memcpy.
#include <cstring>

static int value_of(const int *p) { return *p; }

int aliased_levels(const int *d_next, int *d_level, int n, int *history, cudaStream_t stream)
{
    int *flag;
    cudaMallocManaged(&flag, sizeof(int));
    int *seen = flag;
    int depth = 0, found = 0;
    int changed = 1;
    while (changed) {
        *flag = 0;
        relax<<<(n + 255) / 256, 256, 0, stream>>>(d_next, d_level, flag, depth, n);
        cudaStreamSynchronize(stream); // expect: SYNC401 expect-severity: warning
        changed = *flag;
        found += *seen;
        depth++;
    }
    for (;;) {
        *flag = 0;
        relax<<<(n + 255) / 256, 256, 0, stream>>>(d_next, d_level, flag, depth, n);
        cudaStreamSynchronize(stream); // expect: SYNC401 expect-severity: warning
        if (!*flag)
            break;
        found += value_of(flag);
    }
    for (;;) {
        *flag = 0;
        relax<<<(n + 255) / 256, 256, 0, stream>>>(d_next, d_level, flag, depth, n);
        cudaStreamSynchronize(stream); // expect: SYNC401 expect-severity: warning
        int more = *flag;
        if (!more)
            break;
        memcpy(&history[depth++], flag, sizeof(int));
    }
    cudaFree(flag);
    return found;
}

// Mapped pinned memory read through the device's address too.
int mapped_alias_levels(const int *d_next, int *d_level, int n, cudaStream_t stream)
{
    int *flag;
    int *d_flag;
    cudaHostAlloc(&flag, sizeof(int), cudaHostAllocMapped);
    cudaHostGetDevicePointer(&d_flag, flag, 0);
    int depth = 0, found = 0;
    int changed = 1;
    while (changed) {
        *flag = 0;
        relax<<<(n + 255) / 256, 256, 0, stream>>>(d_next, d_level, d_flag, depth, n);
        cudaStreamSynchronize(stream); // expect: SYNC401 expect-severity: warning
        changed = *flag;
        found += *d_flag;
        depth++;
    }
    cudaFreeHost(flag);
    return found;
}

// The kernel writes a count too, which the host adds up: the wait serves more than the test.
__global__ void relax_count(const int *next, int *level, int *flag, int *count, int depth, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && level[i] == depth) {
        level[next[i]] = depth + 1;
        atomicAdd(count, 1);
        *flag = 1;
    }
}

int visited_levels(const int *d_next, int *d_level, int n, cudaStream_t stream)
{
    int *flag, *count;
    cudaMallocManaged(&flag, sizeof(int));
    cudaMallocManaged(&count, sizeof(int));
    int depth = 0, visited = 0;
    int changed = 1;
    while (changed) {
        *flag = 0;
        *count = 0;
        relax_count<<<(n + 255) / 256, 256, 0, stream>>>(d_next, d_level, flag, count, depth, n);
        cudaStreamSynchronize(stream); // expect: SYNC401 expect-severity: warning
        changed = *flag;
        visited += *count;
        depth++;
    }
    cudaFree(flag);
    cudaFree(count);
    return visited;
}

// The same wait also completes a readback the host uses: it serves more than the test.
int read_count_levels(const int *d_next, int *d_level, int n, const int *d_count, int *h_count,
                      cudaStream_t stream)
{
    int *flag;
    cudaMallocManaged(&flag, sizeof(int));
    int depth = 0, visited = 0;
    for (;;) {
        *flag = 0;
        cudaMemcpyAsync(h_count, d_count, sizeof(int), cudaMemcpyDeviceToHost, stream); // expect: SYNC301
        relax<<<(n + 255) / 256, 256, 0, stream>>>(d_next, d_level, flag, depth, n);
        cudaStreamSynchronize(stream); // expect: SYNC401 expect-severity: warning
        if (!*flag)
            break;
        visited += *h_count;
        depth++;
    }
    cudaFree(flag);
    return visited;
}

// What stays a note: the flag printed too ("test and print it"); a flag the host reads after
// the loop (not in it).
int printed_levels(const int *d_next, int *d_level, int n, cudaStream_t stream)
{
    int *flag;
    cudaMallocManaged(&flag, sizeof(int));
    int depth = 0;
    int changed = 1;
    while (changed) {
        *flag = 0;
        relax<<<(n + 255) / 256, 256, 0, stream>>>(d_next, d_level, flag, depth, n);
        cudaStreamSynchronize(stream); // expect: SYNC401 expect-severity: note expect-message: the loop tests it to decide whether to go on (line 417, the loop's condition) and prints it (line 422); to remove the stall, test and print it every N iterations or on the device
        changed = *flag;
        printf("depth %d changed %d\n", depth, changed);
        depth++;
    }
    int last = *flag;
    cudaFree(flag);
    return depth + last;
}

// Second review (session 46): what a launch of the loop other than the flag's writes, and what
// the flag's launch writes into memory of unknown kind, read by the host each round: the wait
// serves that read too.
__global__ void count_frontier(const int *level, int depth, int n, int *count)
{
    if (threadIdx.x < n && level[threadIdx.x] == depth)
        atomicAdd(count, 1);
}

int frontier_levels(const int *d_next, int *d_level, int n, cudaStream_t stream)
{
    int *flag, *count, *h_count, *d_count;
    cudaMallocManaged(&flag, sizeof(int));
    cudaMallocManaged(&count, sizeof(int));
    cudaHostAlloc(&h_count, sizeof(int), cudaHostAllocMapped);
    cudaHostGetDevicePointer(&d_count, h_count, 0);
    int depth = 0, visited = 0;
    int changed = 1;
    while (changed) {
        *flag = 0;
        *count = 0;
        count_frontier<<<1, 256, 0, stream>>>(d_level, depth, n, count);
        relax<<<(n + 255) / 256, 256, 0, stream>>>(d_next, d_level, flag, depth, n);
        cudaStreamSynchronize(stream); // expect: SYNC401 expect-severity: warning
        changed = *flag;
        visited += *count;
        depth++;
    }
    changed = 1;
    while (changed) {
        *flag = 0;
        *h_count = 0;
        count_frontier<<<1, 256, 0, stream>>>(d_level, depth, n, d_count);
        relax<<<(n + 255) / 256, 256, 0, stream>>>(d_next, d_level, flag, depth, n);
        cudaStreamSynchronize(stream); // expect: SYNC401 expect-severity: warning
        changed = *flag;
        visited += *h_count;
        depth++;
    }
    cudaFree(flag);
    cudaFree(count);
    cudaFreeHost(h_count);
    return visited;
}

int level_read_levels(const int *d_next, int *level, int n, int src, cudaStream_t stream)
{
    int *flag;
    cudaMallocManaged(&flag, sizeof(int));
    int depth = 0, seen = 0;
    int changed = 1;
    while (changed) {
        *flag = 0;
        relax<<<(n + 255) / 256, 256, 0, stream>>>(d_next, level, flag, depth, n);
        cudaStreamSynchronize(stream); // expect: SYNC401 expect-severity: warning
        changed = *flag;
        seen += level[src];
        depth++;
    }
    changed = 1;
    while (changed) {
        *flag = 0;
        relax<<<(n + 255) / 256, 256, 0, stream>>>(d_next, level, flag, depth, n);
        cudaStreamSynchronize(stream); // expect: SYNC401 expect-severity: note expect-message: the loop only tests it
        changed = *flag;
        depth++;
    }
    cudaFree(flag);
    return seen + level[src];
}
