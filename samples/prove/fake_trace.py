"""fake_trace.py: writes a synthetic trace shaped like a naive sample's run on an H200, for the
dry run of prove.sh (dry_run.sh) where no GPU is present.

  fake_trace.py pipeline OUT.sstrace   10 chunks: pageable 144 MiB copy in (20 ms), kernel
                                       (6.52 ms), pageable 96 MiB copy out (15 ms), legacy stream
  fake_trace.py launch OUT.sstrace     51 iterations of 50 launches of 'step', one every 5.5 us,
                                       each kernel 0.7 us, on a non-blocking stream
"""
import sys


class Trace:
    def __init__(self):
        self.strings = {}
        self.lines = []
        self.events = 0
        self.stacks = 0

    def string(self, text):
        if text not in self.strings:
            self.strings[text] = len(self.strings) + 1
            self.lines.append(f"str {self.strings[text]} {text}")
        return self.strings[text]

    def stack(self, file, line):
        frames = [
            ("cudaLaunchKernel", "cudart.cpp", "/usr/local/cuda/lib64/libcudart.so.13", 10),
            ("main", file, "/work/build/samples/app", line),
        ]
        ids = [(self.string(f), self.string(s), self.string(m), n) for f, s, m, n in frames]
        self.stacks += 1
        self.lines.append(f"stack {self.stacks} {len(ids)}")
        for i, (f, s, m, n) in enumerate(ids):
            self.lines.append(f"frame {4096 + i} {f} {s} {m} {n} 0")
        return self.stacks

    def api(self, name, enter, exit_, corr, stream, stream_id, nbytes=0, kind=-1, stack=0):
        n = self.string(name)
        self.lines.append(f"api {enter} {exit_} 1 {corr} {n} {stream} {stream_id} 0 {nbytes} "
                          f"{kind} 0 0 0 0 0 {stack}")
        self.events += 1

    def gpu(self, record, start, end, corr, stream_id, name=0, nbytes=0, kind=0, src=0, dst=0):
        self.lines.append(f"{record} {start} {end} {corr} {stream_id} 1 0 {name} {nbytes} "
                          f"{kind} {src} {dst} 0")
        self.events += 1

    def write(self, path):
        with open(path, "w", encoding="ascii") as f:
            f.write("SSTRACE 1 0\nmeta program fake\n")
            for line in self.lines:
                f.write(line + "\n")
            f.write(f"end {self.events} {len(self.strings) + 1} {self.stacks + 1}\n")


def pipeline(t):
    src = "/work/main/samples/pipeline/naive.cu"
    time, corr = 1_000_000_000, 1
    kernel = t.string("work(unsigned%20int%20const*,%20unsigned%20int*,%20unsigned%20long,%20int)")
    for chunk in range(10):
        t.api("cudaMemcpy", time, time + 20_100_000, corr, 0, 7, 150994944, 1, t.stack(src, 30))
        t.gpu("memcpy", time + 50_000, time + 20_050_000, corr, 7, 0, 150994944, 1, 1, 3)
        time += 20_200_000
        t.api("cudaLaunchKernel", time, time + 5_000, corr + 1, 0, 7, stack=t.stack(src, 32))
        t.gpu("kernel", time + 4_000, time + 6_524_000, corr + 1, 7, kernel)
        t.api("cudaMemcpy", time + 6_000, time + 21_600_000, corr + 2, 0, 7, 100663296, 2,
              t.stack(src, 34))
        t.gpu("memcpy", time + 6_530_000, time + 21_530_000, corr + 2, 7, 0, 100663296, 2, 3, 1)
        time += 21_700_000
        corr += 3


def launch(t):
    src = "/work/main/samples/launch_overhead/naive.cu"
    t.lines.append("stream 4096 13 1 0 0 1")
    t.events += 1
    step = t.string("step(unsigned%20int*)")
    time = 1_000_000_000
    for i in range(51 * 50):
        stack = t.stack(src, 39) if i == 0 else 0
        t.api("cudaLaunchKernel", time, time + 5_000, i + 1, 4096, 13, stack=stack)
        t.gpu("kernel", time + 3_500, time + 4_200, i + 1, 13, step)
        time += 5_500


def main(argv):
    if len(argv) != 3 or argv[1] not in ("pipeline", "launch"):
        sys.exit(__doc__)
    t = Trace()
    (pipeline if argv[1] == "pipeline" else launch)(t)
    t.write(argv[2])


if __name__ == "__main__":
    main(sys.argv)
