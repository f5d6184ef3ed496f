"""recreate_h18.py: the sources and compile databases of study-projects.txt's "held-out-18" rows,
made again as docs/studies/lint-realworld.md describes them ("Held-out projects, eighteenth
sample").

Usage: python3 bench/lint-real/recreate_h18.py GIT_ROOT TOP [STEP...]

GIT_ROOT/OWNER/NAME is a git folder (a bare clone will do) of ankan-ban/llama2.cu,
olearczuk/gpu-louvain and archembaud/GAGPU. TOP receives srcs/ (study.sh's SRC_ROOT) and dbs/
(its DB_ROOT). STEP: sources, dbs (default: both). Needs git, make and the CUDA toolkit at
/usr/local/cuda; builds nothing.
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import recreate  # noqa: E402  (checkout, write_db, entry, command_line, NVCC)
import recreate_h17  # noqa: E402  (sources, make_rows)

SOURCES = [
    ("llama2.cu", "ankan-ban/llama2.cu", "cb0c6fa08386f398b5ed48a0cbb30d9ba8f42e70"),
    ("gpu-louvain", "olearczuk/gpu-louvain", "f2e89ccd4214f1e275342bdb630187e9a22e4c06"),
    ("GAGPU", "archembaud/GAGPU", "4d44f4efb89d788fb9cf2abe1cae4e5c897cfd07"),
]
# The compilers the Makefiles name, as lint is to see them: nvcc as the toolkit's, g++ as itself.
COMPILERS = {"nvcc": recreate.NVCC, "g++": "g++"}


def sources(git_root, top):
    recreate_h17.sources(git_root, top, SOURCES)


def llama2_db(top):
    """One unit, llama2.cu. The repository has no build line for it (its Makefile and README are
    those of the plain C program run.c): the one nvcc line 'nvcc -O3 -c llama2.cu', in its
    folder. run.c and win.c (the C original) left out."""
    src = os.path.join(top, "srcs", "llama2.cu")
    path = os.path.join(src, "llama2.cu")
    recreate.write_db(top, "llama2.cu", [recreate.entry(src, path, [recreate.NVCC, "-O3"])])


def louvain_db(top):
    """Its Makefile (an NVIDIA sample's template, CUDA_PATH and SMS as it sets them): the nvcc -c
    lines of 'make -n -B' for its four units (gpulouvain.cu, utils.cu, modularity_optimisation.cu,
    community_aggregation.cu)."""
    recreate_h17.make_rows(top, "gpu-louvain", compilers=COMPILERS)


def gagpu_db(top):
    """Its Makefile: two units, 'nvcc gpu_main.cu -c' and 'g++ cpu_main.cpp -c' (the lines of
    'make -n -B')."""
    recreate_h17.make_rows(top, "GAGPU", compilers=COMPILERS)


def main(argv):
    return recreate.command_line(argv, __doc__, sources, [llama2_db, louvain_db, gagpu_db])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
