"""recreate_h17.py: the sources and compile databases of study-projects.txt's "held-out-17" rows,
made again as docs/studies/lint-realworld.md describes them ("Held-out projects, seventeenth
sample").

Usage: python3 bench/lint-real/recreate_h17.py GIT_ROOT TOP [STEP...]

GIT_ROOT/OWNER/NAME is a git folder (a bare clone will do) of cuMF/cumf_als, UK-MAC/TeaLeaf_CUDA
and iHeartGraph/Enterprise. TOP receives srcs/ (study.sh's SRC_ROOT) and dbs/ (its DB_ROOT).
STEP: sources, dbs (default: both). Needs git, make and the CUDA toolkit at /usr/local/cuda;
builds nothing.
"""
import os
import shlex
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import recreate  # noqa: E402  (checkout, write_db, command_line, NVCC)
import recreate_h16  # noqa: E402  (rows)

SOURCES = [
    ("cumf_als", "cuMF/cumf_als", "a5d918af51ffed47361bc65364a4139982990989"),
    ("TeaLeaf_CUDA", "UK-MAC/TeaLeaf_CUDA", "2ac2460fbef66513fafb3ffa58082f5512555553"),
    ("Enterprise", "iHeartGraph/Enterprise", "426846f6ac9b8c2ed94c164b83d3a8543666a809"),
]
# The compilers the Makefiles name, as lint is to see them: nvcc as the toolkit's; TeaLeaf's MPI
# C wrapper as the plain C compiler it wraps (no MPI is installed here; timer_c.c uses none).
COMPILERS = {"nvcc": recreate.NVCC, "mpicc": "cc"}


def sources(git_root, top, table=None):
    """Each (FOLDER, OWNER/NAME, COMMIT) of TABLE (default SOURCES) checked out in TOP/srcs."""
    for folder, repo, commit in table or SOURCES:
        recreate.checkout(os.path.join(git_root, repo), commit, os.path.join(top, "srcs", folder))


def compiler(word, compilers=None):
    return (compilers or COMPILERS).get(os.path.basename(word))


def make_rows(top, folder, variables=(), compilers=None):
    """The compile lines of 'make -n -B [VARIABLES]' in the project's folder: each line whose
    first word is a compiler of COMPILERS (or of the map given) and that has '-c', that compiler
    as the map names it, then recreate_h16.rows' entries (one per source file it names)."""
    src = os.path.join(top, "srcs", folder)
    out = subprocess.run(["make", "-n", "-B", "-C", src, *variables], check=True,
                         capture_output=True, text=True).stdout
    commands = []
    for line in out.splitlines():
        if not line.split() or not compiler(line.split()[0].strip('"'), compilers):
            continue  # not a compile line (the Fortran lines, the link line's continuations)
        words = shlex.split(line)
        if "-c" in words:
            commands += recreate_h16.rows(src, [compiler(words[0], compilers)] + words[1:])
    recreate.write_db(top, folder, commands)


def cumf_als_db(top):
    """Its Makefile's default target (main: host_utilities.cpp, device_utilities.cu, cg.cu, als.cu
    and main.cpp, each with nvcc, SMS 35 as it sets it). hugewiki/ (another program, its own
    Makefile) and tensorflow/ (an op built against TensorFlow) left out."""
    make_rows(top, "cumf_als")


def tealeaf_db(top):
    """Its Makefile with CUDA_HOME=/usr/local/cuda, NV_ARCH and COMPILER unset (its defaults):
    the nvcc lines of its ten .cu units (-ccbin mpicxx as it writes them) and timer_c.c's mpicc
    line; its Fortran units are not for lint."""
    make_rows(top, "TeaLeaf_CUDA", ["CUDA_HOME=/usr/local/cuda"])


def enterprise_db(top):
    """Its Makefile: one unit, main.cu (nvcc -arch=sm_35 -O3 ... -Xcompiler -fopenmp).
    tuple_text_to_binary_csr/ (a plain C++ converter, its own Makefile) left out."""
    make_rows(top, "Enterprise")


def main(argv):
    return recreate.command_line(argv, __doc__, sources, [cumf_als_db, tealeaf_db, enterprise_db])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
