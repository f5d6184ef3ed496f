"""recreate_h15.py: the sources and compile databases of study-projects.txt's "held-out-15" rows,
made again as docs/studies/lint-realworld.md describes them ("Held-out projects, fifteenth
sample").

Usage: python3 bench/lint-real/recreate_h15.py GIT_ROOT TOP [STEP...]

GIT_ROOT/OWNER/NAME is a git folder (a bare clone will do) of gpufit/Gpufit, fangq/mcx,
UCI-CARL/CARLsim6 and NVIDIA/cuda-samples (the helper headers CARLsim6's CMakeLists asks for).
TOP receives srcs/ (study.sh's SRC_ROOT), dbs/ (its DB_ROOT), deps/ (cuda-samples' Common/) and
build/ (the CMake configures of Gpufit and CARLsim6). STEP: sources, dbs (default: both). Needs
git, cmake (3.25), ninja, make and the CUDA toolkit at /usr/local/cuda; builds nothing.
"""
import os
import shlex
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import recreate  # noqa: E402  (checkout, write_db, load, entry, command_line)
import recreate_h8  # noqa: E402  (configure, findcuda_rows)

SOURCES = [
    ("Gpufit", "gpufit/Gpufit", "a0bd66c365468c7fca4b8f0511597907cf2c0274"),
    ("mcx", "fangq/mcx", "d97fd717db78cd7e964606cf127b7e1ce2c55ed8"),
    ("CARLsim6", "UCI-CARL/CARLsim6", "72339dd2606952bf52b4e7967bd22f5bd44c29d0"),
]
# CARLsim6's CMakeLists wants the CUDA samples' helper headers (CARLSIM_CUDA_SAMPLES_INCLUDE_DIR,
# by default ~/cuda-samples/Common): the samples' Common/ at the commit recreate.py uses
SAMPLES = ("NVIDIA/cuda-samples", "c94ff366aed18c797b8a85dfaac7817b0228b420")


def sources(git_root, top):
    for folder, repo, commit in SOURCES:
        recreate.checkout(os.path.join(git_root, repo), commit, os.path.join(top, "srcs", folder))
    recreate.checkout(os.path.join(git_root, SAMPLES[0]), SAMPLES[1],
                      os.path.join(top, "deps", "cuda-samples"), ["Common"])


def gpufit_db(top):
    """A CMake configure of its CMakeLists (FindCUDA: cuda_add_library of the Gpufit library,
    the Cpufit library, the examples and the GPU-versus-CPU profiling programs; Boost is not on
    the machine, so the CMakeLists skips its tests, and Java, MATLAB and Python bindings are not
    found). CUDA_ARCHITECTURES=9.0 (its default, All, lists architectures CUDA 13 has dropped;
    Auto needs a GPU at configure time). The .cpp from CMake's database (tests/utils.cpp twice,
    once for each profiling program), the .cu from FindCUDA's rules."""
    src, build = os.path.join(top, "srcs", "Gpufit"), os.path.join(top, "build", "Gpufit")
    recreate_h8.configure(src, build, ["-DCUDA_ARCHITECTURES=9.0"])
    recreate.write_db(top, "Gpufit", recreate.load(build) + recreate_h8.findcuda_rows(build))


def mcx_db(top):
    """Its src/Makefile, the default target (the mcx program, BACKEND=cuda): the nvcc, cc, gcc
    and g++ lines of 'make -n -B' in src/ that compile its FILES (mcx_core.cu, which includes
    the mcx_rand_*.cu, and the C and C++ units), run in src/, each line's source file and '-o'
    operand taken out as recreate.entry writes them. The zmat library it builds with 'make -C
    zmat lib' (a compression library of its own, no CUDA) is left out; the Makefile's own
    -arch=sm_75 kept."""
    src = os.path.join(top, "srcs", "mcx", "src")
    out = subprocess.run(["make", "-n", "-B", "-C", src], check=True, capture_output=True,
                         text=True).stdout
    commands = []
    for line in out.splitlines():
        if line.startswith("make -C zmat"):
            break
        if line.split(" ", 1)[0] not in ("nvcc", "cc", "gcc", "g++"):
            continue  # make's echo and shell lines
        words = shlex.split(line)
        if "-c" not in words:
            continue
        path = next(w for w in words if w.endswith((".cu", ".c", ".cpp")))
        output = {i + 1 for i, w in enumerate(words) if w == "-o"}
        args = [recreate.NVCC if w == "nvcc" else w for i, w in enumerate(words)
                if w not in ("-c", "-o", path) and i not in output]
        commands.append(recreate.entry(src, os.path.join(src, path), args))
    recreate.write_db(top, "mcx", commands)


def carlsim_db(top):
    """A CMake configure of its CMakeLists with its defaults (the library, its benchmark, the
    samples and tools it builds) but CARLSIM_TEST=OFF (the tests need the googletest submodule,
    not in the snapshot); CARLSIM_CUDA_SAMPLES_INCLUDE_DIR the samples' Common/;
    CARLSIM_CUDA_GENCODE sm_90 (its default is none). The .cpp from CMake's database,
    snn_gpu_module.cu from FindCUDA's rule."""
    src, build = os.path.join(top, "srcs", "CARLsim6"), os.path.join(top, "build", "CARLsim6")
    recreate_h8.configure(src, build, [
        "-DCARLSIM_TEST=OFF",
        "-DCARLSIM_CUDA_SAMPLES_INCLUDE_DIR=" + os.path.join(top, "deps", "cuda-samples", "Common"),
        "-DCARLSIM_CUDA_GENCODE=-gencode arch=compute_90,code=sm_90"])
    recreate.write_db(top, "CARLsim6", recreate.load(build) + recreate_h8.findcuda_rows(build))


def main(argv):
    return recreate.command_line(argv, __doc__, sources, [gpufit_db, mcx_db, carlsim_db])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
