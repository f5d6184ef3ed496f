"""recreate_h40.py: the sources and compile databases of study-projects.txt's "held-out-40" rows,
made again as docs/studies/lint-realworld.md describes them ("Held-out-40").

Usage: python3 bench/lint-real/recreate_h40.py GIT_ROOT TOP [STEP...]

GIT_ROOT/OWNER/NAME is a git folder (a bare clone will do) of sgrauerg6/cudaBeliefProp,
Qwicen/cuda_hlt and NBAlexis/CudaLatticeGauge. TOP receives srcs/ (study.sh's SRC_ROOT), dbs/
(its DB_ROOT) and build/ (the two CMake configures). STEP: sources, dbs (default: both). Needs
git, make, CMake 3.25, ninja and the CUDA toolkit at /usr/local/cuda; builds nothing, downloads
nothing. CudaLatticeGauge's three files the clone lacks (Bin/Debug/__f5.con_, __f6.con_,
__f7.con_, saved configurations of its Windows runs, read by no build) are left out and named on
standard error. cuda_hlt (158 units) and CudaLatticeGauge (172) are over this study's ~150, so 60
of each are drawn, random.Random(40).sample over the sorted paths (recreate.draw).
"""
import os
import shlex
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import recreate  # noqa: E402  (write_db, load, draw, command_line, NVCC)
import recreate_h16  # noqa: E402  (rows)
import recreate_h17  # noqa: E402  (sources, compiler)
from recreate_h32 import configure, first_of_each  # noqa: E402

SOURCES = [
    # The rule's 25 candidates less NVIDIA/cuda-quantum (a held-out-37 candidate), shuffled with
    # random.Random(40). Skipped before cudaBeliefProp, in the order of the draw:
    # brian-team/brian2cuda (its makefile is a template Brian2 fills, templates/makefile:3;
    # brian2, pyproject.toml:10, not installed), m1bcodes/CudaMONSEL (its configure stops at
    # CudaMONSEL/CMakeLists.txt:1, "VERSION not allowed unless CMP0048 is set to NEW"; its program
    # is a Visual Studio project), zl2brg/cudaSDR (no CUDA unit: project(cudaSDR LANGUAGES CXX),
    # CMakeLists.txt:2), kfernandez31/cuda-volprim (the OptiX SDK, cmake/Config.cmake:40-63, not
    # installed)
    ("cudaBeliefProp", "sgrauerg6/cudaBeliefProp", "1c7ae0314cae5c1fd4bb1b2f2c74e06d279eef5a"),
    ("cuda_hlt", "Qwicen/cuda_hlt", "6a91403707f2e986d00f5fae8df1ca726c0fab45"),
    # Skipped between cuda_hlt and CudaLatticeGauge: NVIDIA/cudaqx (CMake 3.28, CMakeLists.txt:12;
    # LLVM, MLIR and CUDA-Q, :143-:189), aduckinpants/cuda_newton_fractal (its build is build.ps1,
    # nvcc under MSVC's cl.exe, :19-:26; no CMake project or Makefile), YuuKozlx/fdk_cuda_impl
    # (no snapshot can be brought here)
    ("CudaLatticeGauge", "NBAlexis/CudaLatticeGauge", "e00615d74f31d1bbefa9716ffccf626c34923c29"),
]
HLT_DRAW = 60
CLG_DRAW = 60
# The compilers cudaBeliefProp's Makefile names (common.mk's CC := g++, and nvcc by its path).
BP_COMPILERS = {"nvcc": recreate.NVCC, "g++": "g++"}


def sources(git_root, top):
    recreate_h17.sources(git_root, top, SOURCES)


def beliefprop_db(top):
    """Its README's CUDA build ("navigate to ... LinuxMakeAndRunBPCUDA ... and run make"): the
    compile lines of 'make -n -B' in BeliefProp/LinuxMakeAndRunBPCUDA, run there, as its Makefile
    and common.mk stand (g++ with -march=native, nvcc -x cu with -arch=native, C++20,
    OPTIMIZED_CUDA_RUN and USE_BFLOAT16_FOR_HALF_PRECISION): its two targets, driverCudaBp and
    driverCudaBpCustom, all 25 units (23 g++, 2 .cpp files that nvcc compiles as CUDA,
    ProcessBpCUDA.cpp and SmoothImageCUDA.cpp, which include the .cu kernel files)."""
    folder = os.path.join(top, "srcs", "cudaBeliefProp", "BeliefProp", "LinuxMakeAndRunBPCUDA")
    out = subprocess.run(["make", "-n", "-B", "-C", folder], check=True, capture_output=True,
                         text=True).stdout
    rows = []
    for line in out.splitlines():
        words = shlex.split(line)
        if not words or "-c" not in words or not recreate_h17.compiler(words[0], BP_COMPILERS):
            continue  # the two link lines
        rows += recreate_h16.rows(folder, [recreate_h17.compiler(words[0], BP_COMPILERS)]
                                  + words[1:])
    recreate.write_db(top, "cudaBeliefProp", rows)


def hlt_db(top):
    """Its CMake configure (Release, Ninja, nvcc 13) with its own -DCUDA_ARCH=sm_90: its default,
    MIN, compiles and runs cmake/utils/cuda_arch.cu and then sets -arch=sm_30, gone from CUDA 13
    (CMakeLists.txt:27-55); its other options as they default (no LZMA, LZ4, ROOT or tests;
    SEQUENCE DefaultSequence). CMake's database, each file once: 158 units (121 .cu by nvcc, 37
    .cpp), over this study's ~150, so HLT_DRAW of them, random.Random(40).sample over the sorted
    paths (recreate.draw)."""
    src = os.path.join(top, "srcs", "cuda_hlt")
    build = os.path.join(top, "build", "cuda_hlt")
    configure(src, build, ["-DCMAKE_CUDA_COMPILER=" + recreate.NVCC, "-DCUDA_ARCH=sm_90"])
    rows = first_of_each(recreate.load(build))
    recreate.write_db(top, "cuda_hlt", recreate.draw(rows, "^" + src + "/", 40, HLT_DRAW))


def clg_db(top):
    """Its README's Linux build, CMake in Code/CMake (Release, Ninja, nvcc 13) with its own
    -DCUDASM=90: its default, sm_61 (Code/CMake/CMakeLists.txt:8-16), is gone from CUDA 13; its
    other options as they default (single precision, no DEBUG). CMake's database, each file
    once: 172 units (77 .cu by nvcc, 95 .cpp; the library CLGLib, CLGTest and four
    applications), over this study's ~150, so CLG_DRAW of them, random.Random(40).sample over
    the sorted paths (recreate.draw)."""
    src = os.path.join(top, "srcs", "CudaLatticeGauge")
    build = os.path.join(top, "build", "CudaLatticeGauge")
    configure(os.path.join(src, "Code", "CMake"), build,
              ["-DCMAKE_CUDA_COMPILER=" + recreate.NVCC, "-DCUDASM=90"])
    rows = first_of_each(recreate.load(build))
    recreate.write_db(top, "CudaLatticeGauge", recreate.draw(rows, "^" + src + "/", 40,
                                                              CLG_DRAW))


def main(argv):
    return recreate.command_line(argv, __doc__, sources, [beliefprop_db, hlt_db, clg_db])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
