"""recreate_h44.py: the sources and compile databases of study-projects.txt's "held-out-44" rows,
made again as docs/studies/lint-realworld.md describes them ("Held-out-44").

Usage: python3 bench/lint-real/recreate_h44.py GIT_ROOT TOP [STEP...]

GIT_ROOT/OWNER/NAME is a git folder (a bare clone will do) of sora5801/cuda-cpp-robotics-projects,
ryr246810/CUDA, BBuf/how-to-optim-algorithm-in-cuda and NVIDIA/cuda-samples (its Common/, the
helper headers ryr246810/CUDA includes from the toolkit's samples/common/inc, which CUDA 13 no
longer ships). TOP receives srcs/ (study.sh's SRC_ROOT), dbs/ (its DB_ROOT), deps/ (the
samples' Common/) and build/ (the CMake configures). STEP: sources, dbs (default: both). Needs
git, make, CMake 3.25, ninja and the CUDA toolkit at /usr/local/cuda; builds nothing, downloads
nothing. Two are very large: cuda-cpp-robotics-projects is 505 stand-alone CMake projects of
two .cu units each (1010 in all) and ryr246810/CUDA's configure names 482 units, so 60 of each
are drawn, random.Random(42).sample over the sorted paths (recreate.draw); of the robotics
projects only those that hold a drawn unit are configured.
"""
import glob
import os
import shlex
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import recreate  # noqa: E402  (write_db, load, draw, command_line, NVCC, run)
import recreate_h16  # noqa: E402  (rows)
import recreate_h17  # noqa: E402  (sources)
from recreate_h32 import first_of_each  # noqa: E402

SOURCES = [
    # Held-out-44's list (bench/lint-real/h44_shuffle.txt: the name search "cuda", 49 kept and
    # shuffled with random.Random(42)), from its first entry on.
    ("cuda-cpp-robotics", "sora5801/cuda-cpp-robotics-projects",
     "0d9cd8d02a49d7095ba5b55d478f10b4545882dd"),
    # Skipped between it and ryr246810/CUDA: JohnBaracuda/com.baracuda.runtime-monitoring (no
    # .cu unit; a Unity package in C#), kevmtan/electroCUDA (its CUDA is MATLAB GPU Coder
    # output built by the build.ninja files MATLAB wrote, which need MATLAB R2024a's headers,
    # src/cuda/ec_wt_fp64/build.ninja:8, :17, rtwtypes.h:14 tmwtypes.h; the cudaica library it
    # carries has no configure script, only configure.ac and reconf.sh, which need autoconf
    # and automake, lib/cudaica-master/reconf.sh:3-5), billacuda/LarisVMS (no snapshot),
    # MCLD/ocuda (no .cu unit; C#), Brent-Newsom-NVIDIA/nvidia-cuda-wiki (no .cu unit; a wiki
    # in Markdown and TypeScript), ece4500group18/cuda-sycl-benchmark (no snapshot),
    # Barracudach/dump (no .cu unit; JavaScript), Alexey-T/CudaText (no .cu unit; a text
    # editor in Pascal and Python), Cudael/quiz (no .cu unit; TypeScript)
    ("ryr246810-CUDA", "ryr246810/CUDA", "38692e47e89f288d32d00e25069222fde226f2a2"),
    # Skipped between it and how-to-optim-algorithm-in-cuda: Mern-Unbeatable/baracuda260 (no
    # .cu unit; JavaScript), maracuda/Treller (no .cu unit; C#), JuShuai-gif/cuda_pytorch (its
    # CMake configure needs PyTorch, find_package(Torch REQUIRED) at
    # pytorch_bind/01_cuda_op/CMakeLists.txt:13, not installed here)
    ("how-to-optim-cuda", "BBuf/how-to-optim-algorithm-in-cuda",
     "10a3a8d243037e2544686eb673fda86fba23143f"),
]
ROBOTICS_DRAW = 60
RYR_DRAW = 60
# ryr246810/CUDA's CMakeLists.txt:26, :120 adds the toolkit's samples/common/inc (helper_cuda.h,
# helper_functions.h), which CUDA 13 no longer ships: the samples' Common/ at the commit
# recreate.py uses, in its place
SAMPLES = ("NVIDIA/cuda-samples", "c94ff366aed18c797b8a85dfaac7817b0228b420")


def sources(git_root, top):
    # how-to-optim-algorithm-in-cuda has file names in Chinese, one of them (a PDF under
    # triton/meetup) not in the clone: git must write such names as they are (not quoted) for
    # recreate.checkout to leave them out
    os.environ.update(GIT_CONFIG_COUNT="1", GIT_CONFIG_KEY_0="core.quotePath",
                      GIT_CONFIG_VALUE_0="false")
    recreate_h17.sources(git_root, top, SOURCES)
    recreate.checkout(os.path.join(git_root, SAMPLES[0]), SAMPLES[1],
                      os.path.join(top, "deps", "cuda-samples"), ["Common"])


def robotics_db(top):
    """Each of its 505 projects (projects/NN-area/NN.MM-name/) is a CMake project of its own
    whose one executable names src/main.cu, src/kernels.cu and src/reference_cpu.cpp
    (12.01-tensorrt-deployment-with-custom-cuda-pre-post adds src/tensorrt_path.cpp); the C++
    oracle reference_cpu.cpp is host code with no CUDA (kernels.cuh's __CUDACC__ fence hides
    the kernels from it), so the candidates are the 1010 .cu units. Over this study's ~150, so
    ROBOTICS_DRAW of them, random.Random(42).sample over the sorted paths (recreate.draw, the
    same draw as over the 505 configures' databases). Each project that holds a drawn unit:
    its own configure (Ninja, nvcc 13; no build type given, so the Release its CMakeLists.txt
    sets, :46-47; its default architectures "75 86 89", :39-40, apply only where
    CMAKE_CUDA_ARCHITECTURES is not yet defined, and CMake 3.25's project() defines it from
    nvcc's default, 75, so sm_75), and the drawn units' first entries from its database.
    docs/PROJECT_TEMPLATE, the skeleton new projects are copied from, is not one of them."""
    src = os.path.join(top, "srcs", "cuda-cpp-robotics")
    units = sorted(glob.glob(os.path.join(src, "projects", "*", "*", "src", "*.cu")))
    drawn = recreate.draw([{"file": u} for u in units], "^" + src + "/", 42, ROBOTICS_DRAW)
    drawn = {d["file"] for d in drawn}
    rows = []
    for project in sorted({os.path.dirname(os.path.dirname(u)) for u in drawn}):
        build = os.path.join(top, "build", "cuda-cpp-robotics", os.path.relpath(project, src))
        os.makedirs(build, exist_ok=True)
        recreate.run(["cmake", "-S", project, "-B", build, "-G", "Ninja",
                      "-DCMAKE_EXPORT_COMPILE_COMMANDS=ON", "-Wno-dev",
                      "-DCMAKE_CUDA_COMPILER=" + recreate.NVCC], stdout=subprocess.DEVNULL)
        rows += [r for r in first_of_each(recreate.load(build)) if r["file"] in drawn]
    rows.sort(key=lambda r: r["file"])
    recreate.write_db(top, "cuda-cpp-robotics", rows)


def ryr_db(top):
    """CEMPIC_3D, its CMake configure (Ninja, nvcc 13; Release, which CMakeLists.txt:71 sets;
    no architectures given, so nvcc's default). Its OpenCASCADE, HDF5 and TecIO headers are
    in the repository (Pack/); only their libraries, which a configure does not read, are
    missing from the clone. CMake's database, each file once: 12 .cu and 470 C++ units
    (.cxx, .cpp) of its 15 libraries and its executable; -I/usr/local/cuda/samples/common/inc
    (CMakeLists.txt:26, :120) given as the samples' Common/ of SAMPLES. Over this study's
    ~150, so RYR_DRAW of them, random.Random(42).sample over the sorted paths (recreate.draw)."""
    src = os.path.join(top, "srcs", "ryr246810-CUDA")
    build = os.path.join(top, "build", "ryr246810-CUDA")
    os.makedirs(build, exist_ok=True)
    recreate.run(["cmake", "-S", src, "-B", build, "-G", "Ninja",
                  "-DCMAKE_EXPORT_COMPILE_COMMANDS=ON", "-Wno-dev",
                  "-DCMAKE_CUDA_COMPILER=" + recreate.NVCC], stdout=subprocess.DEVNULL)
    common = os.path.join(top, "deps", "cuda-samples", "Common")
    rows = []
    for row in first_of_each(recreate.load(build)):
        words = shlex.split(row.pop("command")) if "command" in row else row.pop("arguments")
        row["arguments"] = ["-I" + common if w == "-I/usr/local/cuda/samples/common/inc" else w
                            for w in words]
        rows.append(row)
    recreate.write_db(top, "ryr246810-CUDA", recreate.draw(rows, "^" + src + "/", 42, RYR_DRAW))


MAKEFILES = [  # how-to-optim-algorithm-in-cuda's folders whose Makefile compiles CUDA with nvcc
    "cuda-kernels/elementwise",            # elementwise.cu (Makefile:2)
    "cuda-kernels/fast-atomic-add",        # three units (Makefile:2-4)
    "cuda-kernels/reduce",                 # reduce_v0 to _v8 (Makefile:2-10)
    "cuda-kernels/softmax",                # two units (Makefile:2-3)
    "cuda-kernels/upsample-nearest2d",     # upsample_nearest_2d.cu (Makefile:2)
    "deprecated/oneflow-cuda-optimize-skills/fused_softmax",  # one unit (Makefile:2)
]
# The two build.sh scripts of cuda-mode/code/YHs_Sample/cuda ('nvcc ${1} -arch sm_${2} ...'),
# each unit of the folder with the first architecture its README gives for it that CUDA 13
# builds (sm_70, the first for most, is gone from CUDA 13; 75 is the next)
SCRIPTS = {
    "cuda-mode/code/YHs_Sample/cuda/gemm": {   # README.md:19-35
        "sgemm.cu": "75", "ampere_sgemm.cu": "80", "cublas.cu": "75"},
    # README.md:15-32; smem_bandwidth.cu, which its lines do not name, with the same line
    "cuda-mode/code/YHs_Sample/cuda/microbenchmark": {
        "dram_bandwidth.cu": "75", "l2cache_bandwidth.cu": "75", "dram_latency.cu": "75",
        "l2cache_latency.cu": "75", "l1cache_latency.cu": "75", "smem_latency.cu": "75",
        "smem_bandwidth.cu": "75"},
}


def optim_db(top):
    """Its CUDA programs that a build file of its own compiles: the nvcc lines of 'make -n -B'
    (default target) in the six folders of MAKEFILES, run there (17 units); the nvcc line of
    the two build.sh scripts of SCRIPTS, with the file and architecture their READMEs give
    (10 units); and the CMake configure of cutlass/code/swizzle (its own project, main.cu;
    CMAKE_CUDA_ARCHITECTURES 86 as it sets it). One entry per unit: 28. Left out: the
    cutlass/code/cfx-article-src programs, whose Makefiles include CUTLASS from
    ../external/cutlass (tma/Makefile:1 and the others), not in the repository; the
    cutlass-notes kernels, built through PyTorch extensions from Python (minimal_gemm.py);
    and the .cu files no build file names (cuda-kernels/gemv, indexing, linear-attention,
    reduce/pytorch_block_reduce.cu; cutlass/code/cute-examples, mma_vs_wgmma.cu;
    deprecated/apex)."""
    src = os.path.join(top, "srcs", "how-to-optim-cuda")
    commands = []
    for sub in MAKEFILES:
        folder = os.path.join(src, sub)
        out = subprocess.run(["make", "-n", "-B", "-C", folder], check=True,
                             capture_output=True, text=True).stdout
        for line in out.splitlines():
            words = shlex.split(line)
            if words and os.path.basename(words[0]) == "nvcc":
                commands += recreate_h16.rows(folder, words)
    for sub, units in SCRIPTS.items():
        folder = os.path.join(src, sub)
        with open(os.path.join(folder, "build.sh")) as f:
            line = next(x for x in f if x.strip().startswith("nvcc "))
        for unit, arch in units.items():
            words = shlex.split(line.replace("${1}", unit).replace("${2}", arch))
            commands += recreate_h16.rows(folder, words)
    swizzle = os.path.join(src, "cutlass", "code", "swizzle")
    build = os.path.join(top, "build", "how-to-optim-cuda-swizzle")
    os.makedirs(build, exist_ok=True)
    recreate.run(["cmake", "-S", swizzle, "-B", build, "-G", "Ninja",
                  "-DCMAKE_EXPORT_COMPILE_COMMANDS=ON", "-Wno-dev",
                  "-DCMAKE_CUDA_COMPILER=" + recreate.NVCC], stdout=subprocess.DEVNULL)
    commands += first_of_each(recreate.load(build))
    recreate.write_db(top, "how-to-optim-cuda", commands)


def main(argv):
    return recreate.command_line(argv, __doc__, sources, [robotics_db, ryr_db, optim_db])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
