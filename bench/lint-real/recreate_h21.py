"""recreate_h21.py: the sources and compile databases of study-projects.txt's "held-out-21" rows,
made again as docs/studies/lint-realworld.md describes them ("Held-out projects, twenty-first
sample").

Usage: python3 bench/lint-real/recreate_h21.py GIT_ROOT TOP [STEP...]

GIT_ROOT/OWNER/NAME is a git folder (a bare clone will do) of treecode/Bonsai, CESNET/GPUJPEG,
fixstars/cuda-bundle-adjustment and eigenteam/eigen-git-mirror (the bundle adjustment's headers
include Eigen's). TOP receives srcs/ (study.sh's SRC_ROOT), dbs/ (its DB_ROOT), deps/ (Eigen) and
build/ (the CMake configures). STEP: sources, dbs (default: both). Needs git, cmake (3.25) and
the CUDA toolkit at /usr/local/cuda; builds nothing.
"""
import glob
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import recreate  # noqa: E402  (checkout, write_db, load, run, command_line, NVCC)
import recreate_h17  # noqa: E402  (sources)

SOURCES = [
    ("Bonsai", "treecode/Bonsai", "581fa8e70501ce85660c7eac0d61c0e5c5bece4a"),
    ("GPUJPEG", "CESNET/GPUJPEG", "165477b9e736807d13fd6ad5ad7a3f42baae0e16"),
    ("cuda-bundle-adjustment", "fixstars/cuda-bundle-adjustment",
     "4390e13ea18135fa4889f2797407520c42c2123b"),
]
# Eigen's headers for the bundle adjustment (its CMake file asks find_package(Eigen3) and its
# host units include Eigen/Core): the whole tree, configured only, so that its build folder
# gives Eigen3_DIR; nothing of it is built.
DEPS = [("eigen", "eigenteam/eigen-git-mirror", "36b95962756c1fce8e29b1f8bc45967f30773c00", [])]


def sources(git_root, top):
    recreate_h17.sources(git_root, top, SOURCES)
    for folder, repo, commit, paths in DEPS:
        recreate.checkout(os.path.join(git_root, repo), commit, os.path.join(top, "deps", folder),
                          paths)


def configure(src, build, *options):
    recreate.run(["cmake", "-S", src, "-B", build, "-G", "Ninja",
                  "-DCMAKE_EXPORT_COMPILE_COMMANDS=ON", *options], stdout=subprocess.DEVNULL)


def findcuda_entry(script):
    """The nvcc line that FindCUDA's generated script (CMakeFiles/TARGET.dir/..._generated_UNIT.o
    .cmake) runs for its unit: 'nvcc SOURCE -c -m64' with the host flags given through
    -Xcompiler, CUDA_NVCC_FLAGS, -DNVCC, the include folders and the definitions, as the script
    sets them (its -o and -ccbin operands left out, as recreate.entry writes its own)."""
    text = open(script).read()

    def value(name):
        m = re.search(r"^set\(" + name + r" (.*?)\)( #.*)?$", text, re.M)
        v = m.group(1).strip()
        return v[4:-4] if v.startswith("[==[") else v

    source = value("source_file").strip('"')
    flags = [f.strip().replace('"', "") for f in value("CUDA_NVCC_FLAGS").split(";") if f.strip()]
    host = value("CMAKE_HOST_FLAGS").split()
    includes = ["-I" + d for d in value("CUDA_NVCC_INCLUDE_DIRS").split(";") if d]
    defines = ["-D" + d for d in value("CUDA_NVCC_COMPILE_DEFINITIONS").split(";") if d]
    args = [recreate.NVCC, *value("nvcc_flags").split(), *["-Xcompiler=" + h for h in host],
            *flags, "-DNVCC", *includes, *defines]
    return recreate.entry(os.path.dirname(script), source, args)


def bonsai_db(top):
    """runtime/CMakeLists.txt configured with USE_MPI=OFF (USE_OPENGL off, USE_CUB on and
    COMPILE_SM35 on, its defaults), FindCUDA at /usr/local/cuda: the program bonsai2_slowdust's
    13 C++ units as CMake writes them (c++ -std=c++14 -fopenmp ...; the library bonsai_amuse
    compiles the same files but main.cpp, left out as duplicates), and its 9 .cu units, which
    FindCUDA compiles by custom commands that compile_commands.json does not list: their nvcc
    lines read from the scripts FindCUDA generates (findcuda_entry)."""
    src = os.path.join(top, "srcs", "Bonsai", "runtime")
    build = os.path.join(top, "build", "Bonsai")
    configure(src, build, "-DUSE_MPI=OFF", "-DCUDA_TOOLKIT_ROOT_DIR=/usr/local/cuda")
    target = os.path.join("CMakeFiles", "bonsai2_slowdust.dir", "")
    host = [e for e in recreate.load(build) if target in e["command"]]
    scripts = sorted(glob.glob(os.path.join(build, target, "CUDAkernels", "*.cu.o.cmake")))
    recreate.write_db(top, "Bonsai", host + [findcuda_entry(s) for s in scripts])


def gpujpeg_db(top):
    """Its CMakeLists.txt configured with BUILD_OPENGL=OFF and CMAKE_CUDA_ARCHITECTURES 90: the
    library's 13 C units and 5 .cu units and the program's src/main.c (the gpujpeg tool), as
    CMake writes them (cc -std=gnu11, nvcc); the examples and tests are not in the default
    build."""
    src, build = os.path.join(top, "srcs", "GPUJPEG"), os.path.join(top, "build", "GPUJPEG")
    configure(src, build, "-DCMAKE_CUDA_COMPILER=" + recreate.NVCC,
              "-DCMAKE_CUDA_ARCHITECTURES=90", "-DBUILD_OPENGL=OFF")
    recreate.write_db(top, "GPUJPEG", recreate.load(build))


def cba_db(top):
    """Its CMakeLists.txt configured with ENABLE_SAMPLES=OFF and CUDA_ARCHS 90, Eigen found by
    Eigen's own cmake/FindEigen3.cmake at deps/eigen (CMAKE_MODULE_PATH, EIGEN3_INCLUDE_DIR):
    the library's three C++ units and one .cu unit as CMake writes them. The samples need
    OpenCV or g2o, not installed here."""
    src = os.path.join(top, "srcs", "cuda-bundle-adjustment")
    build = os.path.join(top, "build", "cuda-bundle-adjustment")
    eigen = os.path.join(top, "deps", "eigen")
    configure(src, build, "-DCMAKE_CUDA_COMPILER=" + recreate.NVCC, "-DCUDA_ARCHS=90",
              "-DENABLE_SAMPLES=OFF", "-DCMAKE_MODULE_PATH=" + os.path.join(eigen, "cmake"),
              "-DEIGEN3_INCLUDE_DIR=" + eigen)
    recreate.write_db(top, "cuda-bundle-adjustment", recreate.load(build))


def main(argv):
    return recreate.command_line(argv, __doc__, sources, [bonsai_db, gpujpeg_db, cba_db])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
