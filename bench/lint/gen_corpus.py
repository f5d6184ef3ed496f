"""gen_corpus.py: writes a deterministic corpus of realistic CUDA sources for the lint
benchmark: launch-heavy host code over project headers shared between files, the standard
library, the CUDA runtime and (in some files) Thrust, plus a compile_commands.json.

Usage: python3 gen_corpus.py OUT_DIR [--files N (240)] [--seed S (20240611)]
                             [--thrust-share F (0.12)]
The same arguments always give byte-identical files.
"""
import argparse
import json
import os
import random

MODULES = ["io", "solver", "train", "image", "sim", "graph"]
STD_HEADERS = ["<algorithm>", "<numeric>", "<cstdio>", "<string>", "<memory>", "<cmath>",
               "<map>", "<chrono>", "<stdexcept>"]
THRUST_SETS = [
    ["<thrust/device_vector.h>", "<thrust/sort.h>"],
    ["<thrust/device_vector.h>", "<thrust/reduce.h>", "<thrust/functional.h>"],
    ["<thrust/device_vector.h>", "<thrust/transform.h>", "<thrust/sequence.h>"],
    ["<thrust/device_vector.h>", "<thrust/host_vector.h>", "<thrust/scan.h>"],
]
DEFINES = ["-DPROJ_VERSION=3", "-DPROJ_ENABLE_CHECKS=1"]

HEADERS = {
    "include/proj/check.cuh": r'''// check.cuh: error checking shared by every file of the project.
#pragma once
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>

#define PROJ_CHECK(call)                                                            \
    do {                                                                            \
        cudaError_t err_ = (call);                                                  \
        if (err_ != cudaSuccess) {                                                  \
            std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__,                 \
                         cudaGetErrorString(err_));                                 \
            std::abort();                                                           \
        }                                                                           \
    } while (0)

namespace proj {
inline int blocks_for(size_t n, int threads) { return (int)((n + threads - 1) / threads); }
}  // namespace proj
''',
    "include/proj/buffer.cuh": r'''// buffer.cuh: owning device and pinned host buffers.
#pragma once
#include "proj/check.cuh"
#include <cstddef>
#include <utility>

namespace proj {
template <typename T>
class DeviceBuffer {
  public:
    DeviceBuffer() = default;
    explicit DeviceBuffer(size_t n) : n_(n) { PROJ_CHECK(cudaMalloc(&p_, n * sizeof(T))); }
    ~DeviceBuffer() { if (p_) cudaFree(p_); }
    DeviceBuffer(const DeviceBuffer &) = delete;
    DeviceBuffer &operator=(const DeviceBuffer &) = delete;
    DeviceBuffer(DeviceBuffer &&o) noexcept : p_(o.p_), n_(o.n_) { o.p_ = nullptr; }
    T *data() { return p_; }
    const T *data() const { return p_; }
    size_t size() const { return n_; }
    size_t bytes() const { return n_ * sizeof(T); }
  private:
    T *p_ = nullptr;
    size_t n_ = 0;
};

template <typename T>
class PinnedBuffer {
  public:
    explicit PinnedBuffer(size_t n) : n_(n) { PROJ_CHECK(cudaMallocHost(&p_, n * sizeof(T))); }
    ~PinnedBuffer() { if (p_) cudaFreeHost(p_); }
    PinnedBuffer(const PinnedBuffer &) = delete;
    PinnedBuffer &operator=(const PinnedBuffer &) = delete;
    T *data() { return p_; }
    T &operator[](size_t i) { return p_[i]; }
    size_t size() const { return n_; }
  private:
    T *p_ = nullptr;
    size_t n_ = 0;
};
}  // namespace proj
''',
    "include/proj/stream_pool.h": r'''// stream_pool.h: a fixed set of non-blocking streams handed out round robin.
#pragma once
#include "proj/check.cuh"
#include <vector>

namespace proj {
class StreamPool {
  public:
    explicit StreamPool(int count) : streams_(count) {
        for (auto &s : streams_) PROJ_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    }
    ~StreamPool() { for (auto s : streams_) cudaStreamDestroy(s); }
    cudaStream_t next() { return streams_[next_++ % streams_.size()]; }
    void sync_all() { for (auto s : streams_) PROJ_CHECK(cudaStreamSynchronize(s)); }
    size_t size() const { return streams_.size(); }
  private:
    std::vector<cudaStream_t> streams_;
    size_t next_ = 0;
};
}  // namespace proj
''',
    "include/proj/kernels.cuh": r'''// kernels.cuh: small device helpers and kernels shared between files.
#pragma once
#include <cuda_runtime.h>

namespace proj {
template <typename T>
__device__ __forceinline__ T clamp(T x, T lo, T hi) { return x < lo ? lo : (x > hi ? hi : x); }

template <typename T>
__global__ void fill(T *out, T value, size_t n) {
    size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (i < n) out[i] = value;
}

template <typename T>
__global__ void axpy(T a, const T *x, T *y, size_t n) {
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x)
        y[i] = a * x[i] + y[i];
}

__global__ void reduce_sum(const float *in, float *out, size_t n);
}  // namespace proj
''',
    "include/proj/config.h": r'''// config.h: run-time settings read by every module.
#pragma once
#include <string>

namespace proj {
struct Config {
    int device = 0;
    int streams = 4;
    size_t elements = 1 << 20;
    int iterations = 100;
    bool verbose = false;
    std::string name = "default";
};
const Config &config();
}  // namespace proj
''',
}


class FileWriter:
    def __init__(self, rng, module, index):
        self.rng = rng
        self.module = module
        self.index = index
        self.kernels = []
        self.lines = []

    def w(self, text=""):
        self.lines.append(text)

    def kernel(self, k):
        rng = self.rng
        name = f"{self.module}_k{self.index}_{k}"
        shape = rng.randrange(4)
        if shape == 0:
            self.w(f"__global__ void {name}(const float *in, float *out, size_t n, float scale)")
            self.w("{")
            self.w("    size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;")
            self.w("    if (i < n) out[i] = proj::clamp(in[i] * scale, -1.0f, 1.0f);")
            self.w("}")
            self.kernels.append((name, "float", "in_out_scale"))
        elif shape == 1:
            self.w("template <typename T>")
            self.w(f"__global__ void {name}(T *data, size_t n, int rounds)")
            self.w("{")
            self.w("    size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;")
            self.w("    if (i >= n) return;")
            self.w("    T x = data[i];")
            self.w("    for (int r = 0; r < rounds; r++) x = x * (T)3 + (T)1;")
            self.w("    data[i] = x;")
            self.w("}")
            self.kernels.append((name, "template", "data_rounds"))
        elif shape == 2:
            self.w(f"__global__ void {name}(const int *idx, const float *src, float *dst, int n)")
            self.w("{")
            self.w("    __shared__ float tile[256];")
            self.w("    int i = blockIdx.x * blockDim.x + threadIdx.x;")
            self.w("    tile[threadIdx.x] = i < n ? src[idx[i]] : 0.0f;")
            self.w("    __syncthreads();")
            self.w("    if (i < n) dst[i] = tile[(threadIdx.x + 1) % blockDim.x];")
            self.w("}")
            self.kernels.append((name, "gather", "gather"))
        else:
            self.w(f"__global__ void {name}(float2 *points, int n, float dt)")
            self.w("{")
            self.w("    int i = blockIdx.x * blockDim.x + threadIdx.x;")
            self.w("    if (i < n) {")
            self.w("        float2 p = points[i];")
            self.w("        p.x += dt * sinf(p.y);")
            self.w("        p.y += dt * cosf(p.x);")
            self.w("        points[i] = p;")
            self.w("    }")
            self.w("}")
            self.kernels.append((name, "points", "points"))
        self.w()

    def launch(self, kernel, stream):
        name, kind, _ = kernel
        cfg = "grid, block" + (f", 0, {stream}" if stream else "")
        if kind == "float":
            return f"{name}<<<{cfg}>>>(d_in.data(), d_out.data(), n, 0.5f);"
        if kind == "template":
            return f"{name}<float><<<{cfg}>>>(d_out.data(), n, 4);"
        if kind == "gather":
            return f"{name}<<<{cfg}>>>(d_idx.data(), d_in.data(), d_out.data(), (int)n);"
        return f"{name}<<<{cfg}>>>(d_points.data(), (int)n, 0.01f);"

    def host_function(self, f):
        rng = self.rng
        name = f"run_{self.module}_{self.index}_{f}"
        self.w(f"double {name}(const std::vector<float> &host_in, std::vector<float> &host_out,")
        self.w("        proj::StreamPool &pool)")
        self.w("{")
        self.w("    const size_t n = host_in.size();")
        self.w("    const dim3 block(256);")
        self.w("    const dim3 grid(proj::blocks_for(n, 256));")
        self.w("    proj::DeviceBuffer<float> d_in(n), d_out(n);")
        self.w("    proj::DeviceBuffer<int> d_idx(n);")
        self.w("    proj::DeviceBuffer<float2> d_points(n);")
        self.w("    cudaStream_t stream = pool.next();")
        self.w("    double total = 0.0;")
        self.w("    PROJ_CHECK(cudaMemcpyAsync(d_in.data(), host_in.data(), n * sizeof(float),")
        self.w("                               cudaMemcpyHostToDevice, stream));")
        for _ in range(rng.randint(4, 9)):
            choice = rng.randrange(9)
            k = rng.choice(self.kernels)
            if choice <= 2:
                self.w("    " + self.launch(k, "stream"))
            elif choice == 3:
                self.w("    " + self.launch(k, None))
            elif choice == 4:
                self.w("    for (int it = 0; it < proj::config().iterations; it++) {")
                self.w("        " + self.launch(k, "pool.next()"))
                if rng.random() < 0.5:
                    self.w("        PROJ_CHECK(cudaStreamSynchronize(stream));")
                self.w("    }")
            elif choice == 5:
                self.w("    {")
                self.w("        float probe = 0.0f;")
                self.w("        PROJ_CHECK(cudaMemcpy(&probe, d_out.data(), sizeof(float),")
                self.w("                              cudaMemcpyDeviceToHost));")
                self.w("        total += probe;")
                self.w("    }")
            elif choice == 6:
                self.w("    proj::fill<float><<<grid, block, 0, stream>>>(d_out.data(), 0.0f, n);")
                self.w("    proj::axpy<float><<<grid, block, 0, stream>>>(2.0f, d_in.data(),"
                       " d_out.data(), n);")
            elif choice == 7:
                self.w("    for (int chunk = 0; chunk < 4; chunk++) {")
                self.w("        float *scratch = nullptr;")
                self.w("        PROJ_CHECK(cudaMalloc(&scratch, n / 4 * sizeof(float)));")
                self.w("        PROJ_CHECK(cudaMemsetAsync(scratch, 0, n / 4 * sizeof(float), stream));")
                self.w("        PROJ_CHECK(cudaFree(scratch));")
                self.w("    }")
            else:
                self.w("    {")
                self.w("        std::vector<float> staging(host_in.begin(), host_in.end());")
                self.w("        std::transform(staging.begin(), staging.end(), staging.begin(),")
                self.w("                       [](float v) { return v * 0.5f; });")
                self.w("        PROJ_CHECK(cudaMemcpyAsync(d_in.data(), staging.data(),"
                       " n * sizeof(float),")
                self.w("                                   cudaMemcpyHostToDevice, stream));")
                self.w("    }")
        self.w("    host_out.resize(n);")
        self.w("    PROJ_CHECK(cudaMemcpyAsync(host_out.data(), d_out.data(), n * sizeof(float),")
        self.w("                               cudaMemcpyDeviceToHost, stream));")
        self.w("    PROJ_CHECK(cudaStreamSynchronize(stream));")
        self.w("    return total + std::accumulate(host_out.begin(), host_out.end(), 0.0);")
        self.w("}")
        self.w()
        return name

    def thrust_function(self, which):
        name = f"thrust_{self.module}_{self.index}"
        self.w(f"float {name}(const std::vector<float> &values)")
        self.w("{")
        self.w("    thrust::device_vector<float> d(values.begin(), values.end());")
        if which == 0:
            self.w("    thrust::sort(d.begin(), d.end());")
            self.w("    return d.empty() ? 0.0f : (float)d[d.size() / 2];")
        elif which == 1:
            self.w("    return thrust::reduce(d.begin(), d.end(), 0.0f, thrust::plus<float>());")
        elif which == 2:
            self.w("    thrust::device_vector<float> seq(d.size());")
            self.w("    thrust::sequence(seq.begin(), seq.end());")
            self.w("    thrust::transform(d.begin(), d.end(), seq.begin(), d.begin(),")
            self.w("                      thrust::plus<float>());")
            self.w("    return d.empty() ? 0.0f : (float)d.back();")
        else:
            self.w("    thrust::inclusive_scan(d.begin(), d.end(), d.begin());")
            self.w("    thrust::host_vector<float> h = d;")
            self.w("    return h.empty() ? 0.0f : h.back();")
        self.w("}")
        self.w()
        return name


def generate_source(rng, module, index, thrust_share):
    fw = FileWriter(rng, module, index)
    thrust = rng.random() < thrust_share
    fw.w(f"// {module}/{module}_{index:03d}.cu: generated for the syncscope lint benchmark.")
    fw.w("#include <cuda_runtime.h>")
    fw.w("#include <vector>")
    for h in sorted(set(rng.sample(STD_HEADERS, rng.randint(1, 4)) + ["<algorithm>",
                                                                     "<numeric>"])):
        fw.w(f"#include {h}")
    which = rng.randrange(len(THRUST_SETS))
    if thrust:
        for h in THRUST_SETS[which]:
            fw.w(f"#include {h}")
    fw.w('#include "proj/check.cuh"')
    fw.w('#include "proj/buffer.cuh"')
    fw.w('#include "proj/kernels.cuh"')
    fw.w('#include "proj/stream_pool.h"')
    fw.w('#include "proj/config.h"')
    if rng.random() < 0.5:
        fw.w(f'#include "{module}/common.h"')
    fw.w()
    fw.w("namespace {")
    fw.w()
    for k in range(rng.randint(2, 5)):
        fw.kernel(k)
    fw.w("}  // namespace")
    fw.w()
    funcs = [fw.host_function(f) for f in range(rng.randint(2, 5))]
    thrust_fn = fw.thrust_function(which) if thrust else None
    if rng.random() < 0.25:
        fw.w("int main(int argc, char **argv)")
        fw.w("{")
        fw.w("    std::vector<float> in(proj::config().elements, 1.0f), out;")
        fw.w("    proj::StreamPool pool(proj::config().streams);")
        fw.w("    double sum = 0.0;")
        for fn in funcs:
            fw.w(f"    sum += {fn}(in, out, pool);")
        if thrust_fn:
            fw.w(f"    sum += {thrust_fn}(in);")
        fw.w("    pool.sync_all();")
        fw.w('    std::printf("%s %f\\n", argc > 1 ? argv[1] : "sum", sum);')
        fw.w("    return 0;")
        fw.w("}")
    return "\n".join(fw.lines) + "\n", thrust


def module_header(module):
    return (f"// {module}/common.h: declarations shared by the {module} module.\n"
            "#pragma once\n#include <vector>\n#include \"proj/stream_pool.h\"\n\n"
            f"namespace {module} {{\nstruct Stats {{\n    double total = 0.0;\n"
            "    int calls = 0;\n};\n"
            "inline void record(Stats &s, double v) { s.total += v; s.calls++; }\n"
            f"}}  // namespace {module}\n")


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out")
    ap.add_argument("--files", type=int, default=240)
    ap.add_argument("--seed", type=int, default=20240611)
    ap.add_argument("--thrust-share", type=float, default=0.12)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    root = os.path.abspath(args.out)
    for rel, text in HEADERS.items():
        write(os.path.join(root, rel), text)
    for module in MODULES:
        write(os.path.join(root, "src", module, "common.h"), module_header(module))
    commands = []
    thrust_files = 0
    for i in range(args.files):
        module = MODULES[i % len(MODULES)]
        index = i // len(MODULES)
        rel = f"src/{module}/{module}_{index:03d}.cu"
        text, thrust = generate_source(rng, module, index, args.thrust_share)
        thrust_files += thrust
        write(os.path.join(root, rel), text)
        commands.append({
            "directory": root,
            "file": os.path.join(root, rel),
            "arguments": ["clang++", "-std=c++17", "-O2", "-Iinclude", "-Isrc"] + DEFINES
                         + ["-c", rel, "-o", f"build/{module}_{index:03d}.o"],
        })
    with open(os.path.join(root, "compile_commands.json"), "w", encoding="utf-8") as f:
        json.dump(commands, f, indent=1)
        f.write("\n")
    print(f"{args.files} sources ({thrust_files} with Thrust) in {root}")


if __name__ == "__main__":
    main()
