// own_upload_event.cu: a wait for an event that the unit records only right after an upload from
// a host buffer, with device work queued behind the record, when the statement after the wait
// rewrites that buffer (Kaldi's feature pipeline and nnet3 batcher: a pinned table of lane
// descriptors filled, uploaded and reused on every call). The host waits until its own earlier
// upload has read the buffer, not for the device, which works through the kernels queued behind
// the event: a note ("own upload: ..."). Still warnings: a kernel queued between the upload and
// the record (the event waits for device work too), nothing queued behind the record (the wait
// drains the stream), the host rewriting another buffer than the one uploaded, and an event
// also recorded after a kernel elsewhere in the unit, an upload from pageable memory ('h_mal',
// malloc'ed: the upload stages it before the call returns, so the host may rewrite it without
// the wait), and the host pointing the buffer elsewhere before it writes ('h_cur = h_next':
// double buffering, the wait is avoidable).
#include <cuda_runtime.h>
#include <stdlib.h>

struct Lane {
    int channel, frames;
};

__global__ void features(const Lane *lanes, float *out) { out[threadIdx.x] = lanes[threadIdx.x].frames; }

struct Pipe {
    Lane *h_lanes, *d_lanes, *h_other, *h_mal, *h_cur, *h_next;
    float *d_out;
    cudaEvent_t ev, ev_kernel, ev_last, ev_other, ev_twice, ev_mal, ev_swap;
    cudaStream_t st;

    void batch(int n)
    {
        cudaEventSynchronize(ev); // expect: SYNC401 expect-severity: note expect-message: own upload: it waits for its own earlier upload from 'h_lanes', the host buffer that line 31 rewrites next: 'ev' is recorded only right after an upload from it (line 35), with device work queued behind the record (line 37)
        for (int i = 0; i < n; i++) {
            Lane lane = {i, 2 * i};
            h_lanes[i] = lane;
        }
        cudaMemcpyAsync(d_lanes, h_lanes, n * sizeof(Lane), cudaMemcpyHostToDevice, st);
        cudaEventRecord(ev, st);
        features<<<1, n, 0, st>>>(d_lanes, d_out);
    }

    void batch_kernel(int n)
    {
        cudaEventSynchronize(ev_kernel); // expect: SYNC401 expect-severity: warning
        for (int i = 0; i < n; i++)
            h_lanes[i].frames = i;
        cudaMemcpyAsync(d_lanes, h_lanes, n * sizeof(Lane), cudaMemcpyHostToDevice, st);
        features<<<1, n, 0, st>>>(d_lanes, d_out);
        cudaEventRecord(ev_kernel, st);
        features<<<1, n, 0, st>>>(d_lanes, d_out);
    }

    void batch_last(int n)
    {
        cudaEventSynchronize(ev_last); // expect: SYNC401 expect-severity: warning
        for (int i = 0; i < n; i++)
            h_lanes[i].frames = i;
        features<<<1, n, 0, st>>>(d_lanes, d_out);
        cudaMemcpyAsync(d_lanes, h_lanes, n * sizeof(Lane), cudaMemcpyHostToDevice, st);
        cudaEventRecord(ev_last, st);
    }

    void batch_other(int n)
    {
        cudaEventSynchronize(ev_other); // expect: SYNC401 expect-severity: warning
        for (int i = 0; i < n; i++)
            h_other[i].frames = i;
        cudaMemcpyAsync(d_lanes, h_lanes, n * sizeof(Lane), cudaMemcpyHostToDevice, st);
        cudaEventRecord(ev_other, st);
        features<<<1, n, 0, st>>>(d_lanes, d_out);
    }

    void batch_twice(int n)
    {
        cudaEventSynchronize(ev_twice); // expect: SYNC401 expect-severity: warning
        for (int i = 0; i < n; i++)
            h_lanes[i].frames = i;
        cudaMemcpyAsync(d_lanes, h_lanes, n * sizeof(Lane), cudaMemcpyHostToDevice, st);
        cudaEventRecord(ev_twice, st);
        features<<<1, n, 0, st>>>(d_lanes, d_out);
    }

    void finish(int n)
    {
        features<<<1, n, 0, st>>>(d_lanes, d_out);
        cudaEventRecord(ev_twice, st);
    }

    void batch_malloc(int n)
    {
        cudaEventSynchronize(ev_mal); // expect: SYNC401 expect-severity: warning
        for (int i = 0; i < n; i++)
            h_mal[i].frames = i;
        cudaMemcpyAsync(d_lanes, h_mal, n * sizeof(Lane), cudaMemcpyHostToDevice, st);
        cudaEventRecord(ev_mal, st);
        features<<<1, n, 0, st>>>(d_lanes, d_out);
    }

    void batch_swap(int n)
    {
        cudaEventSynchronize(ev_swap); // expect: SYNC401 expect-severity: warning
        Lane *t = h_cur;
        h_cur = h_next;
        h_next = t;
        for (int i = 0; i < n; i++)
            h_cur[i].frames = i;
        cudaMemcpyAsync(d_lanes, h_cur, n * sizeof(Lane), cudaMemcpyHostToDevice, st);
        cudaEventRecord(ev_swap, st);
        features<<<1, n, 0, st>>>(d_lanes, d_out);
    }

    Pipe(int n)
    {
        cudaMallocHost((void **)&h_lanes, n * sizeof(Lane));
        cudaMallocHost((void **)&h_other, n * sizeof(Lane));
        cudaMallocHost((void **)&h_cur, n * sizeof(Lane));
        cudaMallocHost((void **)&h_next, n * sizeof(Lane));
        h_mal = (Lane *)malloc(n * sizeof(Lane));
    }
};

void run(Pipe &p, int steps)
{
    for (int s = 0; s < steps; s++) {
        p.batch(32);
        p.batch_kernel(32);
        p.batch_last(32);
        p.batch_other(32);
        p.batch_twice(32);
        p.finish(32);
        p.batch_malloc(32);
        p.batch_swap(32);
    }
}
