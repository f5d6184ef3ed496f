"""recreate_h43.py: the sources and compile databases of study-projects.txt's "held-out-43" rows,
made again as docs/studies/lint-realworld.md describes them ("Held-out-43").

Usage: python3 bench/lint-real/recreate_h43.py GIT_ROOT TOP [STEP...]

GIT_ROOT/OWNER/NAME is a git folder (a bare clone will do) of pyscf/gpu4pyscf and
eunomia-bpf/gpu_ext. TOP receives srcs/ (study.sh's SRC_ROOT), dbs/ (its DB_ROOT) and build/
(gpu4pyscf's CMake configure). STEP: sources, dbs (default: both). Needs git, make, CMake 3.25,
ninja, gfortran (gpu4pyscf's project names Fortran) and the CUDA toolkit at /usr/local/cuda;
builds nothing, downloads nothing. gpu_ext's three submodules (libbpf, bpftool,
kernel-module/nvidia-module) are not in the clone and no CUDA unit reads them. Both are small
enough that every unit is taken (gpu4pyscf 93, gpu_ext 8).
"""
import os
import shlex
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import recreate  # noqa: E402  (checkout, write_db, load, command_line, NVCC, run)
import recreate_h16  # noqa: E402  (rows)
import recreate_h17  # noqa: E402  (sources)
from recreate_h32 import first_of_each  # noqa: E402

SOURCES = [
    # Held-out-42 went down its second list (h42_shuffle.txt: the name search "gpu", shuffled
    # with random.Random(42)) and stopped at its 59th entry, wrf-gpu/wrf_gpu. This sample
    # tries entries 60 to 94 in that order. Skipped before gpu4pyscf ("no .cu unit": no file
    # ends in .cu and no build file names nvcc or CUDA as a language):
    # frontloss/GPU_Validation_Infrastructure (no .cu unit; Python and C#),
    # suxiaoshao/gpui (no .cu unit; Rust), iamwilhelm/use.gpu (no .cu unit; TypeScript and
    # WGSL), gfx-rs/wgpu (no .cu unit; Rust), msankofa/workshop-webgpu (no snapshot can be
    # brought here), yangfengzzz/Arche-webgpu (no .cu unit; C++ on WebGPU, PhysX built with
    # DISABLE_CUDA_PHYSX, apps/CMakeLists.txt:80), AIFanatic/Trident-WEBGPU (no .cu unit;
    # TypeScript), sarchlab/mgpusim (no .cu unit; a GPU simulator in Go),
    # vortexgpgpu/vortex (its snapshot, 603 MB, over what can be brought here),
    # Casttiiel/WebGPUEngine (no .cu unit; TypeScript), GPUOpen-Drivers/llpc (no .cu unit;
    # AMD's shader compiler), Shad107/gpu-dashboard (no .cu unit; Python, README.md:3-5),
    # NexusI9/webgpu-sandbox (no .cu unit; C on WebGPU), gnome-child/wgpu_app_framework (no .cu
    # unit; Rust), TheHiddenObserver/statgpu (no .cu unit; Python on CuPy and PyTorch,
    # pyproject.toml:38-43), Open-S2/s2maps-gpu (its snapshot, 964 MB), gpu-cli/vz (no .cu
    # unit; Rust), navatala-systems/navatala_gpu (its 2096 .cu files are device-only kernels
    # that its runtime compiles with NVRTC at run time, runtime/src/backend_cuda.cpp:551-556;
    # no build file compiles a .cu: CMakeLists.txt:11 names CXX only, runtime/CMakeLists.txt:61-65
    # links cudart and nvrtc), asciich/asciichgolangpublic (no .cu unit; Go),
    # Kicky1618/oneesan-gpu (no snapshot), QianMo/GPU-Gems-Book-Source-Code (GPU Gems 3's
    # three CUDA chapters build for 32-bit x86: -m32 for g++ and nvcc's host compiler,
    # content/31/demo/common/common.mk:85-87, content/33/source/Makefile:63,
    # content/37/source/test_suite/makefile:19; the 32-bit C library's headers are not
    # installed; chapter 37 also needs GSL, cuda/rand_helpers.h:25-26, and the CUDA SDK 1.x at
    # /data/NVIDIA_CUDA_SDK, makefile:5-9), GPUOpen-Tools/gpu_performance_api (no .cu unit;
    # AMD's counter library), wieslawsoltes/ProGPU (no .cu unit; C# and C++ on WebGPU)
    ("gpu4pyscf", "pyscf/gpu4pyscf", "5025fc4a1d3a9a41873ba07d6b3d550d5bca1139"),
    # Skipped between gpu4pyscf and gpu_ext: houmain/gpupad (no .cu unit; a shader editor in
    # C++ and Qt), yuhuiaws/GPU-Fault-Recovery-System (no snapshot)
    ("gpu_ext", "eunomia-bpf/gpu_ext", "3f4cc2d7ee8ee479d60750c42cc7a120d57d43ea"),
    # Skipped after gpu_ext, the list's end: NVIDIA/open-gpu-kernel-modules (no .cu unit; the
    # kernel driver in C), GPUOpen-Archive/CodeXL (no .cu unit; AMD's profiler),
    # emu-russia/gpuBladeSoft (no .cu unit; C), m4rs-mt/ILGPU (no .cu unit; a JIT compiler in
    # C#, README.md:7-8), rohanchanani/pi-gpu-lab (no .cu unit; Raspberry Pi QPU programs in C
    # and assembly), software-mansion/TypeGPU (no .cu unit; TypeScript),
    # dakotamurphyucf/gpuio and kingpumpski/harmony-health-hub (no snapshot)
]


def sources(git_root, top):
    recreate_h17.sources(git_root, top, SOURCES)


def gpu4pyscf_db(top):
    """Its CMake configure of gpu4pyscf/lib (Ninja, nvcc 13; no build type given, so the
    RELWITHDEBINFO its CMakeLists.txt:33-35 sets; CMAKE_CUDA_ARCHITECTURES 70-real;80-real;
    90-real as :25-29 sets them) with BUILD_LIBXC=OFF, as its own setup.py:73 and build.sh:12
    configure it (libxc comes from a wheel), and BUILD_CUTLASS=OFF: with it on, the build
    would fetch CUTLASS v3.4.0 from GitHub (ExternalProject, :105-120), so its two units that
    include CUTLASS (cupy_helper/grouped_gemm.cu, grouped_dot.cu; cupy_helper/CMakeLists.txt:28-32)
    are left out. CMake's database, each file once: all 93 .cu units of its eleven libraries;
    its 8 C and 3 Fortran units (host code that uses no CUDA) left out."""
    src = os.path.join(top, "srcs", "gpu4pyscf", "gpu4pyscf", "lib")
    build = os.path.join(top, "build", "gpu4pyscf")
    os.makedirs(build, exist_ok=True)
    recreate.run(["cmake", "-S", src, "-B", build, "-G", "Ninja",
                  "-DCMAKE_EXPORT_COMPILE_COMMANDS=ON", "-Wno-dev",
                  "-DCMAKE_CUDA_COMPILER=" + recreate.NVCC,
                  "-DBUILD_LIBXC=OFF", "-DBUILD_CUTLASS=OFF"], stdout=subprocess.DEVNULL)
    rows = [r for r in first_of_each(recreate.load(build)) if r["file"].endswith(".cu")]
    recreate.write_db(top, "gpu4pyscf", rows)


MAKEFILES = [  # gpu_ext's folders whose Makefile compiles CUDA, each with its default target
    "microbench/memory",                   # uvmbench: main.cu (Makefile:11)
    "docs/test-verify/examples",           # five examples, 01_ to 05_*.cu (Makefile:27-40)
    "docs/test-verify/mem_divergence_bench",  # bench.cu (Makefile:10)
]


def gpu_ext_db(top):
    """Its CUDA programs, from their own build files: the nvcc lines of 'make -n -B' (default
    target) in the three folders of MAKEFILES, run there, and the nvcc line of
    docs/driver_docs/sched/test/test_gpu_preempt.sh:51 (run in that folder, :10-11) for
    test_preempt_ctrl.cu; one entry per unit with its line's flags (recreate_h16.rows): 8.
    docs/test-verify/cuda_issues_demo.cu, whose compile line is only in its own comment (:9),
    left out. The rest of the project (eBPF policies and loaders in C, their submodules, the
    modified kernel modules) has no CUDA unit."""
    src = os.path.join(top, "srcs", "gpu_ext")
    commands = []
    for sub in MAKEFILES:
        folder = os.path.join(src, sub)
        out = subprocess.run(["make", "-n", "-B", "-C", folder], check=True,
                             capture_output=True, text=True).stdout
        for line in out.splitlines():
            words = shlex.split(line)
            if words and os.path.basename(words[0]) == "nvcc":
                commands += recreate_h16.rows(folder, ["nvcc"] + words[1:])
    folder = os.path.join(src, "docs", "driver_docs", "sched", "test")
    with open(os.path.join(folder, "test_gpu_preempt.sh")) as f:
        line = next(x for x in f if x.strip().startswith("nvcc "))
    commands += recreate_h16.rows(folder, shlex.split(line.split("2>&1")[0]))
    recreate.write_db(top, "gpu_ext", commands)


def main(argv):
    return recreate.command_line(argv, __doc__, sources, [gpu4pyscf_db, gpu_ext_db])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
