"""recreate_h23.py: the sources and compile databases of study-projects.txt's "held-out-23" rows,
made again as docs/studies/lint-realworld.md describes them ("Held-out projects, twenty-third
sample").

Usage: python3 bench/lint-real/recreate_h23.py GIT_ROOT TOP [STEP...]

GIT_ROOT/OWNER/NAME is a git folder (a bare clone will do) of GOMC-WSU/GOMC, LLNL/Quicksilver and
UoB-HPC/CloverLeaf. TOP receives srcs/ (study.sh's SRC_ROOT), dbs/ (its DB_ROOT) and build/ (the
CMake configures of GOMC and CloverLeaf). STEP: sources, dbs (default: both). Needs git, make,
cmake (3.25), ninja and the CUDA toolkit at /usr/local/cuda; builds nothing (it runs
Quicksilver's rules for git_hash.hh and git_vers.hh, as its build does).
"""
import os
import shlex
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import recreate  # noqa: E402  (write_db, load, run, command_line, NVCC)
import recreate_h17  # noqa: E402  (sources)

SOURCES = [
    ("GOMC", "GOMC-WSU/GOMC", "785c2ceb6dc402b165906928452e4938b86eef04"),
    ("Quicksilver", "LLNL/Quicksilver", "eb68bb8d6fc53de1f65011d4e79ff2ed0dd60f3b"),
    ("CloverLeaf", "UoB-HPC/CloverLeaf", "ba256dccb033d385c23a4a02983b2d137eebeca4"),
]


def sources(git_root, top):
    recreate_h17.sources(git_root, top, SOURCES)


def configure(top, name, options):
    """NAME's CMake configure in TOP/build/NAME (Ninja, the compile database written, nvcc the
    toolkit's), with OPTIONS; returns the build folder."""
    build = os.path.join(top, "build", name)
    recreate.run(["cmake", "-S", os.path.join(top, "srcs", name), "-B", build, "-G", "Ninja",
                  "-DCMAKE_EXPORT_COMPILE_COMMANDS=ON", "-DCMAKE_CUDA_COMPILER=" + recreate.NVCC,
                  *options], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return build


def gomc_db(top):
    """Its CMakeLists.txt configured (Release, its default; no MPI, its default) with only the
    ensemble GPU_GEMC on (the program GOMC_GPU_GEMC, ENSEMBLE=2: Gibbs-ensemble MC, whose moves
    include the NVT, NPT and GCMC programs' displacement, rotation, volume and swap moves; the
    other programs are the same sources under another ENSEMBLE): its 70 .cpp units and 6 .cu
    units as CMake writes them; the CPU programs and the unit tests (GOMC_GTEST, off) left out."""
    off = ["NVT", "GCMC", "NPT", "GPU_NVT", "GPU_GCMC", "GPU_NPT", "GEMC"]
    build = configure(top, "GOMC", ["-DCMAKE_BUILD_TYPE=Release", "-DENSEMBLE_GPU_GEMC=ON",
                                    *[f"-DENSEMBLE_{e}=OFF" for e in off]])
    recreate.write_db(top, "GOMC", recreate.load(build))


# Quicksilver's Makefile, its CUDA build as its commented "Cuda on LLNL CORAL EA nodes" block
# writes it, without MPI (none here: -DHAVE_MPI -DHAVE_ASYNC_MPI left out of CPPFLAGS) and without
# the block's host compiler (--compiler-bindir=mpixlC, an LLNL path): nvcc compiles every .cc
# unit as CUDA (-x cu -dc).
QUICKSILVER_VARIABLES = [
    "CXX=nvcc",
    "CXXFLAGS=-DHAVE_CUDA -std=c++11 -O2 -Xptxas -v"
    " -gencode=arch=compute_60,code=\"sm_60,compute_60\"",
    "CPPFLAGS=-x cu -dc",
    "LDFLAGS=-L/usr/local/cuda/lib64/ -lcuda -lcudart",
]


def quicksilver_db(top):
    """src/Makefile with the variables above: git_hash.hh and git_vers.hh made by its rules (from
    'git log', empty here: the checkout has no .git), then the compile lines of make -n -B in
    src/ (the program qs: its 40 .cc units), one entry a line."""
    src = os.path.join(top, "srcs", "Quicksilver", "src")
    # The Makefile includes .depend, made by makedepend (not installed here) from a rule that
    # runs make again: with -B that rule would run without end. .depend as the rule's 'touch'
    # leaves it (empty), and '-o .depend' so that make takes it as it is.
    open(os.path.join(src, ".depend"), "w").close()
    subprocess.run(["make", "-o", ".depend", "-C", src, "git_hash.hh", "git_vers.hh"], check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=120)
    out = subprocess.run(["make", "-n", "-B", "-o", ".depend", "-C", src, *QUICKSILVER_VARIABLES],
                         check=True, capture_output=True, text=True, timeout=120).stdout
    commands = []
    for line in out.splitlines():
        words = shlex.split(line)
        if not words or words[0] != "nvcc" or "-c" not in words:
            continue  # the echo lines of git_hash.hh and git_vers.hh, the link line
        # '${CXX} ${CPPFLAGS} ${CXXFLAGS} -c $< -o $@': one unit a line
        unit = words[words.index("-c") + 1]
        cut = words.index("-o")
        args = [recreate.NVCC] + [w for w in words[1:cut] if w not in ("-c", unit)]
        commands.append(recreate.entry(src, os.path.join(src, unit), args))
    recreate.write_db(top, "Quicksilver", commands)


def cloverleaf_db(top):
    """Its CMakeLists.txt configured with MODEL=cuda, CUDA_ARCH=sm_90 and CMAKE_BUILD_TYPE=Release
    (no MPI, its default; device-only allocation, MANAGED_ALLOC off): the program cloverleaf's
    units (driver/*.cpp and src/cuda/*.cpp, all compiled as CUDA) as CMake writes them."""
    build = configure(top, "CloverLeaf", ["-DMODEL=cuda", "-DCUDA_ARCH=sm_90",
                                          "-DCMAKE_BUILD_TYPE=Release"])
    recreate.write_db(top, "CloverLeaf", recreate.load(build))


def main(argv):
    return recreate.command_line(argv, __doc__, sources, [gomc_db, quicksilver_db, cloverleaf_db])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
