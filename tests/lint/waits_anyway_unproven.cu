// waits_anyway_unproven.cu: waits and pageable copies where "the host needs the data next" or
// "the host waits for the copy later anyway" would be claimed from facts lint does not have: the
// shapes of the ten rows' false warnings (XGBoost's split evaluation and node table, Kaldi's
// objective), each false on some way through the code, stay warnings. The last two cases, copies
// behind error checks, run with their statements: those waits are the readbacks' (notes).
#include <cuda_runtime.h>
#include <vector>

struct Split {
    float gain;
    int node;
};

struct Label {
    int row, column;
    float weight;
};

struct NodeInfo {
    int begin, end, left, right;
};

__global__ void evaluate_kernel(Split *out, int n) { out[threadIdx.x % n].gain = 0.0f; }
__global__ void partition_kernel(int *rows, int level) { rows[threadIdx.x] += level; }
__global__ void objective_kernel(const Label *labels, int n, float *tot) { tot[0] += n; }
__global__ void finalise_kernel(const NodeInfo *nodes, int *position) { position[0] = nodes[0].left; }

void consume(const Split *begin, const Split *end);
void prepare_scratch(size_t n);

/* A stream wait behind a method, as a stream class's Sync() is. */
struct StreamView {
    cudaStream_t stream;
    void sync() { cudaStreamSynchronize(stream); } // expect: SYNC401 expect-severity: warning expect-no-message: inherent
};

/* The readback is its last device work, but it returns before any work when 'n' is 0. */
static void evaluate(int n, Split *out, Split *d_out, cudaStream_t s)
{
    if (n == 0)
        return;
    evaluate_kernel<<<1, 32, 0, s>>>(d_out, n);
    cudaMemcpyAsync(out, d_out, n * sizeof(Split), cudaMemcpyDeviceToHost, s);
}

/* On the last level 'evaluate' reads nothing back: the wait then drains the partition only. */
void grow(int levels, int *rows, Split *pinned, Split *d_out, StreamView view)
{
    for (int level = 0; level < levels; level++) {
        partition_kernel<<<64, 256, 0, view.stream>>>(rows, level);
        int n = level + 1 < levels ? 2 << level : 0;
        evaluate(n, pinned, d_out, view.stream);
        view.sync();
        consume(pinned, pinned + n);
    }
}

/* The same wrapper waited for twice per level: after the readback, and after a partition whose
   result the host never reads. One finding stands for both calls. */
static void sync_stream(cudaStream_t s)
{
    cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning expect-no-message: inherent
}

static void partition(int *rows, int level, cudaStream_t s)
{
    partition_kernel<<<64, 256, 0, s>>>(rows, level);
    sync_stream(s);
}

static void evaluate_all(int n, Split *out, Split *d_out, cudaStream_t s)
{
    evaluate_kernel<<<1, 32, 0, s>>>(d_out, n);
    cudaMemcpyAsync(out, d_out, n * sizeof(Split), cudaMemcpyDeviceToHost, s);
}

void grow_both(int levels, int *rows, Split *pinned, Split *d_out, cudaStream_t s)
{
    for (int level = 0; level < levels; level++) {
        partition(rows, level, s);
        evaluate_all(2 << level, pinned, d_out, s);
        sync_stream(s);
        consume(pinned, pinned + (2 << level));
    }
}

/* The readback is the callee's last statement, but it copies only when it has something. */
struct StreamView2 {
    cudaStream_t stream;
    void sync() { cudaStreamSynchronize(stream); } // expect: SYNC401 expect-severity: warning expect-no-message: inherent
};

static void evaluate_some(int n, Split *out, Split *d_out, cudaStream_t s)
{
    evaluate_kernel<<<1, 32, 0, s>>>(d_out, n);
    if (n > 0)
        cudaMemcpyAsync(out, d_out, n * sizeof(Split), cudaMemcpyDeviceToHost, s);
}

void grow_some(int levels, int *rows, Split *pinned, Split *d_out, StreamView2 view)
{
    for (int level = 0; level < levels; level++) {
        partition_kernel<<<64, 256, 0, view.stream>>>(rows, level);
        int n = level + 1 < levels ? 2 << level : 0;
        evaluate_some(n, pinned, d_out, view.stream);
        view.sync();
        consume(pinned, pinned + n);
    }
}

/* The same in the loop itself: on the iterations that skip the copy the wait drains the
   partition, and the host reads what an earlier iteration copied. */
struct StreamView3 {
    cudaStream_t stream;
    void sync() { cudaStreamSynchronize(stream); } // expect: SYNC401 expect-severity: warning expect-no-message: inherent
};

void grow_every_third(int levels, int *rows, Split *pinned, Split *d_out, StreamView3 view)
{
    for (int level = 0; level < levels; level++) {
        partition_kernel<<<64, 256, 0, view.stream>>>(rows, level);
        if (level % 3 == 0)
            cudaMemcpyAsync(pinned, d_out, 64 * sizeof(Split), cudaMemcpyDeviceToHost, view.stream);
        view.sync();
        consume(pinned, pinned + 64);
    }
}

/* The host waits for the upload at the readback, but first calls another unit's function,
   whose host work a pinned buffer would overlap with the copy. */
float objective(const std::vector<Label> &labels, Label *d_labels, float *d_tot, cudaStream_t s)
{
    cudaMemcpyAsync(d_labels, labels.data(), labels.size() * sizeof(Label), cudaMemcpyHostToDevice, s); // expect: SYNC201 expect-severity: note expect-message: how often it runs is not shown
    prepare_scratch(labels.size());
    objective_kernel<<<1, 256, 0, s>>>(d_labels, (int)labels.size(), d_tot);
    float tot[2];
    cudaMemcpyAsync(tot, d_tot, 2 * sizeof(float), cudaMemcpyDeviceToHost, s); // expect: SYNC201, SYNC301 expect-severity: note
    cudaStreamSynchronize(s);
    return tot[0] / tot[1];
}

/* The readback runs on one branch only: on the other the upload is never waited for. */
float objective_some(const std::vector<Label> &labels, Label *d_labels, float *d_tot, bool report,
                     cudaStream_t s)
{
    cudaMemcpyAsync(d_labels, labels.data(), labels.size() * sizeof(Label), cudaMemcpyHostToDevice, s); // expect: SYNC201 expect-severity: note expect-message: how often it runs is not shown
    objective_kernel<<<1, 256, 0, s>>>(d_labels, (int)labels.size(), d_tot);
    if (!report)
        return 0.0f;
    float tot[2];
    cudaMemcpyAsync(tot, d_tot, 2 * sizeof(float), cudaMemcpyDeviceToHost, s); // expect: SYNC201, SYNC301 expect-severity: note
    cudaStreamSynchronize(s);
    return tot[0] / tot[1];
}

/* A node table of a few bytes a node, uploaded once per batch when a tree is finished: lint
   weighs neither the loop's trip count nor the copy's size. */
struct Partitioner {
    std::vector<NodeInfo> segments;
    NodeInfo *d_nodes;
    void finalise(int *position, cudaStream_t s)
    {
        cudaMemcpyAsync(d_nodes, segments.data(), segments.size() * sizeof(NodeInfo), cudaMemcpyHostToDevice, s); // expect: SYNC201 expect-severity: warning
        finalise_kernel<<<64, 256, 0, s>>>(d_nodes, position);
    }
};

void finalise_all(std::vector<Partitioner> &parts, int *position, cudaStream_t s)
{
    for (Partitioner &part : parts)
        part.finalise(position, s);
}

/* Copies that run whenever their statement runs, behind error checks (a 'do { } while (0)' macro
   in the callee, an assignment tested by an 'if' in the loop): each wait is the readback's. */
#define CHECK_CUDA(call)                                                                           \
    do {                                                                                           \
        cudaError_t status_ = (call);                                                              \
        if (status_ != cudaSuccess)                                                                \
            throw status_;                                                                         \
    } while (0)

struct StreamView4 {
    cudaStream_t stream;
    void sync() { cudaStreamSynchronize(stream); } // expect: SYNC401 expect-severity: note expect-message: inherent: every call from a loop waits for a copy to the host
};

static void evaluate_checked(int n, Split *out, Split *d_out, cudaStream_t s)
{
    evaluate_kernel<<<1, 32, 0, s>>>(d_out, n);
    CHECK_CUDA(cudaMemcpyAsync(out, d_out, n * sizeof(Split), cudaMemcpyDeviceToHost, s));
}

void grow_checked(int levels, int *rows, Split *pinned, Split *d_out, StreamView4 view)
{
    for (int level = 0; level < levels; level++) {
        partition_kernel<<<64, 256, 0, view.stream>>>(rows, level);
        evaluate_checked(2 << level, pinned, d_out, view.stream);
        view.sync();
        consume(pinned, pinned + (2 << level));
    }
}

struct StreamView5 {
    cudaStream_t stream;
    void sync() { cudaStreamSynchronize(stream); } // expect: SYNC401 expect-severity: note expect-message: the copy into 'pinned' comes right before it
};

void grow_tested(int levels, int *rows, Split *pinned, Split *d_out, StreamView5 view)
{
    cudaError_t status;
    for (int level = 0; level < levels; level++) {
        partition_kernel<<<64, 256, 0, view.stream>>>(rows, level);
        if ((status = cudaMemcpyAsync(pinned, d_out, 64 * sizeof(Split), cudaMemcpyDeviceToHost, view.stream)) != cudaSuccess)
            throw status;
        view.sync();
        consume(pinned, pinned + 64);
    }
}

// Since session 32 a warning whose call is in no loop that lint sees ends as the note "how often
// it runs is not shown" (docs/lint.md, "Warning or note", item 5): such a case that stays a
// warning above is that note here, asserted by its words (no other reason for a note applies).
