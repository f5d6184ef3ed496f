// readback_then_upload.cu: a one-value readback (SYNC301) whose next device call, in the same
// block with only a declaration or a store on the host between, is a synchronous copy to the
// device on the same (legacy) stream. That copy waits for all the work queued before it before
// it returns, from pageable or pinned memory alike, so the readback's stall is the upload's too:
// each would make the other free (held-out-18's shape AJ, at c1d6350 a warning). The readback is
// a note ("drained anyway"), and the upload keeps its "drained" note. Warnings stay where work is
// queued between them, where the upload may not run (a branch, the right of '&&'), where the
// next call returns without waiting (an asynchronous upload, a copy within the device) or is
// another readback, where the host does work of the unit's own between, where three statements
// come between, where the copy's direction cannot be read, and where the upload resets the
// counter just read (a memset on the device could do that without a wait).
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>

struct Graph {
    int vertices;
    int edges;
};

__global__ void merge(int *count, const int *size, int n)
{
    if (threadIdx.x == 0 && blockIdx.x == 0)
        *count = n / 2 + *size;
}

__device__ int next_size[1];

static void check(cudaError_t e, int line)
{
    if (e != cudaSuccess) {
        fprintf(stderr, "%s at line %d\n", cudaGetErrorString(e), line);
        exit(EXIT_FAILURE);
    }
}
#define CHECK(call) check((call), __LINE__)
#define TRY(call)                                                                      \
    do {                                                                               \
        cudaError_t e_ = (call);                                                       \
        if (e_ != cudaSuccess) {                                                       \
            fprintf(stderr, "%s\n", cudaGetErrorString(e_));                           \
            exit(EXIT_FAILURE);                                                        \
        }                                                                              \
    } while (0)

static int *pinned_size;

void set_up()
{
    cudaMallocHost(&pinned_size, sizeof(int));
}

void log_phase(int p)
{
    printf("phase %d\n", p);
}

// The shape: the count read back into a member, a local uploaded, then the next launch.
void aggregate(Graph &g, int *d_count, int *d_size, int phases)
{
    for (int p = 0; p < phases; p++) {
        merge<<<(g.vertices + 255) / 256, 256>>>(d_count, d_size, g.vertices); // expect: SYNC101
        cudaMemcpy(&g.edges, d_count, sizeof(int), cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: note expect-message: drained anyway: the next device call, 'cudaMemcpy' at line 65, a synchronous copy to the device, waits for the same work: from pageable or pinned memory alike it returns only once the work queued before it is done (the unit creates no stream and names none but the legacy one, so all its work is queued there), and no work is queued between them on any way the unit reaches it: the stall is that copy's too, this readback adds none of its own
        int next = g.vertices / 2;
        cudaMemcpy(d_size, &next, sizeof(int), cudaMemcpyHostToDevice); // expect: SYNC202 expect-severity: note expect-message: drained: the device has nothing queued here: 'cudaMemcpy' at readback_then_upload.cu:63 drained it
        g.vertices = next;
    }
}

// Checked through a function, a store between.
void aggregate_checked(Graph &g, int *d_count, int *d_size, int phases)
{
    for (int p = 0; p < phases; p++) {
        merge<<<(g.vertices + 255) / 256, 256>>>(d_count, d_size, g.vertices); // expect: SYNC101
        CHECK(cudaMemcpy(&g.edges, d_count, sizeof(int), cudaMemcpyDeviceToHost)); // expect: SYNC301 expect-severity: note expect-message: drained anyway: the next device call, 'cudaMemcpy' at line 78, a synchronous copy to the device, waits for the same work
        int next = g.vertices - 1;
        g.vertices = next;
        CHECK(cudaMemcpy(d_size, &next, sizeof(int), cudaMemcpyHostToDevice)); // expect: SYNC202 expect-severity: note expect-message: 'cudaMemcpy' at readback_then_upload.cu:75 drained it
    }
}

// Checked by a macro written as a statement.
void aggregate_try(Graph &g, int *d_count, int *d_size, int phases)
{
    for (int p = 0; p < phases; p++) {
        merge<<<(g.vertices + 255) / 256, 256>>>(d_count, d_size, g.vertices); // expect: SYNC101
        TRY(cudaMemcpy(&g.edges, d_count, sizeof(int), cudaMemcpyDeviceToHost)); // expect: SYNC301 expect-severity: note expect-message: drained anyway: the next device call, 'cudaMemcpy' at line 89, a synchronous copy to the device, waits for the same work
        int next = g.vertices - 1;
        TRY(cudaMemcpy(d_size, &next, sizeof(int), cudaMemcpyHostToDevice)); // expect: SYNC202 expect-severity: note expect-message: 'cudaMemcpy' at readback_then_upload.cu:87 drained it
        g.vertices = next;
    }
}

// From pinned memory: the copy still blocks the host until the queued work and the copy end.
void aggregate_pinned(Graph &g, int *d_count, int *d_size, int phases)
{
    for (int p = 0; p < phases; p++) {
        *pinned_size = g.vertices / 2;
        merge<<<(g.vertices + 255) / 256, 256>>>(d_count, d_size, g.vertices); // expect: SYNC101
        cudaMemcpy(&g.edges, d_count, sizeof(int), cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: note expect-message: drained anyway: the next device call, 'cudaMemcpy' at line 101, a synchronous copy to the device, waits for the same work
        cudaMemcpy(d_size, pinned_size, sizeof(int), cudaMemcpyHostToDevice); // expect: SYNC202 expect-severity: note expect-message: 'cudaMemcpy' at readback_then_upload.cu:100 drained it
        g.vertices = *pinned_size;
    }
}

// To a symbol.
void aggregate_symbol(Graph &g, int *d_count, int *d_size, int phases)
{
    for (int p = 0; p < phases; p++) {
        merge<<<(g.vertices + 255) / 256, 256>>>(d_count, d_size, g.vertices); // expect: SYNC101
        cudaMemcpy(&g.edges, d_count, sizeof(int), cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: note expect-message: drained anyway: the next device call, 'cudaMemcpyToSymbol' at line 113, a synchronous copy to the device, waits for the same work
        int next = g.vertices / 2;
        cudaMemcpyToSymbol(next_size, &next, sizeof(int)); // expect: SYNC202 expect-severity: note expect-message: 'cudaMemcpy' at readback_then_upload.cu:111 drained it
        g.vertices = next;
    }
}

// The value sizes the launch after the upload: "inherent", as before.
void aggregate_sized(Graph &g, int *d_count, int *d_size, int phases)
{
    for (int p = 0; p < phases; p++) {
        merge<<<(g.vertices + 255) / 256, 256>>>(d_count, d_size, g.vertices); // expect: SYNC101
        cudaMemcpy(&g.edges, d_count, sizeof(int), cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: note expect-message: inherent: the next device work needs the value (line 126 sizes a launch with it)
        int next = g.vertices / 2;
        cudaMemcpy(d_size, &next, sizeof(int), cudaMemcpyHostToDevice); // expect: SYNC202 expect-severity: note
        merge<<<(g.edges + 255) / 256, 256>>>(d_count, d_size, g.edges); // expect: SYNC101
    }
}

// A launch between: the upload waits for it too, and without the readback the host would have
// queued it while the first kernel ran.
void launch_between(Graph &g, int *d_count, int *d_size, int phases)
{
    for (int p = 0; p < phases; p++) {
        merge<<<(g.vertices + 255) / 256, 256>>>(d_count, d_size, g.vertices); // expect: SYNC101
        cudaMemcpy(&g.edges, d_count, sizeof(int), cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: warning
        merge<<<1, 1>>>(d_count, d_size, 1); // expect: SYNC101
        int next = g.vertices / 2;
        cudaMemcpy(d_size, &next, sizeof(int), cudaMemcpyHostToDevice); // expect: SYNC202 expect-severity: warning
        g.vertices = next;
    }
}

// The upload in a branch: on the other way nothing waits.
void upload_in_branch(Graph &g, int *d_count, int *d_size, int phases)
{
    for (int p = 0; p < phases; p++) {
        merge<<<(g.vertices + 255) / 256, 256>>>(d_count, d_size, g.vertices); // expect: SYNC101
        cudaMemcpy(&g.edges, d_count, sizeof(int), cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: warning
        int next = g.vertices / 2;
        if (p % 2)
            cudaMemcpy(d_size, &next, sizeof(int), cudaMemcpyHostToDevice); // expect: SYNC202 expect-severity: note
        g.vertices = next;
    }
}

// The upload on the right of '&&': it may not run.
void upload_maybe(Graph &g, int *d_count, int *d_size, int phases, bool resize)
{
    for (int p = 0; p < phases; p++) {
        merge<<<(g.vertices + 255) / 256, 256>>>(d_count, d_size, g.vertices); // expect: SYNC101
        cudaMemcpy(&g.edges, d_count, sizeof(int), cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: warning
        int next = g.vertices / 2;
        resize && cudaMemcpy(d_size, &next, sizeof(int), cudaMemcpyHostToDevice) == cudaSuccess; // expect: SYNC202 expect-severity: note
        g.vertices = next;
    }
}

// An asynchronous upload of a few bytes returns without waiting for the queued work.
void upload_async(Graph &g, int *d_count, int *d_size, int phases)
{
    for (int p = 0; p < phases; p++) {
        merge<<<(g.vertices + 255) / 256, 256>>>(d_count, d_size, g.vertices); // expect: SYNC101
        cudaMemcpy(&g.edges, d_count, sizeof(int), cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: warning
        int next = g.vertices / 2;
        cudaMemcpyAsync(d_size, &next, sizeof(int), cudaMemcpyHostToDevice, 0); // expect: SYNC102, SYNC201 expect-severity: note
        g.vertices = next;
    }
}

// A copy within the device returns before it runs.
void copy_within_device(Graph &g, int *d_count, int *d_size, int phases)
{
    for (int p = 0; p < phases; p++) {
        merge<<<(g.vertices + 255) / 256, 256>>>(d_count, d_size, g.vertices); // expect: SYNC101
        cudaMemcpy(&g.edges, d_count, sizeof(int), cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: warning
        cudaMemcpy(d_size, d_count, sizeof(int), cudaMemcpyDeviceToDevice);
        g.vertices = g.vertices / 2;
    }
}

// Another readback next: not looked at (the first keeps its warning).
void two_readbacks(Graph &g, int *d_count, int *d_size, int phases)
{
    for (int p = 0; p < phases; p++) {
        merge<<<(g.vertices + 255) / 256, 256>>>(d_count, d_size, g.vertices); // expect: SYNC101
        cudaMemcpy(&g.edges, d_count, sizeof(int), cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: warning
        cudaMemcpy(&g.vertices, d_size, sizeof(int), cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: note
    }
}

// The unit's own host work between: without the readback it would overlap the kernel.
void host_work_between(Graph &g, int *d_count, int *d_size, int phases)
{
    for (int p = 0; p < phases; p++) {
        merge<<<(g.vertices + 255) / 256, 256>>>(d_count, d_size, g.vertices); // expect: SYNC101
        cudaMemcpy(&g.edges, d_count, sizeof(int), cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: warning
        log_phase(p);
        int next = g.vertices / 2;
        cudaMemcpy(d_size, &next, sizeof(int), cudaMemcpyHostToDevice); // expect: SYNC202 expect-severity: note
        g.vertices = next;
    }
}

// Three statements between: too far.
void far_upload(Graph &g, int *d_count, int *d_size, int phases)
{
    for (int p = 0; p < phases; p++) {
        merge<<<(g.vertices + 255) / 256, 256>>>(d_count, d_size, g.vertices); // expect: SYNC101
        cudaMemcpy(&g.edges, d_count, sizeof(int), cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: warning
        int next = g.vertices / 2;
        int half = next / 2;
        next += half;
        cudaMemcpy(d_size, &next, sizeof(int), cudaMemcpyHostToDevice); // expect: SYNC202 expect-severity: note
        g.vertices = next;
    }
}

// A direction lint cannot read: the host side's memory is not known.
void upload_default(Graph &g, int *d_count, int *d_size, const int *from, int phases)
{
    for (int p = 0; p < phases; p++) {
        merge<<<(g.vertices + 255) / 256, 256>>>(d_count, d_size, g.vertices); // expect: SYNC101
        cudaMemcpy(&g.edges, d_count, sizeof(int), cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: warning
        cudaMemcpy(d_size, from, sizeof(int), cudaMemcpyDefault); // expect: SYNC202 expect-severity: note
        g.vertices = g.vertices / 2;
    }
}

// A counter read back and reset: a memset on the device could reset it without a wait, and the
// readback's stall would be its own.
void count_and_reset(Graph &g, int *d_count, int *d_size, int phases)
{
    int zero = 0;
    for (int p = 0; p < phases; p++) {
        merge<<<(g.vertices + 255) / 256, 256>>>(d_count, d_size, g.vertices); // expect: SYNC101
        cudaMemcpy(&g.edges, d_count, sizeof(int), cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: warning
        cudaMemcpy(d_count, &zero, sizeof(int), cudaMemcpyHostToDevice); // expect: SYNC202 expect-severity: note expect-message: 'cudaMemcpy' at readback_then_upload.cu:247 drained it
    }
}

// A throw between: the upload may not run after the readback.
void throw_between(Graph &g, int *d_count, int *d_size, int phases)
{
    for (int p = 0; p < phases; p++) {
        merge<<<(g.vertices + 255) / 256, 256>>>(d_count, d_size, g.vertices); // expect: SYNC101
        cudaMemcpy(&g.edges, d_count, sizeof(int), cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: warning
        int next = g.vertices > 1 ? g.vertices / 2 : throw p;
        cudaMemcpy(d_size, &next, sizeof(int), cudaMemcpyHostToDevice); // expect: SYNC202 expect-severity: note
        g.vertices = next;
    }
}
