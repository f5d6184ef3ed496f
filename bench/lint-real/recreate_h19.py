"""recreate_h19.py: the sources and compile databases of study-projects.txt's "held-out-19" rows,
made again as docs/studies/lint-realworld.md describes them ("Held-out projects, nineteenth
sample").

Usage: python3 bench/lint-real/recreate_h19.py GIT_ROOT TOP [STEP...]

GIT_ROOT/OWNER/NAME is a git folder (a bare clone will do) of
NVIDIA/multi-gpu-programming-models, AutomataLab/Subway and illinois-impact/EMOGI. TOP receives
srcs/ (study.sh's SRC_ROOT) and dbs/ (its DB_ROOT). STEP: sources, dbs (default: both). Needs
git, make and the CUDA toolkit at /usr/local/cuda; builds nothing.
"""
import os
import shlex
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import recreate  # noqa: E402  (write_db, command_line, NVCC)
import recreate_h16  # noqa: E402  (rows)
import recreate_h17  # noqa: E402  (sources, compiler)

SOURCES = [
    ("multi-gpu-programming-models", "NVIDIA/multi-gpu-programming-models",
     "9a600f5ea8f5e53614e30b7b36e9136107178dd8"),
    ("Subway", "AutomataLab/Subway", "a0ef2d1a1a6253a044ce3a980a5eaab737c7b24a"),
    ("EMOGI", "illinois-impact/EMOGI", "382dbcce08bcd6e39c0cb31e1a894e5d5954dc01"),
]
# The compilers the Makefiles name, as lint is to see them: nvcc as the toolkit's, g++ as itself.
COMPILERS = {"nvcc": recreate.NVCC, "g++": "g++"}
# multi-gpu-programming-models: the variants whose build needs the CUDA toolkit only (and
# OpenMP); mpi, mpi_overlap, multi_node_p2p, nccl, nccl_graphs, nccl_overlap (host units
# compiled with mpicxx, which includes mpi.h) and nvshmem (its Makefile stops without
# NVSHMEM_HOME) left out: neither MPI nor NVSHMEM is installed here.
JACOBI_VARIANTS = ["single_gpu", "single_threaded_copy", "multi_threaded_copy",
                   "multi_threaded_copy_overlap", "multi_threaded_p2p", "multi_threaded_p2p_opt",
                   "multi_threaded_um"]


def sources(git_root, top):
    recreate_h17.sources(git_root, top, SOURCES)


def make_entries(src):
    """The compile lines of 'make -n -B' in SRC: each line whose first word is a compiler of
    COMPILERS and that names a source file (with or without '-c': these Makefiles compile and
    link in one line), that compiler as COMPILERS names it, then recreate_h16.rows' entries (one
    per source file it names, '-c' and the '-o' operand taken out)."""
    out = subprocess.run(["make", "-n", "-B", "-C", src], check=True, capture_output=True,
                         text=True).stdout
    commands = []
    for line in out.splitlines():
        words = shlex.split(line)
        if not words or not recreate_h17.compiler(words[0], COMPILERS):
            continue  # make's own lines, the link lines
        if any(w.endswith(recreate_h16.UNITS) for w in words):
            commands += recreate_h16.rows(src, [recreate_h17.compiler(words[0], COMPILERS)]
                                          + words[1:])
    return commands


def jacobi_db(top):
    """Each of JACOBI_VARIANTS' Makefile (its default target, jacobi: one line
    'nvcc -DHAVE_CUB -Xcompiler -fopenmp -lineinfo -DUSE_NVTX -ldl GENCODE -std=c++14 jacobi.cu
    -o jacobi', GENCODE for sm_70, sm_80 and sm_90 as it sets them), from 'make -n -B' in the
    variant's folder: seven units, one jacobi.cu each."""
    src = os.path.join(top, "srcs", "multi-gpu-programming-models")
    commands = []
    for variant in JACOBI_VARIANTS:
        commands += make_entries(os.path.join(src, variant))
    recreate.write_db(top, "multi-gpu-programming-models", commands)


def subway_db(top):
    """Its Makefiles: the top one runs 'make -C shared' and 'make -C subway' (a plain 'make',
    which 'make -n' does not run), so the compile lines of 'make -n -B' in shared/ (seven .cu
    units with 'nvcc -c ... -std=c++11 -O3 -arch=sm_60', two .cpp with 'g++ -c ... -std=c++11
    -O3') and in subway/ (the ten programs' .cu units). tools/ (converter.cpp, a graph-format
    converter with no CUDA) left out."""
    src = os.path.join(top, "srcs", "Subway")
    commands = []
    for folder in ("shared", "subway"):
        commands += make_entries(os.path.join(src, folder))
    recreate.write_db(top, "Subway", commands)


def emogi_db(top):
    """Its Makefile's default target: nine programs, each one unit compiled and linked by one
    line 'nvcc -O3 -gencode arch=compute_61,code=sm_61 -gencode arch=compute_70,code=sm_70 -o
    NAME NAME.cu', from 'make -n -B'."""
    src = os.path.join(top, "srcs", "EMOGI")
    recreate.write_db(top, "EMOGI", make_entries(src))


def main(argv):
    return recreate.command_line(argv, __doc__, sources, [jacobi_db, subway_db, emogi_db])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
