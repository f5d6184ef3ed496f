"""recreate_h26.py: the sources and compile databases of study-projects.txt's "held-out-26" rows,
made again as docs/studies/lint-realworld.md describes them ("Held-out-26").

Usage: python3 bench/lint-real/recreate_h26.py GIT_ROOT TOP [STEP...]

GIT_ROOT/OWNER/NAME is a git folder (a bare clone will do) of viennacl/viennacl-dev, vetter/shoc,
drryuichis/gpa-minimod-artifacts and GMAP/NPB-GPU. TOP receives srcs/ (study.sh's SRC_ROOT; SHOC
configured in its folder, as its build does), dbs/ (its DB_ROOT) and build/ (the CMake configure
of ViennaCL). STEP: sources, dbs (default: both). Needs git, cmake (3.25, which still has FindCUDA),
ninja, make, cc, a shell for SHOC's configure and the CUDA toolkit at /usr/local/cuda; builds
nothing but NPB-GPU's sys/setparams (see npb_db).
"""
import os
import re
import shlex
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import recreate  # noqa: E402  (write_db, entry, NVCC, command_line)
import recreate_h8  # noqa: E402  (configure, findcuda_rows)
import recreate_h16  # noqa: E402  (rows)
import recreate_h17  # noqa: E402  (sources)

SOURCES = [
    ("viennacl", "viennacl/viennacl-dev", "dc552a8d4bba2bb028a346dc611deea0c67e3eed"),
    ("shoc", "vetter/shoc", "0aea03beba2f09fcb5935cc11737372fe4de9ec0"),
    ("minimod", "drryuichis/gpa-minimod-artifacts", "fd6c62364568db1b867f6a1764dd81f7ff5faafb"),
    # added after the first three gave 3 warnings (the choice's addendum)
    ("NPB-GPU", "GMAP/NPB-GPU", "dc70cf193fa2676514d7ec3d4229fdb6102123e1"),
]

# Two test-data files ViennaCL's examples/CMakeLists.txt copies at configure time, stored outside
# the clone (large files): written empty, so that the configure runs; no unit reads them.
VIENNACL_TESTDATA = ["examples/testdata/mat65k.mtx", "examples/testdata/eigen/nsm4.example"]

# Minimod's CUDA targets (its Makefile builds one, TARGET, default cuda_smem_u_s_opt-gpu; its
# scripts/time_*.sh build the others the same way).
MINIMOD_TARGETS = ["cuda_smem_u_s_opt-gpu", "cuda_smem_u_fastmath_s_opt-gpu",
                   "cuda_smem_u_both_s_opt-gpu", "cuda_smem_u_func_templ_opt-gpu",
                   "cuda_st_reg_shft_opt-gpu"]


def sources(git_root, top):
    recreate_h17.sources(git_root, top, SOURCES)
    for name in VIENNACL_TESTDATA:
        path = os.path.join(top, "srcs", "viennacl", name)
        if not os.path.exists(path):
            os.makedirs(os.path.dirname(path), exist_ok=True)
            open(path, "w").close()


def viennacl_db(top):
    """A CMake configure with ENABLE_CUDA=ON, ENABLE_OPENCL=OFF (no OpenCL here), BUILD_TESTING=OFF
    (the tests need Boost, not installed here; so do the uBLAS tutorials, ENABLE_UBLAS off, its
    default) and CUDA_ARCH_FLAG=-arch=sm_90 (its default, sm_20, is gone from CUDA 13): FindCUDA's
    rows, the .cu units (the CUDA tutorials, the two CUDA benchmarks and libviennacl's units).
    CMake's own database holds only the host-only builds of the .cpp tutorials (no CUDA), left
    out."""
    src, build = os.path.join(top, "srcs", "viennacl"), os.path.join(top, "build", "viennacl")
    recreate_h8.configure(src, build, ["-DENABLE_CUDA=ON", "-DENABLE_OPENCL=OFF",
                                       "-DBUILD_TESTING=OFF", "-DCUDA_ARCH_FLAG=-arch=sm_90",
                                       "-Wno-dev"])
    recreate.write_db(top, "viennacl", recreate_h8.findcuda_rows(build))


def add_rows(commands, seen, directory, words):
    """Appends to 'commands' the database rows of the compile line 'words' run in 'directory'
    (recreate_h16.rows), each file once ('seen'), its path normalized."""
    for row in recreate_h16.rows(directory, words):
        path = os.path.normpath(row["file"])
        if path not in seen:
            seen.add(path)
            row["arguments"] = [path if a == row["file"] else a for a in row["arguments"]]
            row["file"] = path
            commands.append(row)


def shoc_db(top):
    """Its configure with --without-mpi and CUDA_CPPFLAGS=-gencode=arch=compute_90,code=sm_90 (its
    own guess lists architectures nvcc 13 lacks; the configure says to name them), run in its
    folder; then the compile lines of 'make -n' in src/cuda (its objects are not there, so every
    line is listed; '-B' would make automake's rules run config.status again in every folder),
    each from the folder make names, nvcc's and g++'s. src/cuda/common/main.cpp, which every
    program compiles again with the same flags, once (its first line, level0's)."""
    src = os.path.join(top, "srcs", "shoc")
    subprocess.run(["./configure", "--without-mpi",
                    "CUDA_CPPFLAGS=-gencode=arch=compute_90,code=sm_90"], cwd=src, check=True,
                   stdout=subprocess.DEVNULL)
    out = subprocess.run(["make", "-n", "-C", os.path.join(src, "src", "cuda")], check=True,
                         capture_output=True, text=True).stdout
    commands, seen, folders = [], set(), []
    for line in out.splitlines():
        moved = re.match(r"make(?:\[\d+\])?: (Entering|Leaving) directory '(.*)'", line)
        if moved:
            if moved.group(1) == "Entering":
                folders.append(moved.group(2))
            else:
                folders.pop()
            continue
        if not line.split() or line.split()[0] not in (recreate.NVCC, "g++"):
            continue  # not a compile line (automake's shell loops, echo, mv of .deps files)
        words = shlex.split(line)
        if "-c" not in words:
            continue
        add_rows(commands, seen, folders[-1], words)
    recreate.write_db(top, "shoc", commands)


def minimod_db(top):
    """Its Makefile (COMPILER=nvcc, NVCCFLAGS=-arch=sm_70, its defaults) for each CUDA target:
    the one nvcc line of 'make -n -B TARGET=...' (compile and link at once), run in its folder.
    The default target's line gives every unit; each other target's line only its own .cu (the
    shared units again, left out as second lines of the same units)."""
    src = os.path.join(top, "srcs", "minimod")
    commands, seen = [], set()
    for target in MINIMOD_TARGETS:
        out = subprocess.run(["make", "-n", "-B", "-C", src, "TARGET=" + target], check=True,
                             capture_output=True, text=True).stdout
        for line in out.splitlines():
            words = shlex.split(line)
            if words and words[0] == "nvcc":
                for row in recreate_h16.rows(src, words):
                    if row["file"] not in seen:
                        seen.add(row["file"])
                        commands.append(row)
    recreate.write_db(top, "minimod", commands)


# NPB-GPU's CUDA benchmarks, each built with 'make BENCHMARK CLASS=...' (its README).
NPB_BENCHMARKS = ["BT", "CG", "EP", "FT", "IS", "LU", "MG", "SP"]


def npb_db(top):
    """Its CUDA/ build for each benchmark with CLASS=B (suite.def's class) and
    COMPUTE_CAPABILITY='-gencode arch=compute_90,code=sm_90' (its get_gpu_arch.sh would write the
    GPU's into make.def; there is no GPU here): sys/setparams (NPB's host tool, the one thing
    built) writes each benchmark's npbparams.hpp as 'make' would; then the compile lines of
    'make -n -B' in the benchmark's folder (nvcc for the benchmark's .cu and for common/'s units,
    each from the folder its line runs in). common/'s units, compiled again by each benchmark
    with the same flags, once (their first lines, BT's). setparams also writes the day's date into
    npbparams.hpp (COMPILETIME): two runs on different days differ in that line."""
    cuda = os.path.join(top, "srcs", "NPB-GPU", "CUDA")
    recreate.run(["make", "-s", "-C", os.path.join(cuda, "sys"), "all"],
                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)  # cc's warnings
    variables = ["CLASS=B", "COMPUTE_CAPABILITY=-gencode arch=compute_90,code=sm_90"]
    commands, seen = [], set()
    for bench in NPB_BENCHMARKS:
        folder = os.path.join(cuda, bench)
        recreate.run([os.path.join(cuda, "sys", "setparams"), bench.lower(), "B"], cwd=folder)
        out = subprocess.run(["make", "-n", "-B", "-C", folder, *variables], check=True,
                             capture_output=True, text=True).stdout
        for line in out.splitlines():
            directory = folder
            if line.startswith("cd ") and ";" in line:
                place, line = line[3:].split(";", 1)
                directory = os.path.normpath(os.path.join(folder, place.strip()))
            words = shlex.split(line)
            if not words or words[0] != "nvcc" or "-c" not in words:
                continue
            add_rows(commands, seen, directory, words)
    recreate.write_db(top, "NPB-GPU", commands)


def main(argv):
    return recreate.command_line(argv, __doc__, sources,
                                 [viennacl_db, shoc_db, minimod_db, npb_db])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
