"""recreate_h8.py: the sources and compile databases of study-projects.txt's "held-out-8" rows,
made again as docs/studies/lint-realworld.md describes them ("Held-out projects, eighth
sample").

Usage: python3 bench/lint-real/recreate_h8.py GIT_ROOT TOP [STEP...]

GIT_ROOT/OWNER/NAME is a git folder (a bare clone will do) of alicevision/popsift,
nest/nest-gpu and src-d/kmcuda. TOP receives srcs/ (study.sh's SRC_ROOT), dbs/ (its DB_ROOT)
and build/ (the CMake configures). STEP: sources, dbs (default: both). Needs git, cmake (3.25),
ninja and the CUDA toolkit at /usr/local/cuda; builds nothing.
"""
import glob
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import recreate  # noqa: E402  (checkout, run, write_db, load, entry)

NVCC = recreate.NVCC
SOURCES = [
    ("popsift", "alicevision/popsift", "4b4b2478d5f0cdb6c4215a031572e951c0c2502e"),
    ("nest-gpu", "nest/nest-gpu", "d3be46f99a542606571449966aae1985c7efac58"),
    ("kmcuda", "src-d/kmcuda", "7dcd28c49a6c76bb9c5e1b19c23976a1f76e1b3b"),
]


def sources(git_root, top):
    for folder, repo, commit in SOURCES:
        recreate.checkout(os.path.join(git_root, repo), commit, os.path.join(top, "srcs", folder))


def configure(src, build, options):
    recreate.run(["cmake", "-S", src, "-B", build, "-G", "Ninja", "-DCMAKE_BUILD_TYPE=Release",
                  "-DCMAKE_EXPORT_COMPILE_COMMANDS=ON", "-DCUDA_TOOLKIT_ROOT_DIR=/usr/local/cuda",
                  *options], stdout=subprocess.DEVNULL)


def cmake_list(text, name):
    """The words of FindCUDA's generated `set(NAME ...)` line (a list or a bracket string)."""
    found = re.search(r"^set\(" + name + r" (.*?)\)(?: #.*)?$", text, re.M)
    if not found:
        return []
    value = found.group(1).strip()
    if value.startswith("[==["):
        value = value[4:value.rindex("]==]")]
    return [w for w in re.split(r"[;\s]+", value) if w]


def findcuda_rows(build):
    """nvcc rows for FindCUDA's .cu rules, from its generated *.cu.o.Release.cmake scripts."""
    commands = []
    for script in sorted(glob.glob(f"{build}/**/*.cu.o.Release.cmake", recursive=True)):
        text = open(script).read()
        path = re.search(r'set\(source_file "([^"]+)"\)', text).group(1)
        args = [NVCC]
        args += cmake_list(text, "CUDA_NVCC_FLAGS") + cmake_list(text, "CUDA_NVCC_FLAGS_RELEASE")
        args += cmake_list(text, "nvcc_flags")
        args += ["-D" + d for d in cmake_list(text, "CUDA_NVCC_COMPILE_DEFINITIONS")]
        host = cmake_list(text, "CMAKE_HOST_FLAGS") + cmake_list(text, "CMAKE_HOST_FLAGS_RELEASE")
        if host:
            args += ["-Xcompiler", ",".join(host)]
        args += ["-I" + i for i in dict.fromkeys(cmake_list(text, "CUDA_NVCC_INCLUDE_DIRS"))]
        directory = os.path.dirname(os.path.dirname(os.path.dirname(script)))
        commands.append(recreate.entry(directory, path, args))
    return commands


def popsift_db(top):
    """The library only (its applications want Boost, not on the machine); FindCUDA rows."""
    src, build = os.path.join(top, "srcs", "popsift"), os.path.join(top, "build", "popsift")
    configure(src, build, ["-DPopSift_CUDA_CC_LIST=90", "-DPopSift_BUILD_EXAMPLES=OFF"])
    recreate.write_db(top, "popsift", recreate.load(build) + findcuda_rows(build))


def nest_gpu_db(top):
    """CMake's CUDA language: its own database; without MPI (not on the machine)."""
    src, build = os.path.join(top, "srcs", "nest-gpu"), os.path.join(top, "build", "nest-gpu")
    configure(src, build, ["-Dwith-gpu-arch=90", "-Dwith-mpi=OFF",
                           "-DCMAKE_CUDA_COMPILER=" + NVCC,
                           "-DCMAKE_INSTALL_PREFIX=" + os.path.join(top, "build", "nest-install")])
    recreate.write_db(top, "nest-gpu", recreate.load(build))


def kmcuda_db(top):
    """The library without its Python and R bindings; FindCUDA rows."""
    src, build = os.path.join(top, "srcs", "kmcuda", "src"), os.path.join(top, "build", "kmcuda")
    configure(src, build, ["-DCUDA_ARCH=90", "-DDISABLE_PYTHON=ON", "-DDISABLE_R=ON"])
    recreate.write_db(top, "kmcuda", recreate.load(build) + findcuda_rows(build))


def main(argv):
    return recreate.command_line(argv, __doc__, sources, [popsift_db, nest_gpu_db, kmcuda_db])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
