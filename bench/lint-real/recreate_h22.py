"""recreate_h22.py: the sources and compile databases of study-projects.txt's "held-out-22" rows,
made again as docs/studies/lint-realworld.md describes them ("Held-out projects, twenty-second
sample").

Usage: python3 bench/lint-real/recreate_h22.py GIT_ROOT TOP [STEP...]

GIT_ROOT/OWNER/NAME is a git folder (a bare clone will do) of NVIDIA/CoMD-CUDA, MIT-Lu-Lab/cuPDLPx,
zer011b/fdtd3d, zer011b/EasyBMP (fdtd3d's configure downloads it) and NVlabs/cub (CoMD-CUDA's
submodule cub/, taken at the release 1.6.4: the submodule's commit 89de7ab is on no branch of the
clone at hand). TOP receives srcs/ (study.sh's SRC_ROOT), dbs/ (its DB_ROOT), deps/ (EasyBMP) and
build/ (fdtd3d's CMake configure). STEP: sources, dbs (default: both). Needs git, make, cmake
(3.25) and the CUDA toolkit at /usr/local/cuda; builds nothing (it runs CoMD-CUDA's rule for
CoMD_info.h and cuPDLPx's for version.h, as their builds do).
"""
import os
import re
import shlex
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import recreate  # noqa: E402  (checkout, write_db, load, run, command_line, NVCC)
import recreate_h17  # noqa: E402  (sources, make_rows)

SOURCES = [
    ("CoMD-CUDA", "NVIDIA/CoMD-CUDA", "c3b39ed58c8c5a307e6600902979c290a4ad27c4"),
    ("cuPDLPx", "MIT-Lu-Lab/cuPDLPx", "4ab50eebe75dede1773f6516fba1947b2df2d29b"),
    ("fdtd3d", "zer011b/fdtd3d", "7c04c03710f2d0b2366b2adb8c089244b80dfac4"),
    # CoMD-CUDA's submodule (gpu_scan.h includes "../cub/cub/cub.cuh"): cub 1.6.4
    ("CoMD-CUDA/cub", "NVlabs/cub", "7ba78ae3ad4d454fc59a7dd9f548ca94e2bcaf6a"),
]
# The compilers the Makefiles name, as lint is to see them: nvcc as the toolkit's; CoMD's MPI C
# wrapper (CC = mpicc, also with DO_MPI=OFF) as the plain C compiler it wraps; cuPDLPx's gcc.
COMPILERS = {"nvcc": recreate.NVCC, "mpicc": "cc", "gcc": "gcc"}


# fdtd3d's configure downloads EasyBMP's v1.6 archive and keeps its source/ folder.
DEPS = [("EasyBMP", "zer011b/EasyBMP", "209d5f251247156975e559e26d3e322b5aa3bfa6", ["source"])]


def sources(git_root, top):
    recreate_h17.sources(git_root, top, SOURCES)
    for folder, repo, commit, paths in DEPS:
        recreate.checkout(os.path.join(git_root, repo), commit, os.path.join(top, "deps", folder),
                          paths)


def comd_db(top):
    """src-mpi/Makefile.EAM (EAM forces, the README's first build) copied to src-mpi/Makefile, as
    its rule for CoMD_info.h needs, with DO_MPI=OFF and CUDA_HOME=/usr/local/cuda: CoMD_info.h
    made by its rule (generate_info_header, CC=cc: no MPI wrapper here), then the mpicc lines of
    its C units and the nvcc line of gpu_kernels.cu, from make -n -B in src-mpi (the program
    CoMD-cuda). src-openmp/ and src-serial/ have no GPU code."""
    src = os.path.join(top, "srcs", "CoMD-CUDA", "src-mpi")
    shutil.copyfile(os.path.join(src, "Makefile.EAM"), os.path.join(src, "Makefile"))
    variables = ["DO_MPI=OFF", "CUDA_HOME=/usr/local/cuda"]
    subprocess.run(["make", "-C", src, *variables, "CC=cc", "CoMD_info.h"], check=True,
                   stdout=subprocess.DEVNULL)
    recreate_h17.make_rows(top, "CoMD-CUDA/src-mpi", variables, COMPILERS)
    # make_rows writes dbs/CoMD-CUDA/src-mpi/; the database is dbs/CoMD-CUDA (study-projects.txt)
    dbs = os.path.join(top, "dbs", "CoMD-CUDA")
    made = os.path.join(dbs, "src-mpi")
    shutil.move(os.path.join(made, "compile_commands.json"),
                os.path.join(dbs, "compile_commands.json"))
    os.rmdir(made)


def cupdlpx_db(top):
    """Its Makefile's build target (the library's interface.c, io.c, solver.cu and utils.cu and
    the program's cupdlpx.c, with gcc and nvcc as it writes them; CUDA_HOME=/usr/local/cuda): the
    compile lines of make -n -B build, with build/generated/version.h written from
    version.h.in as its rule does (sed of the version in pyproject.toml)."""
    src = os.path.join(top, "srcs", "cuPDLPx")
    subprocess.run(["make", "-C", src, "build/generated/version.h"], check=True,
                   stdout=subprocess.DEVNULL)
    recreate_h17.make_rows(top, "cuPDLPx", ["build", "CUDA_HOME=/usr/local/cuda"], COMPILERS)
    # The program's unit, cupdlpx.c, is compiled and linked in one nvcc line (no -c), which
    # make_rows passes over: its entry from that line, the archive and the link flags left out.
    out = subprocess.run(["make", "-n", "-B", "-C", src, "build", "CUDA_HOME=/usr/local/cuda"],
                         check=True, capture_output=True, text=True).stdout
    line = next(x for x in out.splitlines() if "cupdlpx.c " in x and x.split()[0] == "nvcc")
    words = shlex.split(line)
    cut = words.index("-o")
    args = [recreate.NVCC] + [w for w in words[1:cut] if w != "./cupdlpx/cupdlpx.c"]
    db = recreate.load(os.path.join(top, "dbs", "cuPDLPx"))
    db.append(recreate.entry(src, os.path.join(src, "cupdlpx", "cupdlpx.c"), args))
    recreate.write_db(top, "cuPDLPx", db)


# fdtd3d's units that are not the program's: its unit tests and the converter tool (other
# programs of the default build) and EasyBMP (third-party, downloaded by its configure).
FDTD3D_LEFT_OUT = re.compile(r"/(Source/UnitTests|Source/Tools|Third-party)/")


def fdtd3d_db(top):
    """Its CMakeLists.txt configured with CUDA_ENABLED=ON, CUDA_ARCH_SM_TYPE=sm_90 and
    CMAKE_BUILD_TYPE=Release (the CUDA CI's Release build; SOLVER_DIM_MODES ALL and the other
    options at their defaults: no parallel grid, no MPI, double values), EasyBMP's source/ put
    where the configure would download it (zer011b/EasyBMP v1.6, the archive its CMakeLists.txt
    fetches with wget): the program fdtd3d's 31 units (its main.cu and its libraries' .cpp and .cu
    units) as CMake writes them."""
    src = os.path.join(top, "srcs", "fdtd3d")
    easybmp = os.path.join(src, "Third-party", "EasyBMP", "source")
    if not os.path.isdir(easybmp):
        shutil.copytree(os.path.join(top, "deps", "EasyBMP", "source"), easybmp)
    build = os.path.join(top, "build", "fdtd3d")
    recreate.run(["cmake", "-S", src, "-B", build, "-G", "Ninja",
                  "-DCMAKE_EXPORT_COMPILE_COMMANDS=ON", "-DCMAKE_CUDA_COMPILER=" + recreate.NVCC,
                  "-DCUDA_ENABLED=ON", "-DCUDA_ARCH_SM_TYPE=sm_90", "-DCMAKE_BUILD_TYPE=Release"],
                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    recreate.write_db(top, "fdtd3d", [e for e in recreate.load(build)
                                      if not FDTD3D_LEFT_OUT.search(e["file"])])


def main(argv):
    return recreate.command_line(argv, __doc__, sources, [comd_db, cupdlpx_db, fdtd3d_db])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
