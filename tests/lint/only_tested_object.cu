// only_tested_object.cu: a small struct of plain fields read back whole at the end of each pass,
// whose fields or const methods the loop's condition tests ('while (!buf.isEmpty())', 'while
// (buf.inserted != 0)'): the host needs the value at once, to decide whether to go on, as for a
// scalar (only_tested.cu). Still warnings: a method that may change the object, a field the host
// uses otherwise (a launch's size, a store), the object handed to a function, a struct with a
// pointer or another struct in it, one with a base class.
#include <cuda_runtime.h>

struct RayBuffer {
    unsigned int inserted;
    unsigned int capacity;
    bool isEmpty() const { return inserted == 0; }
    bool drain() { return --inserted == 0; }
};

__global__ void bounce(RayBuffer *buf, int pass)
{
    if (threadIdx.x == 0)
        buf->inserted = buf->inserted / 2 + pass % 2;
}

// 1: a const method in the do-while's condition
void by_method(RayBuffer *dBuf, int maxPath)
{
    RayBuffer buf{1024u, 4096u};
    int pass = 0;
    do {
        bounce<<<1, 32>>>(dBuf, pass); // expect: SYNC101
        cudaMemcpy(&buf, dBuf, sizeof(buf), cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: note expect-message: inherent as written: the loop only tests it to decide whether to go on (line 30, the loop's condition); to remove the stall, test it every N iterations or on the device
    } while (!buf.isEmpty() && ++pass < maxPath);
}

// 2: a field in a while loop's condition
void by_field(RayBuffer *dBuf)
{
    RayBuffer buf{1024u, 4096u};
    int pass = 0;
    while (buf.inserted != 0) {
        bounce<<<1, 32>>>(dBuf, pass++); // expect: SYNC101
        cudaMemcpy(&buf, dBuf, sizeof(buf), cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: note expect-message: inherent as written: the loop only tests it
    }
}

// 3: an 'if' that leaves the loop, on a field
void by_if(RayBuffer *dBuf, int maxPath)
{
    RayBuffer buf{};
    for (int pass = 0; pass < maxPath; ++pass) {
        bounce<<<1, 32>>>(dBuf, pass); // expect: SYNC101
        cudaMemcpy(&buf, dBuf, sizeof(buf), cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: note expect-message: the host only tests it to decide what runs next
        if (buf.inserted == buf.capacity)
            break;
    }
}

// 4: a method that may change the object is no test
void by_drain(RayBuffer *dBuf, int maxPath)
{
    RayBuffer buf{1024u, 4096u};
    int pass = 0;
    do {
        bounce<<<1, 32>>>(dBuf, pass); // expect: SYNC101
        cudaMemcpy(&buf, dBuf, sizeof(buf), cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: warning expect-no-message: inherent as written
    } while (!buf.drain() && ++pass < maxPath);
}

// 5: a field that also sizes the next launch
void sizes_launch(RayBuffer *dBuf)
{
    RayBuffer buf{1024u, 4096u};
    int pass = 0;
    do {
        bounce<<<buf.inserted / 32 + 1, 32>>>(dBuf, pass++); // expect: SYNC101
        cudaMemcpy(&buf, dBuf, sizeof(buf), cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: warning expect-no-message: inherent as written
    } while (buf.inserted != 0);
}

// 6: a field stored to in the loop
void stores_field(RayBuffer *dBuf)
{
    RayBuffer buf{1024u, 4096u};
    int pass = 0;
    do {
        bounce<<<1, 32>>>(dBuf, pass++); // expect: SYNC101
        cudaMemcpy(&buf, dBuf, sizeof(buf), cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: warning expect-no-message: inherent as written
        buf.capacity = 2 * buf.inserted;
    } while (buf.inserted != 0);
}

void record(const RayBuffer &b);

// 7: the object handed to a function
void handed_on(RayBuffer *dBuf)
{
    RayBuffer buf{1024u, 4096u};
    int pass = 0;
    do {
        bounce<<<1, 32>>>(dBuf, pass++); // expect: SYNC101
        cudaMemcpy(&buf, dBuf, sizeof(buf), cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: warning expect-no-message: inherent as written
        record(buf);
    } while (!buf.isEmpty());
}

struct Queue {
    unsigned int *items;
    unsigned int count;
    bool isEmpty() const { return count == 0; }
};
__global__ void step(Queue *q) { q->count /= 2; }

// 8: a struct that holds a pointer (what the host may do with it, lint cannot tell)
void holds_pointer(Queue *dq)
{
    Queue q{};
    do {
        step<<<1, 1>>>(dq); // expect: SYNC101
        cudaMemcpy(&q, dq, sizeof(q), cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: warning expect-no-message: inherent as written
    } while (!q.isEmpty());
}

struct Counted : RayBuffer {
    bool done() const { return inserted == 0; }
};
__global__ void step_counted(Counted *c) { c->inserted /= 2; }

// 9: a struct with a base class
void with_base(Counted *dc)
{
    Counted c{};
    do {
        step_counted<<<1, 1>>>(dc); // expect: SYNC101
        cudaMemcpy(&c, dc, sizeof(c), cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: warning expect-no-message: inherent as written
    } while (!c.done());
}
