// inherent_holder_call.cu: per frame, the coefficients of a tile are copied back into a member of
// a tile object on its stream, the host waits for the stream, and what the host does next needs
// the data: a call given the object that holds the buffer ('emit(t)' after a copy into
// 't->h_coef'; also the object a local holder points into, 'encode(e)' with 't = &e->tile'), or
// a loop over the buffer (also under an 'if' that queues no device work). Inherent, a note,
// naming the statement that needs the value; log lines and an optional timer's event records
// before the call or loop are passed over. Warnings stay where the first call after the wait is
// given only another member of the object, where the call comes past the three statements
// looked at, where device work (a copy, a launch) is queued before the call or in the 'if', and
// where the unit's function given the object never names the buffer.
#include <cuda_runtime.h>
#include <stddef.h>

struct tile {
    cudaStream_t stream;
    short *d_coef, *h_coef; /* h_coef: pinned */
    size_t count;
    int timed;
    cudaEvent_t done;
    long checksum;
};

__global__ void quantize(short *coef, size_t count)
{
    if (threadIdx.x < count)
        coef[threadIdx.x] >>= 1;
}

int emit(struct tile *t) { return t->h_coef[0] < 0; } /* writes out t->h_coef */
void note_size(size_t count);    /* another unit's: a log line */
void stamp_frame(int frame);     /* another unit's: host-side timing */

/* A function of this unit given the tile that reads only its checksum. */
static long tile_checksum(const struct tile *t) { return t->checksum; }

/* A function of this unit given the tile that reads the copied coefficients. */
static long coef_sum(const struct tile *t)
{
    long sum = 0;
    for (size_t i = 0; i < t->count; ++i)
        sum += t->h_coef[i];
    return sum;
}

static void fetch(struct tile *t)
{
    quantize<<<1, 256, 0, t->stream>>>(t->d_coef, t->count);
    cudaMemcpyAsync(t->h_coef, t->d_coef, t->count * sizeof(short), cudaMemcpyDeviceToHost,
                    t->stream);
}

// The call right after the wait is given the tile: it reads the coefficients.
int frames_emit(struct tile *t, int frames)
{
    for (int f = 0; f < frames; ++f) {
        quantize<<<1, 256, 0, t->stream>>>(t->d_coef, t->count);
        cudaMemcpyAsync(t->h_coef, t->d_coef, t->count * sizeof(short), cudaMemcpyDeviceToHost, t->stream);
        cudaStreamSynchronize(t->stream); // expect: SYNC401 expect-severity: note expect-message: inherent: the next statement needs the value (line 59 passes 't', which holds 'h_coef', to 'emit()')
        if (emit(t) != 0)
            return -1;
    }
    return 0;
}

// An optional timer's event record and a timing call between: passed over.
int frames_timed(struct tile *t, int frames)
{
    for (int f = 0; f < frames; ++f) {
        fetch(t);
        cudaStreamSynchronize(t->stream); // expect: SYNC401 expect-severity: note expect-message: inherent: the next statement needs the value (line 75 passes 't', which holds 'h_coef', to 'emit()', past line 71, which only records an event)
        if (t->timed) {
            cudaEventRecord(t->done, t->stream);
        }
        stamp_frame(f);
        if (emit(t) != 0)
            return -1;
    }
    return 0;
}

// The host goes through the buffer itself, past the event record.
long frames_loop(struct tile *t, int frames)
{
    long total = 0;
    for (int f = 0; f < frames; ++f) {
        fetch(t);
        cudaStreamSynchronize(t->stream); // expect: SYNC401 expect-severity: note expect-message: inherent: the next statement needs the value (line 91 reads 'h_coef' in a loop, past line 88, which only records an event)
        cudaEventRecord(t->done, t->stream);
        note_size(t->count);
        long sum = 0;
        for (size_t i = 0; i < t->count; ++i)
            sum += t->h_coef[i];
        total += sum;
    }
    return total;
}

// A function of this unit given the tile that reads the buffer.
long frames_sum(struct tile *t, int frames)
{
    long total = 0;
    for (int f = 0; f < frames; ++f) {
        fetch(t);
        cudaStreamSynchronize(t->stream); // expect: SYNC401 expect-severity: note expect-message: inherent: the next statement needs the value (line 105 passes 't', which holds 'h_coef', to 'coef_sum()')
        total += coef_sum(t);
    }
    return total;
}

// Given only another member of the tile: the call need not read the coefficients.
int frames_size_only(struct tile *t, int frames)
{
    for (int f = 0; f < frames; ++f) {
        fetch(t);
        cudaStreamSynchronize(t->stream); // expect: SYNC401 expect-severity: warning
        note_size(t->count);
    }
    return 0;
}

// A log line between the wait and the call given the tile: passed over.
int frames_logged(struct tile *t, int frames)
{
    for (int f = 0; f < frames; ++f) {
        fetch(t);
        cudaStreamSynchronize(t->stream); // expect: SYNC401 expect-severity: note expect-message: (line 128 passes 't', which holds 'h_coef', to 'emit()')
        note_size(t->count);
        if (emit(t) != 0)
            return -1;
    }
    return 0;
}

// Three log lines between: the call given the tile is past the statements looked at.
int frames_far(struct tile *t, int frames)
{
    for (int f = 0; f < frames; ++f) {
        fetch(t);
        cudaStreamSynchronize(t->stream); // expect: SYNC401 expect-severity: warning
        note_size(t->count);
        stamp_frame(f);
        note_size(t->count * 2);
        if (emit(t) != 0)
            return -1;
    }
    return 0;
}

// More device work is queued before the tile is handed on.
int frames_more_work(struct tile *t, int frames)
{
    for (int f = 0; f < frames; ++f) {
        fetch(t);
        cudaStreamSynchronize(t->stream); // expect: SYNC401 expect-severity: warning
        cudaMemsetAsync(t->d_coef, 0, t->count * sizeof(short), t->stream);
        if (emit(t) != 0)
            return -1;
    }
    return 0;
}

// A launch between the wait and the call given the tile.
int frames_launch(struct tile *t, int frames)
{
    for (int f = 0; f < frames; ++f) {
        fetch(t);
        cudaStreamSynchronize(t->stream); // expect: SYNC401 expect-severity: warning
        quantize<<<1, 256, 0, t->stream>>>(t->d_coef, t->count);
        if (emit(t) != 0)
            return -1;
    }
    return 0;
}

// The unit's function given the tile reads only its checksum.
long frames_checksum(struct tile *t, int frames)
{
    long total = 0;
    for (int f = 0; f < frames; ++f) {
        fetch(t);
        cudaStreamSynchronize(t->stream); // expect: SYNC401 expect-severity: warning
        total += tile_checksum(t);
    }
    return total;
}

// The tile is a member of an encoder: the call given the encoder hands the tile's buffer on.
struct encoder {
    struct tile tile;
    int quality;
};

int encode_tile(struct encoder *e) { return e->tile.h_coef[0] < 0; } /* codes the coefficients */

int frames_encoder(struct encoder *e, int frames)
{
    struct tile *t = &e->tile;
    for (int f = 0; f < frames; ++f) {
        fetch(t);
        cudaStreamSynchronize(t->stream); // expect: SYNC401 expect-severity: note expect-message: (line 201 passes 'e', which holds 'h_coef', to 'encode_tile()')
        if (encode_tile(e) != 0)
            return -1;
    }
    return 0;
}

// The host walks the buffer in a loop under an 'if' right after the wait.
long frames_branch(struct tile *t, int frames)
{
    long total = 0;
    for (int f = 0; f < frames; ++f) {
        fetch(t);
        cudaStreamSynchronize(t->stream); // expect: SYNC401 expect-severity: note expect-message: (line 214 reads 'h_coef' in a loop (line 215))
        if (t->timed == 0) {
            for (size_t i = 0; i < t->count; ++i)
                total += t->h_coef[i];
        }
    }
    return total;
}

// The 'if' queues device work before its loop: the wait could come later.
long frames_branch_work(struct tile *t, int frames)
{
    long total = 0;
    for (int f = 0; f < frames; ++f) {
        fetch(t);
        cudaStreamSynchronize(t->stream); // expect: SYNC401 expect-severity: warning
        if (t->timed == 0) {
            quantize<<<1, 256, 0, t->stream>>>(t->d_coef, t->count);
            for (size_t i = 0; i < t->count; ++i)
                total += t->h_coef[i];
        }
    }
    return total;
}

int emit_elsewhere(struct tile *t); /* another unit's: may touch only the other members */

// A function of another unit given the tile: its body is not here to show it reads the buffer (a
// frame counter's update would not), so the wait stays a warning.
int frames_elsewhere(struct tile *t, int frames)
{
    for (int f = 0; f < frames; ++f) {
        fetch(t);
        cudaStreamSynchronize(t->stream); // expect: SYNC401 expect-severity: warning
        if (emit_elsewhere(t) != 0)
            return -1;
    }
    return 0;
}
