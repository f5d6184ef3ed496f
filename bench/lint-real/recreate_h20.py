"""recreate_h20.py: the sources and compile databases of study-projects.txt's "held-out-20" rows,
made again as docs/studies/lint-realworld.md describes them ("Held-out projects, twentieth
sample").

Usage: python3 bench/lint-real/recreate_h20.py GIT_ROOT TOP [STEP...]

GIT_ROOT/OWNER/NAME is a git folder (a bare clone will do) of foges/pogs, CannyLab/tsne-cuda,
cvxgrp/scs and facebookresearch/faiss (tsne-cuda's headers include FAISS's). TOP receives srcs/
(study.sh's SRC_ROOT), dbs/ (its DB_ROOT), deps/ (FAISS's headers) and build/ (tsne-cuda's CMake
configure). STEP: sources, dbs (default: both). Needs git, make, cmake (3.25) and the CUDA
toolkit at /usr/local/cuda; builds nothing.
"""
import os
import shlex
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import recreate  # noqa: E402  (checkout, write_db, load, command_line, NVCC)
import recreate_h16  # noqa: E402  (rows, UNITS)
import recreate_h17  # noqa: E402  (sources, compiler)

SOURCES = [
    ("pogs", "foges/pogs", "649ba26fc25e04ebb042e6d6a60c934c4d283508"),
    ("tsne-cuda", "CannyLab/tsne-cuda", "244db8f13811a2abc94e5fe931d7616ef72a06b4"),
    ("scs", "cvxgrp/scs", "41efd34f7e83c682f41306328fa5404e87b4c315"),
]
# FAISS's headers for tsne-cuda (options.h and distance_utils.h include them): the commit of the
# study's faiss row (recreate.py), its faiss/ folder only; nothing of it is built or linked.
DEPS = [("faiss", "facebookresearch/faiss", "02dbb4e42f49aa2ce57cd78977b0e47a11f7cb91", ["faiss"])]
# The compilers the Makefiles name, as lint is to see them: nvcc as the toolkit's, the C
# compiler as itself.
COMPILERS = {"nvcc": recreate.NVCC, "cc": "cc", "gcc": "gcc"}


def sources(git_root, top):
    recreate_h17.sources(git_root, top, SOURCES)
    for folder, repo, commit, paths in DEPS:
        recreate.checkout(os.path.join(git_root, repo), commit, os.path.join(top, "deps", folder),
                          paths)


def make_entries(src, targets):
    """The compile lines of 'make -n -B TARGETS' in SRC, as recreate_h19.make_entries reads them
    (each line whose first word is a compiler of COMPILERS and that names a source file, with or
    without '-c'), then recreate_h16.rows' entries."""
    out = subprocess.run(["make", "-n", "-B", "-C", src, *targets], check=True,
                         capture_output=True, text=True).stdout
    commands = []
    for line in out.splitlines():
        words = shlex.split(line)
        if not words or not recreate_h17.compiler(words[0], COMPILERS):
            continue  # make's own lines, ar, the device-link line
        if any(w.endswith(recreate_h16.UNITS) for w in words):
            commands += recreate_h16.rows(src, [recreate_h17.compiler(words[0], COMPILERS)]
                                          + words[1:])
    return commands


def pogs_db(top):
    """src/Makefile's 'gpu' target: the five .cu units (gpu/pogs.cu, gpu/matrix/matrix_dense.cu,
    matrix_sparse.cu, gpu/projector/projector_cgls.cu, projector_direct_dense.cu), each 'nvcc
    -Iinclude -Igpu/include UNIT -std=c++11 -gencode=arch=compute_50,code=sm_50 -Xcompiler -fPIC
    -dc -o OBJ', from 'make -n -B gpu' in src/ (the device-link line names objects only). The CPU
    build (cpu/, GSL stand-ins), the C interface, the R and MATLAB wrappers and the examples
    left out."""
    src = os.path.join(top, "srcs", "pogs", "src")
    out = make_entries(src, ["gpu"])
    recreate.write_db(top, "pogs", out)


def tsne_db(top):
    """Its CMakeLists.txt, configured with -DBUILD_PYTHON=OFF, CMAKE_CUDA_ARCHITECTURES 90, and
    FAISS_INCLUDE_DIR and FAISS_GPU_INCLUDE_DIR at deps/faiss (FAISS_LIBRARY a name only: the
    configure asks for it, nothing is linked): the tsnecuda library's 15 .cu units as CMake
    writes them (nvcc -std=c++17 ... -DNO_ZMQ)."""
    src, build = os.path.join(top, "srcs", "tsne-cuda"), os.path.join(top, "build", "tsne-cuda")
    faiss = os.path.join(top, "deps", "faiss")
    recreate.run(["cmake", "-S", src, "-B", build, "-G", "Ninja",
                  "-DCMAKE_EXPORT_COMPILE_COMMANDS=ON", "-DCMAKE_CUDA_COMPILER=" + recreate.NVCC,
                  "-DCMAKE_CUDA_ARCHITECTURES=90", "-DBUILD_PYTHON=OFF",
                  "-DFAISS_INCLUDE_DIR=" + faiss, "-DFAISS_GPU_INCLUDE_DIR=" + faiss,
                  "-DFAISS_LIBRARY=faiss"], stdout=subprocess.DEVNULL)
    recreate.write_db(top, "tsne-cuda", recreate.load(build))


def scs_db(top):
    """Its Makefile's 'gpu_indirect' target (the GPU indirect solver: the library's C units, the
    GPU linear system linsys/gpu/indirect/private.c and linsys/gpu/gpu.c, and the two programs
    test/random_socp_prob.c and test/run_from_file.c, compiled and linked in one line each), from
    'make -n -B gpu_indirect': cc with scs.mk's flags (CUDA_PATH /usr/local/cuda)."""
    src = os.path.join(top, "srcs", "scs")
    recreate.write_db(top, "scs", make_entries(src, ["gpu_indirect"]))


def main(argv):
    return recreate.command_line(argv, __doc__, sources, [pogs_db, tsne_db, scs_db])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
