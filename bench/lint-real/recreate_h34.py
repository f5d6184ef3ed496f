"""recreate_h34.py: the sources and compile databases of study-projects.txt's "held-out-34" rows,
made again as docs/studies/lint-realworld.md describes them ("Held-out-34").

Usage: python3 bench/lint-real/recreate_h34.py GIT_ROOT TOP [STEP...]

GIT_ROOT/OWNER/NAME is a git folder (a bare clone will do) of hashcat/hashcat, Kitware/VTK-m,
NVIDIA-developer-blog/code-samples and of the latter's submodules harrism/cpp11-range and
NVlabs/cub. TOP receives srcs/ (study.sh's SRC_ROOT), dbs/ (its DB_ROOT) and build/ (the CMake
configures). STEP: sources, dbs (default: both). Needs git, make, CMake 3.25, ninja and the CUDA
toolkit at /usr/local/cuda; builds nothing, downloads nothing.
"""
import os
import shlex
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import recreate  # noqa: E402  (write_db, load, command_line, draw, NVCC)
import recreate_h16  # noqa: E402  (rows, UNITS)
import recreate_h17  # noqa: E402  (sources, compiler)
from recreate_h32 import configure, first_of_each  # noqa: E402

SOURCES = [
    # the blobs the clone lacks (deps/xxHash/tests/sanity_test_vectors.h, a test of xxHash, and
    # include/emu_inc_radmin3_constants.h, read by src/modules/module_29200.c, not drawn)
    ("hashcat", "hashcat/hashcat", "d3983edaf22f5370d1bb136c930460bcad2d9f6e"),
    # rapidsai/cugraph, NVIDIA/nvbench, QMCPACK/qmcpack and cp2k/dbcsr skipped before VTK-m
    ("VTK-m", "Kitware/VTK-m", "2cd5a5e168124787192f4f857e7e7df58793a67a"),
    ("code-samples", "NVIDIA-developer-blog/code-samples",
     "72d62ec464442786a36754508bcb1094d197d6a5"),
    # its submodules: cpp11-range at the commit it pins; cub at the snapshot's newest (the commit
    # it pins, 93696c4, is not in it), in both places that pin it
    ("code-samples/c++11_cuda/cpp11-range", "harrism/cpp11-range",
     "70f844968c5f669ce85f8ce4cbd24a3584c57f4b"),
    ("code-samples/posts/american-options/external/cub", "NVlabs/cub",
     "36c7b552ecd785b1ef25061752d466957fce9e7c"),
    ("code-samples/posts/parallel_reduction_with_shfl/cub", "NVlabs/cub",
     "36c7b552ecd785b1ef25061752d466957fce9e7c"),
]
# units drawn from each very large project (random.Random(34).sample over the sorted paths), as
# MFEM's row drew 60
HASHCAT_DRAW = VTKM_DRAW = 60
# The compilers the Makefiles name, as lint is to see them: nvcc as the toolkit's (whatever
# folder the Makefile names it in), the C and C++ compilers as themselves, the MPI C wrapper as
# the plain C compiler it wraps (no MPI is installed here). pgcc (the OpenACC samples) is not a
# compiler here: its lines are left out.
COMPILERS = {"nvcc": recreate.NVCC, "gcc": "gcc", "g++": "g++", "cc": "cc", "mpicc": "cc"}


def sources(git_root, top):
    recreate_h17.sources(git_root, top, SOURCES)


def make_entries(src, variables=()):
    """The compile lines of 'make -n -B' in SRC, as recreate_h20.make_entries reads them (each
    line whose first word is a compiler of COMPILERS and that names a source file, with or
    without '-c'; a line continued with a backslash read as one), then recreate_h16.rows'
    entries."""
    out = subprocess.run(["make", "-n", "-B", "-C", src, *variables], check=True,
                         capture_output=True, text=True).stdout
    commands = []
    for line in out.replace("\\\n", " ").splitlines():
        words = shlex.split(line)
        if not words or not recreate_h17.compiler(words[0], COMPILERS):
            continue  # make's own lines, ar, the link lines, pgcc
        if any(w.endswith(recreate_h16.UNITS) for w in words):
            commands += recreate_h16.rows(src, [recreate_h17.compiler(words[0], COMPILERS)]
                                          + words[1:])
    return commands


def hashcat_db(top):
    """Its Makefile's default target (hashcat itself, its modules and bridges) on Linux: the
    compile lines of 'make -n -B' in its folder (gcc for src/*.c, the emulated kernels and the
    bundled LZMA, zlib, xxHash and yescrypt; g++ for unrar; each module and bridge compiled and
    linked in one gcc line). Its CUDA host code (src/backend.c, src/ext_cuda.c) calls the driver
    API through the function pointers it loads at run time; its kernels (OpenCL/*.cl) are
    compiled at run time, not by the build. 731 units, each file once; over this study's ~150,
    so HASHCAT_DRAW of them, random.Random(34).sample over the sorted paths (recreate.draw)."""
    src = os.path.join(top, "srcs", "hashcat")
    rows = first_of_each(make_entries(src))
    recreate.write_db(top, "hashcat", recreate.draw(rows, "^" + src + "/", 34, HASHCAT_DRAW))


def vtkm_db(top):
    """Its CMake configure (Release, Ninja, nvcc 13) with its own VTKm_ENABLE_CUDA=ON and
    CMAKE_CUDA_ARCHITECTURES=90 (its VTKm_CUDA_Architecture defaults to 'native', which asks the
    GPU and stops the configure, "Error detecting architecture flags for CUDA. Please set
    VTKm_CUDA_Architecture manually"; its own message recommends CMAKE_CUDA_ARCHITECTURES
    instead); its other options as they default (MPI, examples and benchmarks off; testing off,
    its default where the source folder is not a git checkout: VTKm_ENABLE_TESTING defaults to
    on only when .git exists).
    CMake's database, 383 units; the 79 instantiation units the configure generates into the
    build folder left out; over this study's ~150, so VTKM_DRAW of the 304 in the source tree,
    random.Random(34).sample over the sorted paths (recreate.draw)."""
    src = os.path.join(top, "srcs", "VTK-m")
    build = os.path.join(top, "build", "VTK-m")
    configure(src, build, ["-DCMAKE_CUDA_COMPILER=" + recreate.NVCC, "-DVTKm_ENABLE_CUDA=ON",
                           "-DCMAKE_CUDA_ARCHITECTURES=90"])
    recreate.write_db(top, "VTK-m", recreate.draw(recreate.load(build), "^" + src + "/", 34,
                                                  VTKM_DRAW))


def build_folders(src, skip):
    """The folders under SRC (relative, sorted) with a Makefile, makefile or CMakeLists.txt, but
    for those under SKIP (the submodules' folders)."""
    found = []
    for folder, dirs, files in os.walk(src):
        dirs.sort()
        rel = os.path.relpath(folder, src)
        if any(rel == s or rel.startswith(s + "/") for s in skip):
            continue
        if {"Makefile", "makefile", "CMakeLists.txt"} & set(files):
            found.append(rel)
    return sorted(found)


def code_samples_db(top):
    """No top-level build: each folder with a build file, one sample (a blog post's code) or a
    few. 22 Makefiles: the compile lines of 'make -n -B' in the folder (its default target;
    make_entries), each compiler as COMPILERS names it; the OpenACC samples' pgcc lines
    (002-openacc-example, openacc-unified-memory-jacobi) left out, and egl_OpenGl_without_Xserver's
    tinyegl.cc (EGL, no CUDA; not a unit of recreate_h16.UNITS). One CMake project,
    printf-alternative: its configure (Release, Ninja, nvcc 13, no option; the architectures it
    names). series/ (the CUDA C++ and Fortran posts) and posts/grcuda have no build file: left
    out. All units, each file once."""
    src = os.path.join(top, "srcs", "code-samples")
    submodules = [folder[len("code-samples/"):] for folder, _, _ in SOURCES
                  if folder.startswith("code-samples/")]
    rows = []
    for folder in build_folders(src, submodules):
        here = os.path.join(src, folder)
        if os.path.exists(os.path.join(here, "CMakeLists.txt")):
            build = os.path.join(top, "build", "code-samples", folder)
            configure(here, build, ["-DCMAKE_CUDA_COMPILER=" + recreate.NVCC])
            rows += recreate.load(build)
        else:
            rows += make_entries(here)
    recreate.write_db(top, "code-samples", first_of_each(rows))


def main(argv):
    return recreate.command_line(argv, __doc__, sources, [hashcat_db, vtkm_db, code_samples_db])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
