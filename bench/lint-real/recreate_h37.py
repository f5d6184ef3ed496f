"""recreate_h37.py: the sources and compile databases of study-projects.txt's "held-out-37" rows,
made again as docs/studies/lint-realworld.md describes them ("Held-out-37").

Usage: python3 bench/lint-real/recreate_h37.py GIT_ROOT TOP [STEP...]

GIT_ROOT/OWNER/NAME is a git folder (a bare clone will do) of e-ago/bitcracker and LLNL/Kripke,
and of Kripke's submodules LLNL/blt and LLNL/RAJA and RAJA's submodule LLNL/camp. TOP receives
srcs/ (study.sh's SRC_ROOT), dbs/ (its DB_ROOT) and build/ (Kripke's CMake configure). STEP:
sources, dbs (default: both). Needs git, make, CMake 3.25, ninja and the CUDA toolkit at
/usr/local/cuda; builds nothing, downloads nothing. bitcracker's test images (Images/, five
disk images the clone lacks) are left out and named on standard error.
"""
import os
import shlex
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import recreate  # noqa: E402  (write_db, load, command_line, NVCC)
import recreate_h16  # noqa: E402  (rows)
import recreate_h17  # noqa: E402  (sources)
from recreate_h32 import configure, first_of_each  # noqa: E402

SOURCES = [
    # Skipped before bitcracker, in the order of the draw: ECP-copa/ExaMiniMD and ECP-copa/Cabana
    # (Kokkos, not installed), LLNL/lbann (Clara, cereal, Hydrogen, not installed),
    # OpenKinect/libfreenect2 (libusb-1.0, not installed), voutcn/megahit (no CUDA unit at its
    # head), NVIDIA-Omniverse/PhysX (its generate_projects.sh downloads packman and its
    # packages), mp3guy/ElasticFusion (Pangolin and OpenNI2 built first; SuiteSparse, not
    # installed), apache/tvm (CMAKE_CUDA_STANDARD 20, which CMake 3.25.1 cannot ask of nvcc)
    ("bitcracker", "e-ago/bitcracker", "4257899212421bbdf4899f8c1b154edebde872f8"),
    # its submodules tpl/chai, tpl/umpire (read only with ENABLE_CHAI, off by default),
    # tpl/caliper (ENABLE_CALIPER, off), tpl/googletest (not read) and
    # scripts/radiuss-spack-configs (Spack's set-up) left out; of RAJA's, tpl/cub (RAJA takes the
    # toolkit's CUB with CUDA 11 and later), tpl/desul (RAJA_ENABLE_DESUL_ATOMICS, off),
    # tpl/rocPRIM (HIP), its own blt (not read: Kripke loads BLT first) and scripts/ left out;
    # camp's extern/blt (read only when camp is built alone) left out
    ("Kripke", "LLNL/Kripke", "ddcac43cdad999f0346eb682065ef0af1847029d"),
    ("Kripke/blt", "LLNL/blt", "5a792c1775e7a7628d84dcde31652a689f1df7b5"),
    ("Kripke/tpl/raja", "LLNL/RAJA", "9b5f61edf3aa1e6fdbc9a4b30828c81504639963"),
    ("Kripke/tpl/raja/tpl/camp", "LLNL/camp", "ac34c25b722a06b138bc045d38bfa5e8fa3ec9c5"),
]


def sources(git_root, top):
    recreate_h17.sources(git_root, top, SOURCES)


def bitcracker_db(top):
    """Its build.sh's CUDA step, 'make' in src_CUDA/ (its Makefile's one target: a single nvcc
    line, -gencode for 70 and 80, -Xptxas -v, that compiles and links main.cu, cuda_attack.cu,
    utils.cu and w_blocks.cu): from 'make -n -B', one entry per unit, the line's other words
    (recreate_h16.rows), run in src_CUDA/: all 4. Its hash extractor, password generator (C, no
    CUDA) and OpenCL version are other Makefiles: left out."""
    folder = os.path.join(top, "srcs", "bitcracker", "src_CUDA")
    out = subprocess.run(["make", "-n", "-B", "-C", folder], check=True, capture_output=True,
                         text=True).stdout
    rows = []
    for line in out.splitlines():
        words = shlex.split(line)
        if words and words[0] == "nvcc":
            rows += recreate_h16.rows(folder, words)
    recreate.write_db(top, "bitcracker", first_of_each(rows))


def kripke_db(top):
    """Its README's build, a CMake configure (Release, Ninja, nvcc 13) with BLT's ENABLE_CUDA=ON
    (off by default) and CUB_DIR, the variable RAJA's FindCUB reads, set to the toolkit's CCCL
    folder (RAJA takes 'external' CUB with CUDA 11 and later and looks for cub/cub.cuh in
    CUB_DIR or the toolkit's include/, where CUDA 13 no longer puts it); CMAKE_CUDA_ARCHITECTURES
    as BLT defaults it (75); its other options as they default (C++14, no MPI, OpenMP, CHAI or
    Caliper; RAJA's exercises on, its own default: Kripke turns off ENABLE_EXERCISES, a name
    RAJA no longer reads). CMake's database, each file once: all 83 units (Kripke 25, RAJA's
    library 7, camp 1, RAJA's exercises 50; all .cpp, 82 compiled by nvcc as CUDA)."""
    src = os.path.join(top, "srcs", "Kripke")
    build = os.path.join(top, "build", "Kripke")
    configure(src, build, ["-DCMAKE_CUDA_COMPILER=" + recreate.NVCC, "-DENABLE_CUDA=ON",
                           "-DCUB_DIR=/usr/local/cuda/include/cccl"])
    recreate.write_db(top, "Kripke", first_of_each(recreate.load(build)))


def main(argv):
    return recreate.command_line(argv, __doc__, sources, [bitcracker_db, kripke_db])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
