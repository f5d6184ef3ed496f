"""recreate_h24.py: the sources and compile databases of study-projects.txt's "held-out-24" rows,
made again as docs/studies/lint-realworld.md describes them ("Held-out projects, twenty-fourth
sample").

Usage: python3 bench/lint-real/recreate_h24.py GIT_ROOT TOP [STEP...]

GIT_ROOT/OWNER/NAME is a git folder (a bare clone will do) of KTH-HPC/sputniPIC, KCL-BMEIS/niftyreg,
TUM-I5/SWE and TUM-I5/swe_solvers (SWE's submodule submodules/swe_solvers, at the commit SWE's tree
names). TOP receives srcs/ (study.sh's SRC_ROOT), dbs/ (its DB_ROOT) and build/ (the CMake
configures of NiftyReg and SWE). STEP: sources, dbs (default: both). Needs git, make, cmake
(3.25), ninja and the CUDA toolkit at /usr/local/cuda; builds nothing.
"""
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import recreate  # noqa: E402  (write_db, load, run, command_line, NVCC)
import recreate_h17  # noqa: E402  (sources, make_rows)

SOURCES = [
    # the last commit before MPI came in (4b156cf, "Very crude version of cuda+MPI"); main's
    # head needs MPI and HDF5, neither installed here
    ("sputniPIC", "KTH-HPC/sputniPIC", "88890660cd3049fa83df8cd99c1dea276d7f17c3"),
    ("niftyreg", "KCL-BMEIS/niftyreg", "d518b8ac9b1d4572de95daf5a31d34c2f75a590a"),
    # master's last commit of the old layout, whose CMake build has the CUDA blocks (930c7e6
    # moved the folders, 8ac93ad removed the CUDA blocks)
    ("SWE", "TUM-I5/SWE", "ca52aefca1f51cd71d4bdd24ae1d93f2f6a7958a"),
    # SWE's submodule (src/solvers is a link to ../submodules/swe_solvers/src/solver/)
    ("SWE/submodules/swe_solvers", "TUM-I5/swe_solvers",
     "3b1efeffc1df4d92cd16b9fc3fc7902a9361f571"),
]


def sources(git_root, top):
    recreate_h17.sources(git_root, top, SOURCES)
    # NiftyReg's CMakeLists.txt takes its version from git in its source folder (describe --tags,
    # rev-list TAG..HEAD --count, rev-parse --short HEAD), and the checkout has no .git: a git for
    # its configure that answers from the clone at the commit taken (2.0.0+7.d518b8ac).
    _, repo, commit = SOURCES[1]
    script = os.path.join(top, "build", "niftyreg-git.sh")
    os.makedirs(os.path.dirname(script), exist_ok=True)
    with open(script, "w") as f:
        f.write("#!/bin/sh\n"
                f"# git as NiftyReg's configure asks it, HEAD being {commit}\n"
                f"git=\"git --git-dir {os.path.abspath(os.path.join(git_root, repo))}\"\n"
                f"case $1 in describe) exec $git \"$@\" {commit} ;; esac\n"
                "args=$(printf '%s\\n' \"$@\" | sed 's/HEAD$/" + commit + "/')\n"
                "exec $git $args\n")
    os.chmod(script, 0o755)


def configure(top, name, options):
    """NAME's CMake configure in TOP/build/NAME (Ninja, the compile database written, nvcc the
    toolkit's), with OPTIONS; returns the build folder."""
    build = os.path.join(top, "build", name)
    recreate.run(["cmake", "-S", os.path.join(top, "srcs", name), "-B", build, "-G", "Ninja",
                  "-DCMAKE_EXPORT_COMPILE_COMMANDS=ON", "-DCMAKE_CUDA_COMPILER=" + recreate.NVCC,
                  *options], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return build


def sputnipic_db(top):
    """Its Makefile with VERSION=GPU (the Makefile's GPU build: nvcc for every unit, the .cu units
    with NVCCFLAGS by the GPU rule and the .cpp units with the same flags by the host rule;
    sputniPIC_CPU.cpp left out by the Makefile itself): the compile lines of make -n -B, sorted by
    unit (the Makefile lists its units with 'find', in the order of the folder)."""
    recreate_h17.make_rows(top, "sputniPIC", ["VERSION=GPU"], {"nvcc": recreate.NVCC})
    path = os.path.join(top, "dbs", "sputniPIC")
    commands = sorted(recreate.load(path), key=lambda c: c["file"])
    recreate.write_db(top, "sputniPIC", commands)


def niftyreg_db(top):
    """Its CMakeLists.txt configured with USE_CUDA=ON, CHECK_GPU=OFF (no GPU here: the CUDA
    platform kept, for its listed architectures) and CMAKE_BUILD_TYPE=Release (OpenMP on, no
    OpenCL, no tests: its defaults): the library and programs' units as CMake writes them."""
    git = os.path.join(top, "build", "niftyreg-git.sh")  # written by sources()
    build = configure(top, "niftyreg", ["-DUSE_CUDA=ON", "-DCHECK_GPU=OFF",
                                        "-DCMAKE_BUILD_TYPE=Release", "-DGIT_EXECUTABLE=" + git])
    recreate.write_db(top, "niftyreg", recreate.load(build))


def swe_db(top):
    """Its CMakeLists.txt configured with ENABLE_CUDA=ON, SOLVER=augRie (its default; the CUDA
    wave-propagation block), CMAKE_CUDA_ARCHITECTURES=90 and CMAKE_BUILD_TYPE=Release; no MPI and
    no NetCDF here (so no swe-mpi program, and the VTK writer): the library swe's and the program
    swe-single-node's units as CMake writes them. Its CMakeLists.txt sets a property of the target swe-mpi, which
    it makes only where MPI is found, without a test, so that the configure stops without MPI:
    that one line put under 'if (TARGET swe-mpi)' first (it sets the C++ standard of the program
    not built here)."""
    path = os.path.join(top, "srcs", "SWE", "CMakeLists.txt")
    line = "set_property(TARGET swe-mpi PROPERTY CXX_STANDARD 11)\n"
    with open(path) as f:
        text = f.read()
    if text.count(line) == 1:
        text = text.replace(line, "if (TARGET swe-mpi)\n    " + line + "endif()\n")
        with open(path, "w") as f:
            f.write(text)
    build = configure(top, "SWE", ["-DENABLE_CUDA=ON", "-DSOLVER=augRie",
                                   "-DCMAKE_CUDA_ARCHITECTURES=90", "-DCMAKE_BUILD_TYPE=Release"])
    recreate.write_db(top, "SWE", recreate.load(build))


def main(argv):
    return recreate.command_line(argv, __doc__, sources, [sputnipic_db, niftyreg_db, swe_db])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
