"""recreate_h33.py: the sources and compile databases of study-projects.txt's "held-out-33" rows,
made again as docs/studies/lint-realworld.md describes them ("Held-out-33").

Usage: python3 bench/lint-real/recreate_h33.py GIT_ROOT TOP [STEP...]

GIT_ROOT/OWNER/NAME is a git folder (a bare clone will do) of bitsandbytes-foundation/bitsandbytes,
icl-utk-edu/magma and NVIDIA/CUDALibrarySamples. TOP receives srcs/ (study.sh's SRC_ROOT), dbs/
(its DB_ROOT) and build/ (the CMake configures). STEP: sources, dbs (default: both). Needs git,
CMake 3.25, ninja, make, python3 and the CUDA toolkit at /usr/local/cuda (MAGMA's configure also
finds a Fortran compiler and the system's BLAS and LAPACK); builds nothing, downloads nothing.
The dbs step adds files to one project's sources: MAGMA's 'make generate' (its README's step 0
for a git checkout) writes make.inc, the s/d/c precisions of its z sources (tools/codegen.py) and
CMake.src.cuda. The 63 CUDALibrarySamples projects whose configure stops are named on standard
error.
"""
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import recreate  # noqa: E402  (write_db, load, command_line, run, draw, NVCC)
import recreate_h17  # noqa: E402  (sources)
from recreate_h32 import configure, first_of_each  # noqa: E402

SOURCES = [
    ("bitsandbytes", "bitsandbytes-foundation/bitsandbytes",
     "95f9af309d4d5793847169c39288dcd3fcbdf564"),
    # tpruvot/ccminer and colmap/colmap skipped before magma (the draw's second and third)
    ("magma", "icl-utk-edu/magma", "c64e52ab893601dc89d6e92d675307875325c231"),
    # the one blob the clone lacks (nvJPEG2000's 4k_lossy.jp2, a test image) is read by no build
    ("CUDALibrarySamples", "NVIDIA/CUDALibrarySamples", "34377293fb148e90aad16fd762fa2445f941be55"),
]
# units drawn from each very large project (random.Random(33).sample over the sorted paths), as
# MFEM's row drew 60
MAGMA_DRAW = CLS_DRAW = 60


def sources(git_root, top):
    recreate_h17.sources(git_root, top, SOURCES)


def bitsandbytes_db(top):
    """Its CMake configure (Release, Ninja, nvcc 13) with its own COMPUTE_BACKEND=cuda (its
    default is cpu) and COMPUTE_CAPABILITY=90 (its own cache variable; by default it lists every
    architecture CMake 3.25 knows for nvcc, 35 to 90, and 35 to 72 are gone from CUDA 13).
    CMake's database, all 7 units (ops.cu, kernels.cu and the three 4-bit GEMM units, which nvcc
    compiles; cpu_ops.cpp and pythonInterface.cpp, the C entry points)."""
    src = os.path.join(top, "srcs", "bitsandbytes")
    build = os.path.join(top, "build", "bitsandbytes")
    configure(src, build, ["-DCMAKE_CUDA_COMPILER=" + recreate.NVCC, "-DCOMPUTE_BACKEND=cuda",
                           "-DCOMPUTE_CAPABILITY=90"])
    recreate.write_db(top, "bitsandbytes", first_of_each(recreate.load(build)))


def magma_db(top):
    """Its README's step 0 for a git checkout: a minimal make.inc (BACKEND = cuda, FORT = true,
    and GPU_TARGET = sm_90, without which its Makefile stops: "unknown `GPU_TARGET=`"; the
    generated source lists do not depend on it) and 'make generate', which runs
    tools/codegen.py over the z sources (the s, d and c precisions, written beside them) and
    writes CMake.src.cuda. Then its CMake configure (Release, Ninja, nvcc 13) with its own
    MAGMA_ENABLE_CUDA=ON (also what it picks when no back end is named) and GPU_TARGET left
    empty, its default, so CMAKE_CUDA_ARCHITECTURES as CMake defaults it for nvcc 13, 75; the
    system's BLAS and LAPACK; Fortran on. CMake's database, 2617 units, all in its default build
    (the library, magmablas, the sparse library, the testers); the 50 Fortran units left out;
    over this study's ~150, so MAGMA_DRAW of the 2567 C++ and CUDA units,
    random.Random(33).sample over the sorted paths (recreate.draw)."""
    src = os.path.join(top, "srcs", "magma")
    build = os.path.join(top, "build", "magma")
    with open(os.path.join(src, "make.inc"), "w") as f:
        f.write("BACKEND = cuda\nFORT = true\nGPU_TARGET = sm_90\n")
    recreate.run(["make", "-C", src, "generate"], stdout=subprocess.DEVNULL)
    configure(src, build, ["-DCMAKE_CUDA_COMPILER=" + recreate.NVCC, "-DMAGMA_ENABLE_CUDA=ON"])
    recreate.write_db(top, "magma", recreate.draw(recreate.load(build),
                                                  "^" + src + r"/.*\.(cpp|cu)$", 33, MAGMA_DRAW))


def cmake_roots(src):
    """The folders under SRC (relative, sorted) that hold a CMakeLists.txt with none in a folder
    above them (below SRC): each a CMake project of its own."""
    roots = []
    for folder, dirs, files in os.walk(src):
        dirs.sort()
        rel = os.path.relpath(folder, src)
        if "CMakeLists.txt" not in files or rel == ".":
            continue
        above = os.path.dirname(rel)
        while above and not os.path.exists(os.path.join(src, above, "CMakeLists.txt")):
            above = os.path.dirname(above)
        if not above:
            roots.append(rel)
    return sorted(roots)


def cudalibrarysamples_db(top):
    """No top-level build: 228 CMake projects (cmake_roots), each configured the same way
    (Release, Ninja, nvcc 13; no option; its own architectures, or CMake's default for nvcc 13).
    The 63 whose configure stops (libraries not installed here: cuDSS, nvJPEG, nvJPEG2000,
    nvTIFF, NPP and NPP+, MathDx and nvCOMP, cuTENSOR, MPI for cuBLASMp, cuSOLVERMp and
    cutensorMp, cuEST's headers, nvJitLink for one cuFFT sample, pybind11 for cuFFTMp's JAX
    module; two MathDx projects ask for CMake 3.26) are named on standard error and left out. The
    databases of the others, each file once: 234 units (cuBLAS, cuBLASLt, cuSPARSE, cuSPARSELt,
    cuSOLVER, cuSOLVERSp2cuDSS, cuRAND, cuFFT); over this study's ~150, so CLS_DRAW of them,
    random.Random(33).sample over the sorted paths (recreate.draw)."""
    src = os.path.join(top, "srcs", "CUDALibrarySamples")
    rows = []
    for root in cmake_roots(src):
        build = os.path.join(top, "build", "CUDALibrarySamples", root)
        os.makedirs(build, exist_ok=True)
        done = subprocess.run(["cmake", "-S", os.path.join(src, root), "-B", build, "-G", "Ninja",
                               "-DCMAKE_BUILD_TYPE=Release", "-DCMAKE_EXPORT_COMPILE_COMMANDS=ON",
                               "-Wno-dev", "-DCMAKE_CUDA_COMPILER=" + recreate.NVCC],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        database = os.path.join(build, "compile_commands.json")
        if done.returncode != 0:
            sys.stderr.write(f"recreate_h33.py: CUDALibrarySamples/{root}: configure failed, "
                             "left out\n")
        elif os.path.exists(database):  # cuEST/python_examples has no unit
            rows += recreate.load(build)
    recreate.write_db(top, "CUDALibrarySamples",
                      recreate.draw(first_of_each(rows), "^" + src + "/", 33, CLS_DRAW))


def main(argv):
    return recreate.command_line(argv, __doc__, sources, [bitsandbytes_db, magma_db,
                                                          cudalibrarysamples_db])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
