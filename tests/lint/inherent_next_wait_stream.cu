// inherent_next_wait_stream.cu: a pageable asynchronous copy whose next statement waits for the
// copy itself is a note ("inherent: the next statement (line N) waits for the copy anyway"):
// a synchronization of the copy's stream as written (the legacy stream however written as a
// null handle), of the whole device, or of an event the statement recorded on the copy's stream
// first. A wait for another stream, or for an event recorded on another stream, does not wait
// for the copy: the copy's staging still blocks the host for nothing, a warning (review19).
#include <cuda_runtime.h>
#include <vector>

#define SYNC_EVENT(ev, st)                                                                       \
    do {                                                                                         \
        cudaEventRecord(ev, st);                                                                 \
        cudaEventSynchronize(ev);                                                                \
    } while (0)

void other_stream(std::vector<float> &v, float *d, cudaStream_t s, cudaStream_t other)
{
    cudaMemcpyAsync(d, v.data(), v.size() * sizeof(float), cudaMemcpyHostToDevice, s); // expect: SYNC201 expect-severity: note expect-message: how often it runs is not shown
    cudaStreamSynchronize(other);
}

void same_stream(std::vector<float> &v, float *d, cudaStream_t s, cudaStream_t other)
{
    cudaMemcpyAsync(d, v.data(), v.size() * sizeof(float), cudaMemcpyHostToDevice, s); // expect: SYNC201 expect-severity: note expect-message: inherent: the next statement (line 25) waits for the copy anyway
    cudaStreamSynchronize(s);
}

void whole_device(std::vector<float> &v, float *d, cudaStream_t s)
{
    cudaMemcpyAsync(d, v.data(), v.size() * sizeof(float), cudaMemcpyHostToDevice, s); // expect: SYNC201 expect-severity: note expect-message: inherent: the next statement (line 31) waits for the copy anyway
    cudaDeviceSynchronize();
}

void event_on_stream(std::vector<float> &v, float *d, cudaStream_t s, cudaEvent_t ev)
{
    cudaMemcpyAsync(d, v.data(), v.size() * sizeof(float), cudaMemcpyHostToDevice, s); // expect: SYNC201 expect-severity: note expect-message: inherent: the next statement (line 37) waits for the copy anyway
    SYNC_EVENT(ev, s);
}

void event_on_other(std::vector<float> &v, float *d, cudaStream_t s, cudaStream_t other,
                    cudaEvent_t ev)
{
    cudaMemcpyAsync(d, v.data(), v.size() * sizeof(float), cudaMemcpyHostToDevice, s); // expect: SYNC201 expect-severity: note expect-message: how often it runs is not shown
    SYNC_EVENT(ev, other);
}

void event_recorded_before(std::vector<float> &v, float *d, cudaStream_t s, cudaEvent_t ev)
{
    cudaEventRecord(ev, s);
    cudaMemcpyAsync(d, v.data(), v.size() * sizeof(float), cudaMemcpyHostToDevice, s); // expect: SYNC201 expect-severity: note expect-message: how often it runs is not shown
    cudaEventSynchronize(ev);
}

void legacy_stream(std::vector<float> &v, float *d)
{
    cudaMemcpyAsync(d, v.data(), v.size() * sizeof(float), cudaMemcpyHostToDevice, nullptr); // expect: SYNC102, SYNC201 expect-severity: note expect-message: inherent: the next statement (line 57) waits for the copy anyway
    cudaStreamSynchronize(0);
}

void legacy_wait_for_stream(std::vector<float> &v, float *d, cudaStream_t s)
{
    cudaMemcpyAsync(d, v.data(), v.size() * sizeof(float), cudaMemcpyHostToDevice, s); // expect: SYNC201 expect-severity: note expect-message: how often it runs is not shown
    cudaStreamSynchronize(0);
}

// Since session 32 a warning whose call is in no loop that lint sees ends as the note "how often
// it runs is not shown" (docs/lint.md, "Warning or note", item 5): such a case that stays a
// warning above is that note here, asserted by its words (no other reason for a note applies).
