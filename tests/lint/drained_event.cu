// drained_event.cu: a wait for an event that has completed already: the event, a member of
// the class that only the class's own functions can record, is recorded in the unit on one
// stream only, and that stream was synchronized after the record, with no record of the event
// since, on every way the unit reaches the wait (a decoder copies its counters back with a
// stream synchronize, then waits for an offsets event recorded earlier on the same stream).
// A note that names the drain. It stays a warning where the event is recorded again after the
// drain, where a function of the class defined in another unit runs between (it may record
// it), or where the event is recorded on two streams.
#include <cuda_runtime.h>

__global__ void expand(int *q) { q[threadIdx.x] += 1; }

// Defined in another unit; it cannot reach the decoder's private events.
void report_overflow(int lane);

class Decoder {
  public:
    void Decode(int frames);

  private:
    void PostProcess();
    void CountersToHostSync();
    void CheckOverflow();
    void CopyQueueToHost();
    void CopyAfterRecord();
    void CopyAfterOther();
    void CopyTwoStreams();
    void Elsewhere(); // defined in another unit
    int *d_q_, *d_counters_;
    int h_counters_[64];
    cudaStream_t compute_st_, copy_st_;
    cudaEvent_t offsets_ready_evt_, copied_evt_;
};

void Decoder::PostProcess()
{
    expand<<<1, 32, 0, compute_st_>>>(d_q_);
    cudaEventRecord(offsets_ready_evt_, compute_st_);
    expand<<<1, 32, 0, compute_st_>>>(d_q_);
    cudaEventRecord(copied_evt_, copy_st_);
}

void Decoder::CountersToHostSync()
{
    cudaMemcpyAsync(h_counters_, d_counters_, sizeof h_counters_, cudaMemcpyDeviceToHost, compute_st_);
    cudaStreamSynchronize(compute_st_); // expect: SYNC401 expect-severity: warning
    cudaEventRecord(copied_evt_, compute_st_);
}

void Decoder::CheckOverflow()
{
    if (h_counters_[0] < 0)
        report_overflow(0);
}

// compute_st_ was synchronized after the event's last record: nothing left to wait for.
void Decoder::CopyQueueToHost()
{
    cudaEventSynchronize(offsets_ready_evt_); // expect: SYNC401 expect-severity: note expect-message: drained: 'offsets_ready_evt_' has completed here: this unit records it on 'compute_st_' only (2 records, the first at line 38), which 'cudaStreamSynchronize' at drained_event.cu:46 drained since, and it is not recorded again on any way the unit reaches this call: the wait waits for nothing
}

// Recorded again after the drain: the wait waits for that record.
void Decoder::CopyAfterRecord()
{
    cudaEventRecord(offsets_ready_evt_, compute_st_);
    cudaEventSynchronize(offsets_ready_evt_); // expect: SYNC401 expect-severity: warning
}

// A function of the class from another unit may record the event.
void Decoder::CopyAfterOther()
{
    Elsewhere();
    cudaEventSynchronize(offsets_ready_evt_); // expect: SYNC401 expect-severity: warning
}

// Recorded on two streams: the synchronized one may not be the one of its last record.
void Decoder::CopyTwoStreams()
{
    cudaEventSynchronize(copied_evt_); // expect: SYNC401 expect-severity: warning
}

void Decoder::Decode(int frames)
{
    for (int f = 0; f < frames; f++) {
        expand<<<1, 32, 0, compute_st_>>>(d_q_);
        PostProcess();
        CountersToHostSync();
        CheckOverflow();
        CopyQueueToHost();
        PostProcess();
        CountersToHostSync();
        CopyAfterRecord();
        PostProcess();
        CountersToHostSync();
        CopyAfterOther();
        PostProcess();
        CountersToHostSync();
        CopyTwoStreams();
    }
}
