// attach_host.cu: a task computed on the host attaches its managed buffers to the host
// (cudaStreamAttachMemAsync(s, p, 0, cudaMemAttachHost)) and waits for the stream before it
// touches them: CUDA lets the host access such memory only once the attach has taken effect,
// so that wait is inherent, a note. It stays a warning where other work was queued on the
// stream since its last wait (the wait waits for that work too), where the host touches no
// attached buffer after it, where the attach is not to the host, or where the attach was
// queued on another stream than the one waited for.
#include <cuda_runtime.h>
#include <stdio.h>

__global__ void scale(double *v, int n) { v[threadIdx.x] *= 2.0; }

static void host_axpy(int n, const double *x, double *y)
{
    for (int i = 0; i < n; i++)
        y[i] += x[i];
}

struct Task {
    double *x, *y;
    int n;
};

// Small tasks on the host, large ones on a stream of their own.
static void run_task(Task &t, cudaStream_t *streams, int tid)
{
    if (t.n < 100) {
        cudaStreamAttachMemAsync(streams[0], t.x, 0, cudaMemAttachHost);
        cudaStreamAttachMemAsync(streams[0], t.y, 0, cudaMemAttachHost);
        cudaStreamSynchronize(streams[0]); // expect: SYNC401 expect-severity: note expect-message: inherent: the host may touch 't.y' only once its attach to the host ('cudaStreamAttachMemAsync' at line 29) has taken effect, which this wait ensures: line 31 passes 't.y' to 'host_axpy()', and nothing else was queued on 'streams[0]' since the start of 'run_task()'
        host_axpy(t.n, t.x, t.y);
    } else {
        cudaStreamAttachMemAsync(streams[tid + 1], t.x, 0, cudaMemAttachSingle);
        cudaStreamAttachMemAsync(streams[tid + 1], t.y, 0, cudaMemAttachSingle);
        scale<<<1, 32, 0, streams[tid + 1]>>>(t.y, t.n);
    }
}

// An earlier wait on the stream: only the attach is queued since.
static void after_wait(Task &t, double *other, cudaStream_t s)
{
    scale<<<1, 32, 0, s>>>(other, t.n);
    cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning
    cudaStreamAttachMemAsync(s, t.y, 0, cudaMemAttachHost);
    cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: note expect-message: and nothing else was queued on 's' since 'cudaStreamSynchronize' at line 43
    printf("%f\n", t.y[0]);
}

// A kernel queued on the stream since its last wait: the wait waits for it too.
static void work_before(Task &t, double *other, cudaStream_t s)
{
    scale<<<1, 32, 0, s>>>(other, t.n);
    cudaStreamAttachMemAsync(s, t.y, 0, cudaMemAttachHost);
    cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning
    host_axpy(t.n, t.x, t.y);
}

// The host touches no attached buffer after the wait.
static void untouched(Task &t, double *other, cudaStream_t s)
{
    cudaStreamAttachMemAsync(s, t.y, 0, cudaMemAttachHost);
    cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning
    host_axpy(t.n, other, other);
}

// Attached for every stream to use, not to the host.
static void attach_global(Task &t, cudaStream_t s)
{
    cudaStreamAttachMemAsync(s, t.y, 0, cudaMemAttachGlobal);
    cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning
    host_axpy(t.n, t.x, t.y);
}

// The attach on one stream, the wait on another.
static void other_stream(Task &t, cudaStream_t s, cudaStream_t u)
{
    cudaStreamAttachMemAsync(s, t.y, 0, cudaMemAttachHost);
    cudaStreamSynchronize(u); // expect: SYNC401 expect-severity: warning
    host_axpy(t.n, t.x, t.y);
}

// Work queued after the attach, before the wait.
static void work_between(Task &t, double *other, cudaStream_t s)
{
    cudaStreamAttachMemAsync(s, t.y, 0, cudaMemAttachHost);
    scale<<<1, 32, 0, s>>>(other, t.n);
    cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning
    host_axpy(t.n, t.x, t.y);
}

// The earlier wait only in a branch: the kernel may still be queued.
static void maybe_waited(Task &t, double *other, cudaStream_t s, bool flush)
{
    scale<<<1, 32, 0, s>>>(other, t.n);
    if (flush)
        cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning
    cudaStreamAttachMemAsync(s, t.y, 0, cudaMemAttachHost);
    cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning
    host_axpy(t.n, t.x, t.y);
}

// A loop of the function: its previous iteration queued work on the stream.
static void loop_work(Task *tasks, int count, cudaStream_t s)
{
    for (int i = 0; i < count; i++) {
        cudaStreamAttachMemAsync(s, tasks[i].y, 0, cudaMemAttachHost);
        cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning
        host_axpy(tasks[i].n, tasks[i].x, tasks[i].y);
        cudaStreamAttachMemAsync(s, tasks[i].y, 0, cudaMemAttachSingle);
        scale<<<1, 32, 0, s>>>(tasks[i].y, tasks[i].n);
    }
}

void run_all(Task *tasks, int count, double *other, cudaStream_t *streams)
{
    for (int i = 0; i < count; i++) {
        scale<<<1, 32, 0, streams[5]>>>(other, 32);
        run_task(tasks[i], streams, i % 4);
        after_wait(tasks[i], other, streams[6]);
        work_before(tasks[i], other, streams[6]);
        untouched(tasks[i], other, streams[6]);
        attach_global(tasks[i], streams[6]);
        other_stream(tasks[i], streams[6], streams[7]);
        work_between(tasks[i], other, streams[6]);
        maybe_waited(tasks[i], other, streams[6], i % 16 == 0);
    }
    loop_work(tasks, count, streams[6]);
}

// The same host task in a template, each call wrapped in an error-checking macro.
#define CHECK(call) check_status((call), #call)
static void check_status(cudaError_t status, const char *what)
{
    if (status != cudaSuccess)
        fprintf(stderr, "%s: %s\n", what, cudaGetErrorString(status));
}

template <typename T> struct Job {
    T *x, *y;
    int n;
};

template <typename T> static void host_add(int n, const T *x, T *y)
{
    for (int i = 0; i < n; i++)
        y[i] += x[i];
}

template <typename T> static void run_job(Job<T> &job, cudaStream_t *streams)
{
    if (job.n < 100) {
        printf("job of %d on the host\n", job.n);
        CHECK(cudaStreamAttachMemAsync(streams[0], job.y, 0, cudaMemAttachHost));
        CHECK(cudaStreamSynchronize(streams[0])); // expect: SYNC401 expect-severity: note expect-message: inherent: the host may touch 'job.y' only once its attach to the host ('cudaStreamAttachMemAsync' at line 153) has taken effect, which this wait ensures: line 155 passes 'job.y' to 'host_add()', and nothing else was queued on 'streams[0]' since the start of 'run_job()'
        host_add(job.n, job.x, job.y);
    }
}

void run_jobs(Job<double> *jobs, int count, double *other, cudaStream_t *streams)
{
    for (int i = 0; i < count; i++) {
        scale<<<1, 32, 0, streams[5]>>>(other, 32);
        run_job(jobs[i], streams);
    }
}
