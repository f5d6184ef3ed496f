"""recreate_h36.py: the sources and compile databases of study-projects.txt's "held-out-36" rows,
made again as docs/studies/lint-realworld.md describes them ("Held-out-36").

Usage: python3 bench/lint-real/recreate_h36.py GIT_ROOT TOP [STEP...]

GIT_ROOT/OWNER/NAME is a git folder (a bare clone will do) of akrizhevsky/cuda-convnet2, mumax/3
and ekondis/mixbench. TOP receives srcs/ (study.sh's SRC_ROOT), dbs/ (its DB_ROOT) and build/
(mixbench's CMake configure). STEP: sources, dbs (default: both). Needs git, make, CMake 3.25,
ninja and the CUDA toolkit at /usr/local/cuda; builds nothing, downloads nothing. The dbs step
writes one file into the sources, as mixbench's configure does: mixbench-cuda/version_info.h
(its 'git describe', empty outside a git work tree).
"""
import os
import re
import shlex
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import recreate  # noqa: E402  (write_db, load, command_line, entry, NVCC)
import recreate_h16  # noqa: E402  (rows)
import recreate_h17  # noqa: E402  (sources)
from recreate_h32 import configure, first_of_each  # noqa: E402

SOURCES = [
    # PointCloudLibrary/pcl skipped before cuda-convnet2 (its configure stops at
    # find_package(Eigen3 REQUIRED), CMakeLists.txt:347; Eigen is not installed here)
    ("cuda-convnet2", "akrizhevsky/cuda-convnet2", "3238bf0367f63eb370e897b9e5714794cb67ddc2"),
    ("mumax3", "mumax/3", "a0c5126ac5477b02ee321bebfb2ed5e2d76368b0"),
    # cusplibrary/cusplibrary skipped before mixbench (SCons only: no CMake project, no Makefile)
    ("mixbench", "ekondis/mixbench", "236a0be007a5937e9ffb4a6c7eb1fafed6108e80"),
]
# build.sh's variables, as it sets them (its paths for Python 2.7, NumPy and ATLAS are not
# installed here; CUDA 13 ships no samples/, so CUDA_SDK_PATH's common/inc is absent too)
CONVNET_VARIABLES = [
    "CUDA_INSTALL_PATH=/usr/local/cuda",
    "PYTHON_INCLUDE_PATH=/usr/include/python2.7",
    "NUMPY_INCLUDE_PATH=/usr/lib/python2.7/dist-packages/numpy/core/include/numpy/",
    "ATLAS_LIB_PATH=/usr/lib/atlas-base",
    "CUDA_SDK_PATH=/usr/local/cuda/samples",
]
# build.sh's five makes, in its order, each with its own arguments
CONVNET_MAKES = [("util", ["numpy=1"]), ("nvmatrix", []), ("cudaconv3", []),
                 ("cudaconvnet", []), ("make-data/pyext", [])]


def sources(git_root, top):
    recreate_h17.sources(git_root, top, SOURCES)


def make_n(folder, args):
    out = subprocess.run(["make", "-n", "-B", "-C", folder, *args], check=True,
                         capture_output=True, text=True).stdout
    return out.replace("\\\n", " ")


def convnet_db(top):
    """build.sh: with its variables (CONVNET_VARIABLES), 'make' in util (numpy=1), nvmatrix,
    cudaconv3, cudaconvnet and make-data/pyext, each with its own Makefile. The compile lines of
    'make -n -B' in each folder (g++ and the toolkit's nvcc, with '-c'; the -gencode for 35 as the
    Makefiles write it), one entry per unit, run in that folder (recreate_h16.rows), each folder's
    units in path order: all 27 (24 .cu that nvcc compiles, 3 .cpp)."""
    src = os.path.join(top, "srcs", "cuda-convnet2")
    commands = []
    for sub, args in CONVNET_MAKES:
        folder = os.path.join(src, sub)
        rows = []
        for line in make_n(folder, CONVNET_VARIABLES + args).splitlines():
            words = shlex.split(line)
            if words and re.search(r"(g\+\+|nvcc)$", words[0]) and "-c" in words:
                rows += recreate_h16.rows(folder, words)
        commands += sorted(rows, key=lambda row: row["file"])
    recreate.write_db(top, "cuda-convnet2", first_of_each(commands))


def mumax_db(top):
    """Its sources in srcs/mumax3 (the repository's name, 3, is a digit). The top Makefile's
    'cudakernels' target: 'make' in cuda/ (NVCC_CCBIN empty, so its /usr/bin/gcc), with
    CUDA_HOME=/usr/local/cuda (the variable its Makefile names for the toolkit; without it, nvcc
    from the PATH) and CUDA_CC as it defaults (50). Each kernel file's recipe is a shell loop over
    CUDA_CC running nvcc -ptx (-std=c++03 -ccbin=/usr/bin/gcc --compiler-options -Werror
    --compiler-options -Wall -Xptxas -O3 -ptx -arch=compute_50 -code=sm_50); from 'make -n -B'
    the loop's nvcc line with each compute capability put in, one entry per kernel file, run in
    cuda/, in path order: all 64 (kernels only; the host code is Go, which loads the PTX and
    launches it through the driver API)."""
    folder = os.path.join(top, "srcs", "mumax3", "cuda")
    rows = []
    for line in make_n(folder, ["CUDA_HOME=/usr/local/cuda"]).splitlines():
        loop = re.match(r"\s*for cc in (.*?); do (.*); done\s*$", line)
        if not loop:
            continue
        for part in loop.group(2).split(";"):
            words = shlex.split(part)
            if not words or not words[0].endswith("nvcc"):
                continue  # the loop's echo
            for cc in loop.group(1).split():
                cmd = [w.replace("$cc", cc) for w in words]
                out = cmd.index("-o")
                path = next(w for w in cmd if w.endswith(".cu"))
                args = [w for i, w in enumerate(cmd) if i not in (out, out + 1) and w != path]
                rows.append(recreate.entry(folder, os.path.join(folder, path), args))
    recreate.write_db(top, "mumax3", first_of_each(sorted(rows, key=lambda row: row["file"])))


def mixbench_db(top):
    """Its README's CUDA build: the CMake project of mixbench-cuda/ (Release, Ninja, nvcc 13, no
    option; CMAKE_CUDA_ARCHITECTURES as CMake defaults it for nvcc 13, 75). The configure writes
    version_info.h into the source folder (its 'git describe'; empty here). CMake's database: all
    2 units (main-cuda.cpp by c++, mix_kernels_cuda.cu by nvcc). Its HIP, SYCL, OpenCL and CPU
    versions are other CMake projects, not CUDA: left out."""
    src = os.path.join(top, "srcs", "mixbench", "mixbench-cuda")
    build = os.path.join(top, "build", "mixbench")
    configure(src, build, ["-DCMAKE_CUDA_COMPILER=" + recreate.NVCC])
    recreate.write_db(top, "mixbench", first_of_each(recreate.load(build)))


def main(argv):
    return recreate.command_line(argv, __doc__, sources, [convnet_db, mumax_db, mixbench_db])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
