"""recreate_h45.py: the sources and compile databases of study-projects.txt's "held-out-45" rows,
made again as docs/studies/lint-realworld.md describes them ("Held-out-45").

Usage: python3 bench/lint-real/recreate_h45.py GIT_ROOT TOP [STEP...]

GIT_ROOT/OWNER/NAME is a git folder (a bare clone will do) of pavadik/tacuda, NVIDIA/libcudacxx
and sdodlapati3/cuda-lab. TOP receives srcs/ (study.sh's SRC_ROOT), dbs/ (its DB_ROOT) and
build/ (the CMake configures). STEP: sources, dbs (default: both). Needs git, make, CMake 3.25,
ninja and the CUDA toolkit at /usr/local/cuda; builds nothing, downloads nothing. Two are very
large: tacuda's configure names 152 units and cuda-lab's build files (286 CMake projects and 32
Makefiles) compile 383 .cu units, both over this study's ~150, so 60 of each are drawn,
random.Random(42).sample over the sorted paths (recreate.draw); of cuda-lab's CMake projects
only those that hold a drawn unit are configured.
"""
import os
import re
import shlex
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import recreate  # noqa: E402  (write_db, load, draw, command_line, NVCC, run)
import recreate_h16  # noqa: E402  (rows)
import recreate_h17  # noqa: E402  (sources)
from recreate_h32 import first_of_each  # noqa: E402

SOURCES = [
    # Held-out-44 went down bench/lint-real/h44_shuffle.txt (the name search "cuda", 49 kept and
    # shuffled with random.Random(42)) and stopped at its 15th entry. This sample tries entries
    # 16 to 49 in that order. Skipped before tacuda ("no .cu unit": no file ends in .cu and no
    # build file names nvcc or CUDA as a language): sztlink/turboquant-cuda-bench (no snapshot
    # can be brought here), ernestyalumni/HrdwCCppCUDA (its one build that compiles CUDA,
    # Constructicon/LongHaul/Source, downloads GoogleTest at configure, FetchContent_Declare
    # with a URL and FetchContent_MakeAvailable, CMakeLists.txt:142-162, unconditionally; its
    # three other .cu files are named by no build file, LinearMemory_main.cu:28 and
    # Modules_main.cu:30 giving an nvcc line only in a comment), MinhGiang241/app_cudan_demego
    # (no .cu unit; Dart)
    ("tacuda", "pavadik/tacuda", "99cfd79047783caa8c2c9246c08426f13bb85952"),
    # Skipped between tacuda and libcudacxx: dbmdz/cudami (no .cu unit; Java and JavaScript),
    # Barracuda09/SATPI (no .cu unit; C++ with no CUDA use), ecoPrimals/barraCuda (no .cu
    # unit; Rust and WGSL), ucudal/PII_2021_2_Equipo7 (no .cu unit; C#),
    # jiriklepl/fortran-to-cuda and pest88-spec/keycuda (no snapshot), ConnorBaker/cuda-packages
    # (no .cu unit; Nix expressions that package CUDA libraries)
    ("libcudacxx", "NVIDIA/libcudacxx", "e154fae2b80f06e290fcc8389273149700afd509"),
    ("cuda-lab", "sdodlapati3/cuda-lab", "95834b0699df513358dc2f5761f18d3d73bde276"),
]
TACUDA_DRAW = 60
CUDA_LAB_DRAW = 60


def sources(git_root, top):
    recreate_h17.sources(git_root, top, SOURCES)


def cmake(top, src, name, *options):
    build = os.path.join(top, "build", name)
    os.makedirs(build, exist_ok=True)
    recreate.run(["cmake", "-S", src, "-B", build, "-G", "Ninja",
                  "-DCMAKE_EXPORT_COMPILE_COMMANDS=ON", "-Wno-dev",
                  "-DCMAKE_CUDA_COMPILER=" + recreate.NVCC, *options], stdout=subprocess.DEVNULL)
    return first_of_each(recreate.load(build))


def tacuda_db(top):
    """Its CMake configure (Ninja, nvcc 13; no build type; no architectures given, so nvcc's
    default) with BUILD_TESTING=OFF: with it on (CMakeLists.txt:8), the configure would clone
    GoogleTest from GitHub (FetchContent, :183-192) for the tests, host C++ (tests/cpp/*.cpp)
    that calls the library's C API. CMake's database, each file once: the library's 150 .cu
    units (the indicators, ema_common.cu, utils/DeviceBufferPool.cu) and 2 C++ (api.cpp, the
    example's main.cpp): 152, over this study's ~150, so TACUDA_DRAW of them,
    random.Random(42).sample over the sorted paths (recreate.draw)."""
    src = os.path.join(top, "srcs", "tacuda")
    rows = cmake(top, src, "tacuda", "-DBUILD_TESTING=OFF")
    recreate.write_db(top, "tacuda", recreate.draw(rows, "^" + src + "/", 42, TACUDA_DRAW))


def libcudacxx_db(top):
    """Its CUDA programs that a build file of its own compiles without a download: the CMake
    configure of benchmarks/ (its own project, concurrency.cu; GPU_ARCHS 70;72;75;80 as it
    sets them, :7) and of .upstream-tests/utils/nvidia/getsm (its own project, main.cu: the
    device query that writes the current device's SM version for the test scripts). One entry
    per .cu unit: 2; benchmarks/concurrency.cpp, the host build of the same benchmark (g++,
    no CUDA), left out. Left out: examples/ (trie.cu, concurrent_hash_table.cu), whose
    configure downloads ten texts from Project Gutenberg (file(DOWNLOAD ...),
    examples/CMakeLists.txt:12-24); the top configure, which sets up the lit test suite (the
    tests are compiled by lit at test time, not by the build) and stops here, making the C
    compiler the C++ one (CMakeLists.txt:8-11), which CMake's check of g++ as a C compiler
    rejects."""
    src = os.path.join(top, "srcs", "libcudacxx")
    rows = cmake(top, os.path.join(src, "benchmarks"), "libcudacxx-benchmarks")
    rows += cmake(top, os.path.join(src, ".upstream-tests", "utils", "nvidia", "getsm"),
                  "libcudacxx-getsm")
    recreate.write_db(top, "libcudacxx", [r for r in rows if r["file"].endswith(".cu")])


def cuda_lab_units(src):
    """The .cu units its build files compile: each .cu file a CMakeLists.txt names (its
    add_executable and add_library lines; comments skipped), by folder (CMake project), and
    the nvcc lines of 'make -n -B' (default target) in each folder with a Makefile, run
    there."""
    cmake_units, make_rows = {}, []
    for folder, _, files in sorted(os.walk(src)):
        if "CMakeLists.txt" in files:
            with open(os.path.join(folder, "CMakeLists.txt")) as f:
                text = re.sub(r"#[^\n]*", "", f.read())
            for name in re.findall(r"[\w./-]+\.cu\b", text):
                cmake_units[os.path.normpath(os.path.join(folder, name))] = folder
        if "Makefile" in files:
            out = subprocess.run(["make", "-n", "-B", "-C", folder], check=True,
                                 capture_output=True, text=True).stdout
            for line in out.splitlines():
                words = shlex.split(line)
                if words and os.path.basename(words[0]) == "nvcc":
                    make_rows += recreate_h16.rows(folder, words)
    return cmake_units, make_rows


def cuda_lab_db(top):
    """A teaching repository of CUDA programs: 286 stand-alone CMake projects (bootcamp/, each
    day of its weeks a project; CMake 3.18, CXX and CUDA) and 32 Makefiles (practice/,
    profiling-lab/, bootcamp/starters/). The candidates are the .cu units those build files
    compile (cuda_lab_units): 333 named by the CMakeLists and 50 by the Makefiles' default
    targets (the twelve solution.cu of practice/02 to 04, built only by 'make solution', left
    out; 395 .cu files in all): 383, over this study's ~150, so CUDA_LAB_DRAW of them,
    random.Random(42).sample over the sorted paths (recreate.draw). Each CMake project that
    holds a drawn unit: its own configure (Ninja, nvcc 13; no build type given; its default
    architecture 80 applies only where CMAKE_CUDA_ARCHITECTURES is not yet defined, and
    CMake 3.25's project() defines it from nvcc's default, 75), and the drawn units' first
    entries from its database; the Makefile units drawn, with their nvcc lines as make
    writes them."""
    src = os.path.join(top, "srcs", "cuda-lab")
    cmake_units, make_rows = cuda_lab_units(src)
    candidates = [{"file": u} for u in cmake_units] + make_rows
    drawn = {d["file"] for d in recreate.draw(candidates, "^" + src + "/", 42, CUDA_LAB_DRAW)}
    rows = []
    for project in sorted({cmake_units[u] for u in drawn if u in cmake_units}):
        name = os.path.join("cuda-lab", os.path.relpath(project, src))
        rows += [r for r in cmake(top, project, name) if r["file"] in drawn]
    rows += [r for r in make_rows if r["file"] in drawn]
    rows.sort(key=lambda r: r["file"])
    missing = drawn - {r["file"] for r in rows}
    if missing:
        sys.stderr.write("recreate_h45.py: drawn but not in a database: %s\n" % sorted(missing))
    recreate.write_db(top, "cuda-lab", rows)


def main(argv):
    return recreate.command_line(argv, __doc__, sources, [tacuda_db, libcudacxx_db, cuda_lab_db])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
