"""recreate_h38.py: the sources and compile databases of study-projects.txt's "held-out-38" rows,
made again as docs/studies/lint-realworld.md describes them ("Held-out-38").

Usage: python3 bench/lint-real/recreate_h38.py GIT_ROOT TOP [STEP...]

GIT_ROOT/OWNER/NAME is a git folder (a bare clone will do) of ztxz16/fastllm and
StanfordLegion/legion. TOP receives srcs/ (study.sh's SRC_ROOT), dbs/ (its DB_ROOT) and build/
(the two CMake configures). STEP: sources, dbs (default: both). Needs git, CMake 3.25, ninja and
the CUDA toolkit at /usr/local/cuda; builds nothing, downloads nothing. fastllm's three Windows
binaries (example/Qui/bin/Qt5*.dll, which the clone lacks) and its submodule third_party/pybind11
(read only with PY_API, off) are left out and named on standard error. Legion's configure writes
its instantiation units (runtime/realm/deppart/*_N_M.cc, runtime/legion/region_tree_N*.cc) and
its defines headers into its build folder; its database's units there are kept.
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import recreate  # noqa: E402  (write_db, load, command_line, NVCC)
import recreate_h17  # noqa: E402  (sources)
from recreate_h32 import configure, first_of_each  # noqa: E402

SOURCES = [
    # Skipped before fastllm, in the order of the draw: turboderp/exllamav2 and
    # IST-DASLab/marlin (setup.py with PyTorch's CUDAExtension; torch not installed),
    # h2oai/h2o4gpu (find_package(SWIG REQUIRED), CMakeLists.txt:10; not installed),
    # gpuocelot/gpuocelot (Boost, flex, bison, GLEW, LLVM 15; not installed), NVIDIA/stdexec
    # (CMake 3.28; downloads rapids-cmake), rogerallen/raytracinginoneweekendincuda (no CUDA unit
    # on its default branch), InternLM/lmdeploy (FetchContent of fmt, cutlass, yaml-cpp,
    # xgrammar), NVIDIA/VideoProcessingFramework (FetchContent of pybind11),
    # dusty-nv/jetson-inference (its configure runs CMakePreBuild.sh, which installs packages and
    # PyTorch), flexflow/FlexFlow (FetchContent of nlohmann/json; Rust)
    # its submodule third_party/pybind11 (read only with PY_API, off) left out
    ("fastllm", "ztxz16/fastllm", "d3aea32f809b8b89b152643a202068c35acffbf9"),
    # Skipped between fastllm and Legion: eyalroz/cuda-kat (header-only; its tests need
    # cuda-api-wrappers, not installed), NVIDIA/apex (setup.py with PyTorch),
    # dusty-nv/jetson-utils (its configure makes its Python bindings' target twice on a system
    # not named in python/CMakeLists.txt's list of Ubuntu releases)
    ("legion", "StanfordLegion/legion", "d8e35c48d089014b0f764181b7b90278a7558b21"),
]


def sources(git_root, top):
    recreate_h17.sources(git_root, top, SOURCES)


def fastllm_db(top):
    """Its README's GPU build (install.sh: 'cmake .. -DUSE_CUDA=ON -DCMAKE_CUDA_COMPILER=nvcc'),
    a CMake configure (Release, Ninja, nvcc 13) with -DUSE_CUDA=ON and its own -DCUDA_ARCH=90
    (the README's variable; its default, 'native', stops the generate step with no GPU here:
    "CUDA_ARCHITECTURES is set to "native", but no GPU was detected"); its other options as they
    default (USE_NUMAS on; no Python API, ROCm, TFACC, sentencepiece, CLI or unit tests).
    CMake's database, each file once (the library's sources are compiled twice, for the object
    library fastllm and the shared fastllm_tools; the first kept): all 132 units (src 97: 26
    .cu by nvcc, 71 .cpp; third_party 29: turbomind's 23 by nvcc, gguf 5, json11 1; the
    programs 6: main, quant, pytools, webui, benchmark, apiserver)."""
    src = os.path.join(top, "srcs", "fastllm")
    build = os.path.join(top, "build", "fastllm")
    configure(src, build, ["-DCMAKE_CUDA_COMPILER=" + recreate.NVCC, "-DUSE_CUDA=ON",
                           "-DCUDA_ARCH=90"])
    recreate.write_db(top, "fastllm", first_of_each(recreate.load(build)))


def legion_db(top):
    """Its CMake configure (Release, Ninja, nvcc 13) with its own -DLegion_USE_CUDA=ON (off by
    default); Legion_CUDA_ARCH as it defaults (75, CMake's default for nvcc 13); its other options
    as they default (Legion_MAX_DIM 3; no networks, OpenMP, Python, Fortran, HDF5, examples,
    tutorial, tests or apps). CMake's database, each file once: 128 units, all but
    runtime/realm_fatbin.cc in the build folder, which a custom command of the build writes
    (runtime/CMakeLists.txt:331-344, the embedded fatbinary of realm/cuda/cuda_memcpy.cu): left
    out. Of the 128, 39 are in the build folder, written by the configure (configure_file,
    runtime/CMakeLists.txt:307, :912): the deppart and region-tree instantiations, each a few
    defines and an #include of the source tree's template unit."""
    src = os.path.join(top, "srcs", "legion")
    build = os.path.join(top, "build", "legion")
    configure(src, build, ["-DCMAKE_CUDA_COMPILER=" + recreate.NVCC, "-DLegion_USE_CUDA=ON"])
    fatbin = os.path.join(build, "runtime", "realm_fatbin.cc")
    commands = [c for c in recreate.load(build) if c["file"] != fatbin]
    recreate.write_db(top, "legion", first_of_each(commands))


def main(argv):
    return recreate.command_line(argv, __doc__, sources, [fastllm_db, legion_db])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
