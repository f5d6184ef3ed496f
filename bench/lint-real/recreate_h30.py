"""recreate_h30.py: the sources and compile databases of study-projects.txt's "held-out-30" rows,
made again as docs/studies/lint-realworld.md describes them ("Held-out-30").

Usage: python3 bench/lint-real/recreate_h30.py GIT_ROOT TOP [STEP...]

GIT_ROOT/OWNER/NAME is a git folder (a bare clone will do) of UoB-HPC/BabelStream,
ANL-CESAR/RSBench, Tencent/TurboTransformers, the seven submodules TurboTransformers' 3rd/
names (abseil/abseil-cpp, catchorg/Catch2, pybind/pybind11, emilk/loguru, dmlc/dlpack,
Maratyszcza/FP16, NVlabs/cub) and sphexa-org/sphexa (the addendum's fourth project). TOP receives
srcs/ (study.sh's SRC_ROOT), dbs/ (its DB_ROOT) and build/ (the CMake configures of BabelStream,
TurboTransformers and sphexa). STEP: sources, dbs (default:
both). Needs git, make, CMake 3.24 or later, ninja, Python 3 with its headers at /usr/bin/python3
and the CUDA toolkit at /usr/local/cuda; builds nothing, downloads nothing.
"""
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import recreate  # noqa: E402  (write_db, command_line, run, NVCC)
import recreate_h17  # noqa: E402  (sources)
from recreate_h26 import add_rows  # noqa: E402
from recreate_h27 import nvcc_lines  # noqa: E402

TURBO = "TurboTransformers"
SOURCES = [
    ("BabelStream", "UoB-HPC/BabelStream", "57637d572532fc028b6c0964944f1afc27ff5436"),
    ("RSBench", "ANL-CESAR/RSBench", "34b644787ea9af4fb188e1253da72e09bbed9989"),
    (TURBO, "Tencent/TurboTransformers", "6c7cf638019a6aee4a19649b8d573230bfe8b9ee"),
    # the commits its 3rd/ submodules name (its CMake configure adds abseil, Catch2 and pybind11)
    (TURBO + "/3rd/abseil", "abseil/abseil-cpp", "40a0e58eb39f327b14841eeccacd962340dbc57d"),
    (TURBO + "/3rd/Catch2", "catchorg/Catch2", "87b5bf77bc98030bdbca52bff65ee24fc6483d3b"),
    (TURBO + "/3rd/pybind11", "pybind/pybind11", "4f72ef846fe8453596230ac285eeaa0ce3278bb4"),
    (TURBO + "/3rd/loguru", "emilk/loguru", "2e1424d575e276e010c072967c0672863c623cbf"),
    (TURBO + "/3rd/dlpack", "dmlc/dlpack", "3ec04430e89a6834e5a1b99471f415fa939bf642"),
    (TURBO + "/3rd/FP16", "Maratyszcza/FP16", "ba1d31f5eed2eb4a69e4dea3870a68c7c95f998f"),
    (TURBO + "/3rd/cub", "NVlabs/cub", "c3cceac115c072fb63df1836ff46d8c60d9eb304"),
    # added after the first three gave 1 warning (the choice's addendum); its one submodule,
    # extern/grackle/grackle_repo, is for an option that is off (SPH_EXA_WITH_GRACKLE)
    ("sphexa", "sphexa-org/sphexa", "b458f5716b032e94fe367197b5d12f1cc4221b9f"),
]


def sources(git_root, top):
    recreate_h17.sources(git_root, top, SOURCES)


def cmake_cu_rows(src, build, options):
    """The .cu rows of CMake's database for a configure of SRC in BUILD (Release, Ninja, nvcc 13)
    with OPTIONS, each file once."""
    os.makedirs(build, exist_ok=True)
    recreate.run(["cmake", "-S", src, "-B", build, "-G", "Ninja", "-DCMAKE_BUILD_TYPE=Release",
                  "-DCMAKE_EXPORT_COMPILE_COMMANDS=ON", "-DCMAKE_CUDA_COMPILER=" + recreate.NVCC,
                  "-Wno-dev", *options], stdout=subprocess.DEVNULL)
    with open(os.path.join(build, "compile_commands.json")) as f:
        rows, seen = [], set()
        for row in json.load(f):
            if row["file"].endswith(".cu") and row["file"] not in seen:
                seen.add(row["file"])
                rows.append(row)
    return rows


def babelstream_db(top):
    """Its CMake build for its two CUDA models, one configure each: MODEL=cuda with
    CUDA_ARCH=sm_90 (a required option, no default) and MODEL=thrust with THRUST_IMPL=CUDA,
    BACKEND=CUDA (its defaults) and CUDA_ARCH=90; CMake's database, each model's .cu unit
    (src/cuda/CUDAStream.cu, src/thrust/ThrustStream.cu), flags as written (-std=c++14). The
    driver, src/main.cpp (c++, the same in every model), left out."""
    src = os.path.join(top, "srcs", "BabelStream")
    rows = cmake_cu_rows(src, os.path.join(top, "build", "babelstream-cuda"),
                         ["-DMODEL=cuda", "-DCUDA_ARCH=sm_90"])
    rows += cmake_cu_rows(src, os.path.join(top, "build", "babelstream-thrust"),
                          ["-DMODEL=thrust", "-DTHRUST_IMPL=CUDA", "-DBACKEND=CUDA",
                           "-DCUDA_ARCH=90"])
    recreate.write_db(top, "BabelStream", rows)


def rsbench_db(top):
    """cuda/'s Makefile as it stands (COMPILER=nvidia, OPTIMIZE=yes, SM_VERSION=80, which CUDA 13
    still has; -std=c++14): the nvcc lines of 'make -n -B', run in cuda/."""
    folder = os.path.join(top, "srcs", "RSBench", "cuda")
    commands, seen = [], set()
    for words in nvcc_lines(folder, [], []):
        add_rows(commands, seen, folder, words)
    recreate.write_db(top, "RSBench", commands)


def turbo_db(top):
    """Its CMake configure as tools/compile.sh runs it (Ninja, Release,
    CUDA_INCLUDE_DIRS=/usr/local/cuda/include, WITH_GPU=ON), with BLAS_PROVIDER=openblas (the
    switch its README names; the default, MKL, is a REQUIRED package not installed here; OpenBLAS,
    Eigen, zlib and cnpy are ExternalProjects its build would download, not its configure),
    CUDA_ARCH_LIST=9.0 (its default, Auto, asks the GPU; there is none here) and
    PYTHON_EXECUTABLE=/usr/bin/python3 (for pybind11's configure); CMake's database, its six .cu
    units (turbo_transformers/layers/kernels/gpu_*.cu), flags as written (-std=c++14,
    -I 3rd/cub). The host .cpp units (c++) left out."""
    src = os.path.join(top, "srcs", TURBO)
    rows = cmake_cu_rows(src, os.path.join(top, "build", "turbo"),
                         ["-DCUDA_INCLUDE_DIRS=/usr/local/cuda/include", "-DWITH_GPU=ON",
                          "-DBLAS_PROVIDER=openblas", "-DCUDA_ARCH_LIST=9.0",
                          "-DPYTHON_EXECUTABLE=/usr/bin/python3"])
    recreate.write_db(top, TURBO, rows)


def sphexa_db(top):
    """Its CMake configure (project CXX C, CUDA enabled when found; MPI and HDF5 optional, absent
    here, so the MPI programs and H5Part are left out by the configure itself) with
    CMAKE_CUDA_ARCHITECTURES=90 (its README's line) and BUILD_TESTING=OFF (on, its
    cmake/setup_GTest.cmake downloads googletest, GTest not being installed); CMake's database,
    its 29 .cu units (the domain, ryoanji and SPH kernels' GPU halves, main/src/observables),
    with -std=c++20 before '-x cu': the project sets CMAKE_CUDA_STANDARD 20, which CMake 3.25
    cannot write for nvcc (its NVIDIA-CUDA.cmake stops at C++17, so it writes no -std at all,
    nvcc 13's default being C++17); the units use C++20 (std::span) and need it."""
    src = os.path.join(top, "srcs", "sphexa")
    rows = cmake_cu_rows(src, os.path.join(top, "build", "sphexa"),
                         ["-DCMAKE_CUDA_ARCHITECTURES=90", "-DBUILD_TESTING=OFF"])
    for row in rows:
        if "-std=" not in row["command"]:
            row["command"] = row["command"].replace(" -x cu -c ", " -std=c++20 -x cu -c ", 1)
    recreate.write_db(top, "sphexa", rows)


def main(argv):
    return recreate.command_line(argv, __doc__, sources,
                                 [babelstream_db, rsbench_db, turbo_db, sphexa_db])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
