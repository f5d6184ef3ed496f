"""recreate_h29.py: the sources and compile databases of study-projects.txt's "held-out-29" rows,
made again as docs/studies/lint-realworld.md describes them ("Held-out-29").

Usage: python3 bench/lint-real/recreate_h29.py GIT_ROOT TOP [STEP...]

GIT_ROOT/OWNER/NAME is a git folder (a bare clone will do) of Mantevo/miniFE, NVIDIA/warp,
graphdeco-inria/diff-gaussian-rasterization and g-truc/glm (the last one's submodule). TOP receives
srcs/ (study.sh's SRC_ROOT), dbs/ (its DB_ROOT) and build/ (warp's CMake configure). STEP: sources,
dbs (default: both). Needs git, make, CMake 3.24 or later and the CUDA toolkit at /usr/local/cuda;
builds nothing, downloads nothing.
"""
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import recreate  # noqa: E402  (write_db, command_line, checkout, NVCC)
import recreate_h17  # noqa: E402  (sources)
from recreate_h26 import add_rows  # noqa: E402
from recreate_h27 import nvcc_lines  # noqa: E402

SOURCES = [
    ("miniFE", "Mantevo/miniFE", "c79e0f7f7afdd6c8191936efce7a668316159cc3"),
    ("warp", "NVIDIA/warp", "9934a4eb2c503399140daab09d256ccc7236d1d8"),
    ("diff-gaussian-rasterization", "graphdeco-inria/diff-gaussian-rasterization",
     "59f5f77e3ddbac3ed9db93ec2cfe99ed6c5d121d"),
    # the commit its third_party/glm submodule names
    ("diff-gaussian-rasterization/third_party/glm", "g-truc/glm",
     "5c46b9c07008ae65cb81ab79cd677ecc1934b903"),
]


def sources(git_root, top):
    recreate_h17.sources(git_root, top, SOURCES)


# miniFE's cuda/src/Makefile as it stands (its first, MPI CPPFLAGS) but without MPI, none being
# installed here: -DHAVE_MPI -DMPICH_IGNORE_CXX_SEEK left out of CPPFLAGS (the Makefile's own
# commented serial line does the same), MPICFLAGS without -I$(MPI_HOME)/include; NVCCFLAGS' gencode
# for 90 (its compute_35 is gone from CUDA 13); and -I/usr/local/cuda/include/nvtx3, for the
# NVTX 2 header nvToolsExt.h that its units include (and link, -l nvToolsExt): CUDA 13 no longer
# ships it, and NVTX 3's header of the same name, the same API, is there.
MINIFE_VARIABLES = [
    "CPPFLAGS=-I. -I../utils -I../fem $(MINIFE_TYPES) $(MINIFE_MATRIX_TYPE) -DMATVEC_OVERLAP"
    " -I/usr/local/cuda/include/nvtx3",
    "MPICFLAGS=-pthread",
    "NVCCFLAGS=-lineinfo -gencode=arch=compute_90,code=\"sm_90,compute_90\"",
]


def minife_db(top):
    """cuda/src/Makefile with the variables above: miniFE_info.hpp made by its generate_info rule
    (./generate_info_header "mpicxx" "-O3" "miniFE" "MINIFE", which writes the header in the
    folder), then the nvcc lines of 'make -n -B' ('%.o:%.cu', main.cu and CudaUtils.cu), run in
    cuda/src. The host .cpp units (mpicxx) left out; the other variants (openmp, mkl, ...) are not
    CUDA builds."""
    folder = os.path.join(top, "srcs", "miniFE", "cuda", "src")
    recreate.run(["./generate_info_header", "mpicxx", "-O3", "miniFE", "MINIFE"], cwd=folder,
                 stdout=subprocess.DEVNULL)
    commands, seen = [], set()
    for words in nvcc_lines(folder, [], MINIFE_VARIABLES):
        add_rows(commands, seen, folder, words)
    recreate.write_db(top, "miniFE", commands)


# Two static CUDA libraries warp links and that this toolkit lacks (libnvrtc_static.a,
# libnvptxcompiler_static.a; CMake 3.25's FindCUDAToolkit names no CUDA::nvrtc_static target):
# empty link-only stand-ins, read by the configure through CMAKE_PROJECT_INCLUDE. No compile line
# depends on them.
WARP_LINK_ONLY = """foreach(_t nvrtc_static nvptxcompiler_static)
  if(NOT TARGET CUDA::${_t})
    add_library(CUDA::${_t} INTERFACE IMPORTED)
  endif()
endforeach()
"""


def warp_db(top):
    """Its CMake configure (CMakeLists.txt, project LANGUAGES CXX CUDA), Release,
    CMAKE_CUDA_ARCHITECTURES=90, WARP_USE_LIBMATHDX=OFF and WARP_BUILD_CLANG=OFF (both would pull
    libmathdx and LLVM through Packman, a download), with WARP_LINK_ONLY; CMake's database, its .cu
    units (warp/native: the CUDA half of the library). The host .cpp units (the CPU versions of
    the same functions) left out; warp/native/exports.h is the committed one."""
    src, build = os.path.join(top, "srcs", "warp"), os.path.join(top, "build", "warp")
    os.makedirs(build, exist_ok=True)
    script = os.path.join(top, "build", "warp-link-only.cmake")
    with open(script, "w") as f:
        f.write(WARP_LINK_ONLY)
    recreate.run(["cmake", "-S", src, "-B", build, "-G", "Ninja", "-DCMAKE_BUILD_TYPE=Release",
                  "-DCMAKE_EXPORT_COMPILE_COMMANDS=ON", "-DCMAKE_CUDA_COMPILER=" + recreate.NVCC,
                  "-DCMAKE_CUDA_ARCHITECTURES=90", "-DWARP_USE_LIBMATHDX=OFF",
                  "-DWARP_BUILD_CLANG=OFF", "-DCMAKE_PROJECT_INCLUDE=" + script],
                 stdout=subprocess.DEVNULL)
    with open(os.path.join(build, "compile_commands.json")) as f:
        rows = [row for row in json.load(f) if row["file"].endswith(".cu")]
    recreate.write_db(top, "warp", rows)


def gaussian_db(top):
    """setup.py's CUDAExtension, written out as torch.utils.cpp_extension's BuildExtension runs
    nvcc for it (its -D__CUDA_NO_HALF*__ flags, --expt-relaxed-constexpr, -fPIC, the extension's
    TORCH_EXTENSION_NAME and the gencode for 90, -std=c++17) with its extra nvcc argument
    (-I third_party/glm/), run in the project's folder, for its four .cu units. libtorch is not
    installed here (and is no header-only library): its include folders are left out, so
    rasterize_points.cu (the Python binding, '#include <torch/extension.h>') does not parse; the
    rasterizer (cuda_rasterizer/) needs none of it. ext.cpp (the binding's module) left out."""
    src = os.path.join(top, "srcs", "diff-gaussian-rasterization")
    nvcc = [recreate.NVCC, "-I/usr/local/cuda/include", "-D__CUDA_NO_HALF_OPERATORS__",
            "-D__CUDA_NO_HALF_CONVERSIONS__", "-D__CUDA_NO_BFLOAT16_CONVERSIONS__",
            "-D__CUDA_NO_HALF2_OPERATORS__", "--expt-relaxed-constexpr", "--compiler-options",
            "-fPIC", "-I" + os.path.join(src, "third_party", "glm") + "/",
            "-DTORCH_API_INCLUDE_EXTENSION_H", "-DTORCH_EXTENSION_NAME=_C",
            "-D_GLIBCXX_USE_CXX11_ABI=1", "-gencode=arch=compute_90,code=sm_90", "-std=c++17"]
    units = ["cuda_rasterizer/rasterizer_impl.cu", "cuda_rasterizer/forward.cu",
             "cuda_rasterizer/backward.cu", "rasterize_points.cu"]
    commands = [recreate.entry(src, os.path.join(src, u), nvcc) for u in units]
    recreate.write_db(top, "diff-gaussian-rasterization", commands)


def main(argv):
    return recreate.command_line(argv, __doc__, sources, [minife_db, warp_db, gaussian_db])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
