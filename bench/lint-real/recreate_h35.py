"""recreate_h35.py: the sources and compile databases of study-projects.txt's "held-out-35" rows,
made again as docs/studies/lint-realworld.md describes them ("Held-out-35").

Usage: python3 bench/lint-real/recreate_h35.py GIT_ROOT TOP [STEP...]

GIT_ROOT/OWNER/NAME is a git folder (a bare clone will do) of libocca/occa, LLNL/Umpire and
hornet-gt/hornet, and of Umpire's submodules LLNL/blt, LLNL/camp and fmtlib/fmt. TOP receives
srcs/ (study.sh's SRC_ROOT), dbs/ (its DB_ROOT) and build/ (the CMake configures). STEP: sources,
dbs (default: both). Needs git, CMake 3.25, ninja and the CUDA toolkit at /usr/local/cuda;
builds nothing, downloads nothing.
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import recreate  # noqa: E402  (write_db, load, command_line, draw, NVCC)
import recreate_h17  # noqa: E402  (sources)
from recreate_h32 import configure, first_of_each  # noqa: E402

SOURCES = [
    # b0nes164/GPUSorting skipped before occa (its only build file is a Visual Studio project)
    ("occa", "libocca/occa", "c0c601f80eff8f4eb7cc453a6a9db5bdd6554495"),
    # its submodules scripts/radiuss-spack-configs and scripts/uberenv (Spack's set-up) and
    # camp's own extern/blt (read only when camp is built alone) are not read by the build:
    # left out
    ("Umpire", "LLNL/Umpire", "5bf5bc182f1e6ee3f6be1d953b68451d3ddc35f5"),
    ("Umpire/blt", "LLNL/blt", "9ff77344f0b2a6ee345e452bddd6bfd46cbbfa35"),
    ("Umpire/src/tpl/umpire/camp", "LLNL/camp", "0f07de4240c42e0b38a8d872a20440cb4b33d9f5"),
    ("Umpire/src/tpl/umpire/fmt", "fmtlib/fmt", "e69e5f977d458f2650bb346dadf2ad30c5320281"),
    # its submodule externals/rmm is read only with RMM_LIBRARY, which its build sets OFF: left
    # out
    ("hornet", "hornet-gt/hornet", "2441ccabd44a09dbf16f521dbd0bc856ab5001f8"),
]
# units drawn from each very large project (random.Random(35).sample over the sorted paths), as
# MFEM's row drew 60
OCCA_DRAW = 60


def sources(git_root, top):
    recreate_h17.sources(git_root, top, SOURCES)


def occa_db(top):
    """Its CMake configure (Release, Ninja), no option: OCCA_ENABLE_CUDA is on by default and
    finds the toolkit (CUDAToolkit; the library is C++ that calls the driver API, so no CUDA
    language and no architecture); OpenMP found, OpenCL, HIP, DPC++ and Metal not; tests and
    examples off (its defaults). CMake's database, 270 units (the library's 269 and the occa
    command's one), all in the source tree; over this study's ~150, so OCCA_DRAW of them,
    random.Random(35).sample over the sorted paths (recreate.draw)."""
    src = os.path.join(top, "srcs", "occa")
    build = os.path.join(top, "build", "occa")
    configure(src, build, [])
    recreate.write_db(top, "occa", recreate.draw(recreate.load(build), "^" + src + "/", 35,
                                                 OCCA_DRAW))


def umpire_db(top):
    """Its CMake configure (Release, Ninja, nvcc 13) with BLT's ENABLE_CUDA=ON (Umpire's options
    set it off; UMPIRE_ENABLE_CUDA follows it); CMAKE_CUDA_ARCHITECTURES as CMake defaults it for
    nvcc 13 (75); its other options as they default (C++14; tests, examples and BLT's own smoke
    tests on, with BLT's bundled googletest; no MPI, OpenMP, tools or benchmarks). CMake's
    database, each file once: 150 units (the library 53; its third-party folder 17: camp's
    library and tests 14, fmt 2, judy 1; the tests 33, the examples 37, BLT's tests 6 and its
    googletest 4; 17 that nvcc compiles), all in the source tree; not over this study's ~150,
    so all of them."""
    src = os.path.join(top, "srcs", "Umpire")
    build = os.path.join(top, "build", "Umpire")
    configure(src, build, ["-DCMAKE_CUDA_COMPILER=" + recreate.NVCC, "-DENABLE_CUDA=ON"])
    recreate.write_db(top, "Umpire", first_of_each(recreate.load(build)))


def hornet_db(top):
    """Its README's two builds, each a CMake configure (Release, Ninja, nvcc 13, no option):
    hornet/ (the data structure's library, its xlib and its tests) and hornetsnest/ (the
    algorithms: BFS, BC, connected components, SSSP, SpMV, PageRank, Katz, k-core, triangle
    counting, clustering coefficient, each with its test program; it compiles hornet's and
    xlib's sources again into its own library). The architectures its compiler-util names
    (-gencode for 60 and 70), CUB_LIBRARY on and RMM_LIBRARY off, as it sets them. The two
    databases merged, each file once (hornet's first): all 54 units (18 host C++ of hornet and
    xlib, 36 that nvcc compiles)."""
    src = os.path.join(top, "srcs", "hornet")
    rows = []
    for part in ("hornet", "hornetsnest"):
        build = os.path.join(top, "build", "hornet", part)
        configure(os.path.join(src, part), build, ["-DCMAKE_CUDA_COMPILER=" + recreate.NVCC])
        rows += recreate.load(build)
    recreate.write_db(top, "hornet", first_of_each(rows))


def main(argv):
    return recreate.command_line(argv, __doc__, sources, [occa_db, umpire_db, hornet_db])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
