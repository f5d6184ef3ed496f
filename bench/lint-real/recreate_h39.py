"""recreate_h39.py: the sources and compile databases of study-projects.txt's "held-out-39" rows,
made again as docs/studies/lint-realworld.md describes them ("Held-out-39").

Usage: python3 bench/lint-real/recreate_h39.py GIT_ROOT TOP [STEP...]

GIT_ROOT/OWNER/NAME is a git folder (a bare clone will do) of gamer-project/gamer and NVlabs/nvbio,
and of nvbio's submodule NVlabs/cub. TOP receives srcs/ (study.sh's SRC_ROOT), dbs/ (its DB_ROOT)
and build/ (nvbio's CMake configure). STEP: sources, dbs (default: both). Needs git, make, Python
3, CMake 3.25, ninja and the CUDA toolkit at /usr/local/cuda; builds nothing, downloads nothing.
GAMER's configure.py writes src/Makefile in its source folder, from a machine file this script
writes there (configs/here_gnu.config: the project's configs/eureka_gnu.config with CUDA_PATH
/usr/local/cuda). Each project is very large (GAMER 295 units, nvbio 183), so 60 of each are
drawn, random.Random(39).sample over the sorted paths (recreate.draw).
"""
import os
import shlex
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import recreate  # noqa: E402  (write_db, load, draw, command_line, NVCC)
import recreate_h16  # noqa: E402  (rows, UNITS)
import recreate_h17  # noqa: E402  (sources)
from recreate_h8 import findcuda_rows  # noqa: E402
from recreate_h32 import configure, first_of_each  # noqa: E402

SOURCES = [
    # The rule's fifteen candidates: fourteen were linted or listed before (study-projects.txt,
    # recreate*.py, held-out-33's to -38's candidates) and the reserve gave two unused ones
    # (NVlabs/nvbio, penn-graphics-research/claymore), so the draw was over three:
    # random.Random(39).shuffle gives gamer, claymore, nvbio.
    ("gamer", "gamer-project/gamer", "8979ef12e91bcdc28d6895b598e54906364abec3"),
    # Skipped between GAMER and nvbio: penn-graphics-research/claymore (its configure downloads
    # CPM.cmake, CMake-Utils/setup_externallibs.cmake:7, then rapidjson, cxxopts, spdlog,
    # range-v3, fmt, glm and filesystem through CPM, :17-:92)
    ("nvbio", "NVlabs/nvbio", "5916f3ea387d7d0b6a2661be87c9129ac623ac56"),
    ("nvbio/contrib/cub", "NVlabs/cub", "c3cceac115c072fb63df1836ff46d8c60d9eb304"),
]
GAMER_DRAW = 60
NVBIO_DRAW = 60
# GAMER's machine file: its configs/eureka_gnu.config (the GNU one it ships; the default machine,
# eureka_intel, names icpc) with CUDA_PATH where the toolkit is here; all else as it stands
# (g++, -O3, OpenMP, GPU_COMPUTE_CAPABILITY 750).
GAMER_MACHINE = "here_gnu"


def sources(git_root, top):
    recreate_h17.sources(git_root, top, SOURCES)


def gamer_db(top):
    """Its documented build: 'python configure.py --machine=MACHINE [options]' in src/, then
    make. Options: its own --gpu=true (off by default), the rest as they default (HYDRO, CTU, PPM,
    no gravity, particles, MPI, HDF5, FFTW or GSL; OpenMP; TIMING). The compile lines of 'make -n
    -B' in src/, run there: nvcc's '-dc' lines of its 36 .cu units and g++'s '-c' lines of its 259
    .cpp units (the checkout has no .git, so the Makefile writes GIT_COMMIT and GIT_BRANCH as
    "N/A"). 295 is over this study's ~150, so GAMER_DRAW of them, random.Random(39).sample over
    the sorted paths (recreate.draw)."""
    src = os.path.join(top, "srcs", "gamer", "src")
    configs = os.path.join(top, "srcs", "gamer", "configs")
    with open(os.path.join(configs, "eureka_gnu.config")) as f:
        lines = f.read().splitlines(keepends=True)
    with open(os.path.join(configs, GAMER_MACHINE + ".config"), "w") as f:
        f.writelines("CUDA_PATH       /usr/local/cuda\n" if line.startswith("CUDA_PATH") else line
                     for line in lines)
    recreate.run([sys.executable, "configure.py", "--machine=" + GAMER_MACHINE, "--gpu=true"],
                 cwd=src, stdout=subprocess.DEVNULL)
    out = subprocess.run(["make", "-n", "-B", "-C", src], check=True, capture_output=True,
                         text=True).stdout
    rows = []
    for line in out.splitlines():
        if not line.split() or os.path.basename(line.split()[0]) not in ("nvcc", "g++"):
            continue  # make's own lines (its shell 'if' over several lines)
        if " -c " not in line and " -dc " not in line:
            continue  # the device-link and link lines (the latter continued with a backslash)
        rows += recreate_h16.rows(src, shlex.split(line))
    recreate.write_db(top, "gamer", recreate.draw(first_of_each(rows), "^" + src + "/", 39,
                                                  GAMER_DRAW))


def nvbio_db(top):
    """Its CMake configure (Release, Ninja; FindCUDA, CUDA_TOOLKIT_ROOT_DIR /usr/local/cuda) with
    GPU_ARCHITECTURE=sm_90 (its default, sm_35, is gone from CUDA 13); its other options as they
    default (OpenMP found; no Doxygen). Its default build: CMake's database of its C and C++
    units, each file once (117 of its 132 rows: contrib's htslib, zlib, lz4, bamtools, moderngpu
    and crc 59; the library and its programs 58), and FindCUDA's rows of its 66 .cu units, from
    the generated *.cu.o.Release.cmake scripts (recreate_h8.findcuda_rows): 183, over this
    study's ~150, so NVBIO_DRAW of them, random.Random(39).sample over the sorted paths
    (recreate.draw)."""
    src = os.path.join(top, "srcs", "nvbio")
    build = os.path.join(top, "build", "nvbio")
    configure(src, build, ["-DCUDA_TOOLKIT_ROOT_DIR=/usr/local/cuda", "-DGPU_ARCHITECTURE=sm_90"])
    rows = first_of_each(recreate.load(build) + findcuda_rows(build))
    recreate.write_db(top, "nvbio", recreate.draw(rows, "^" + src + "/", 39, NVBIO_DRAW))


def main(argv):
    return recreate.command_line(argv, __doc__, sources, [gamer_db, nvbio_db])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
