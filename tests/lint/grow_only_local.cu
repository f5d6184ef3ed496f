// grow_only_local.cu: a grow guard whose capacity is a local of the function ('size_t cap = 0;'
// at its top) holds only within one call: where the function runs on every iteration of a loop
// that enqueues device work, the buffer is allocated again on every call that has data, so the
// allocations are warnings. The same guard with a capacity that outlives the call (a member),
// or in a function that runs once, stays a note.
#include <cuda_runtime.h>
#include <vector>

__global__ void scatter(char *d, size_t n) { d[0] = (char)n; }

void create(const std::vector<std::vector<char>> &states, cudaStream_t s)
{
    size_t cap = 0;
    char *d = nullptr;
    for (const auto &st : states) {
        if (st.size() > cap) {
            if (d)
                cudaFree(d); // expect: SYNC402 expect-severity: warning
            cudaMalloc(&d, st.size()); // expect: SYNC402 expect-severity: warning
            cap = st.size();
        }
        cudaMemcpyAsync(d, st.data(), st.size(), cudaMemcpyHostToDevice, s); // expect: SYNC201
        scatter<<<1, 1, 0, s>>>(d, st.size());
    }
    cudaFree(d); // expect: SYNC402 expect-severity: warning
}

struct Creator {
    size_t cap = 0;
    char *d = nullptr;
    void create(const std::vector<std::vector<char>> &states, cudaStream_t s);
};

void Creator::create(const std::vector<std::vector<char>> &states, cudaStream_t s)
{
    for (const auto &st : states) {
        if (st.size() > cap) {
            if (d)
                cudaFree(d); // expect: SYNC402 expect-severity: note expect-message: grow-only: it runs when the buffer grows (line 37 compares with 'cap'
            cudaMalloc(&d, st.size()); // expect: SYNC402 expect-severity: note
            cap = st.size();
        }
        cudaMemcpyAsync(d, st.data(), st.size(), cudaMemcpyHostToDevice, s); // expect: SYNC201
        scatter<<<1, 1, 0, s>>>(d, st.size());
    }
}

void load_once(const std::vector<std::vector<char>> &states, cudaStream_t s)
{
    size_t cap = 0;
    char *d = nullptr;
    for (const auto &st : states) {
        if (st.size() > cap) {
            if (d)
                cudaFree(d); // expect: SYNC402 expect-severity: note expect-message: grow-only: it runs when the buffer grows (line 53 compares with 'cap'
            cudaMalloc(&d, st.size()); // expect: SYNC402 expect-severity: note
            cap = st.size();
        }
        cudaMemcpyAsync(d, st.data(), st.size(), cudaMemcpyHostToDevice, s); // expect: SYNC201
        scatter<<<1, 1, 0, s>>>(d, st.size());
    }
}

void run(const std::vector<std::vector<char>> &states, Creator &c, cudaStream_t s, int steps)
{
    for (int i = 0; i < steps; i++) {
        create(states, s);
        c.create(states, s);
    }
}
