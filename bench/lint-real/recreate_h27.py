"""recreate_h27.py: the sources and compile databases of study-projects.txt's "held-out-27" rows,
made again as docs/studies/lint-realworld.md describes them ("Held-out-27").

Usage: python3 bench/lint-real/recreate_h27.py GIT_ROOT TOP [STEP...]

GIT_ROOT/OWNER/NAME is a git folder (a bare clone will do) of chenxuhao/gardenia, utcs-scea/altis
and ANL-CESAR/XSBench. TOP receives srcs/ (study.sh's SRC_ROOT), dbs/ (its DB_ROOT) and build/
(the CMake configure of Altis). STEP: sources, dbs (default: both). Needs git, cmake, ninja, make
and the CUDA toolkit at /usr/local/cuda; builds nothing.
"""
import glob
import json
import os
import shlex
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import recreate  # noqa: E402  (write_db, entry, NVCC, command_line, load)
import recreate_h16  # noqa: E402  (rows)
import recreate_h17  # noqa: E402  (sources)
from recreate_h26 import add_rows  # noqa: E402

SOURCES = [
    ("gardenia", "chenxuhao/gardenia", "5894df11cf47f8839945edadff43dc79e260216d"),
    ("altis", "utcs-scea/altis", "042e2926d1fe9a5ea5b3e2d659b75bf925b152cc"),
    ("XSBench", "ANL-CESAR/XSBench", "ba08e5221af6106252b866e50ea123c69d31a4e2"),
]

SM90 = "-gencode arch=compute_90,code=sm_90"


def sources(git_root, top):
    recreate_h17.sources(git_root, top, SOURCES)


def nvcc_lines(folder, goals, variables, compile_only=True):
    """The nvcc lines (with '-c', unless not 'compile_only') of 'make -n -B GOALS VARIABLES' in
    FOLDER, as words; none where make has no rule for the goals."""
    done = subprocess.run(["make", "-n", "-B", "-C", folder, *goals, *variables],
                          capture_output=True, text=True)
    if done.returncode != 0:
        return
    for line in done.stdout.splitlines():
        words = shlex.split(line)
        if words and words[0] == "nvcc" and ("-c" in words or not compile_only):
            yield words


def gardenia_db(top):
    """Each algorithm's Makefile under src/ (with src/common.mk, HOST=X86, its default, and
    CUDA_ARCH set to sm_90: its own list names sm_37, gone from CUDA 13): for each .cu of the
    algorithm's folder, the nvcc line of 'make -n -B NAME.o' (its '%.o: %.cu' rule), run in that
    folder, and the .cu units the default goal's nvcc lines name (compile and link at once, where
    the folder has no such rule), each once; a .cu no rule builds is left out. The host-only units (main.cc, the OpenMP and OpenCL versions) are left out."""
    src = os.path.join(top, "srcs", "gardenia", "src")
    commands, seen = [], set()
    for makefile in sorted(glob.glob(os.path.join(src, "*", "Makefile"))):
        folder = os.path.dirname(makefile)
        units = sorted(os.path.basename(p) for p in glob.glob(os.path.join(folder, "*.cu")))
        for unit in units:
            for words in nvcc_lines(folder, [unit[:-3] + ".o"], ["CUDA_ARCH=" + SM90]):
                add_rows(commands, seen, folder, words)
        # a folder whose Makefile compiles and links at once (mst: 'nvcc ... main.cu -o mst_topo'):
        # its default goal's nvcc line
        for words in nvcc_lines(folder, [], ["CUDA_ARCH=" + SM90], compile_only=False):
            add_rows(commands, seen, folder, words)
    recreate.write_db(top, "gardenia", commands)


def altis_db(top):
    """Its CMake configure (project LANGUAGES CXX CUDA) with CMAKE_CUDA_ARCHITECTURES=90 and
    nvcc 13; CMake's own database, its .cu units, each once (common/main.cu, which every program
    compiles again with the same flags, by its first row, BusSpeedDownload's) (the host .c/.cpp units of the YOLO program's
    darknet copy and of common/ left out)."""
    src, build = os.path.join(top, "srcs", "altis"), os.path.join(top, "build", "altis")
    recreate.run(["cmake", "-S", src, "-B", build, "-G", "Ninja", "-DCMAKE_BUILD_TYPE=Release",
                  "-DCMAKE_EXPORT_COMPILE_COMMANDS=ON", "-DCMAKE_CUDA_COMPILER=" + recreate.NVCC,
                  "-DCMAKE_CUDA_ARCHITECTURES=90", "-Wno-dev"], stdout=subprocess.DEVNULL)
    with open(os.path.join(build, "compile_commands.json")) as f:
        rows, seen = [], set()
        for row in json.load(f):
            if row["file"].endswith(".cu") and row["file"] not in seen:
                seen.add(row["file"])
                rows.append(row)
    recreate.write_db(top, "altis", rows)


def xsbench_db(top):
    """cuda/'s Makefile (COMPILER=nvidia, OPTIMIZE=yes, its defaults) with SM_VERSION=90: the nvcc
    lines of 'make -n -B', run in cuda/."""
    folder = os.path.join(top, "srcs", "XSBench", "cuda")
    commands, seen = [], set()
    for words in nvcc_lines(folder, [], ["SM_VERSION=90"]):
        add_rows(commands, seen, folder, words)
    recreate.write_db(top, "XSBench", commands)


def main(argv):
    return recreate.command_line(argv, __doc__, sources, [gardenia_db, altis_db, xsbench_db])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
