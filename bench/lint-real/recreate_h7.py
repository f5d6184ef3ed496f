"""recreate_h7.py: the sources and compile databases of study-projects.txt's "held-out-7" rows,
made again as docs/studies/lint-realworld.md describes them ("Held-out projects, seventh
sample").

Usage: python3 bench/lint-real/recreate_h7.py GIT_ROOT TOP [STEP...]

GIT_ROOT/OWNER/NAME is a git folder (a bare clone will do) of victorprad/InfiniTAM,
cholla-hydro/cholla, COPT-Public/cuPDLP-C and CERN/TIGRE. TOP receives srcs/ (study.sh's
SRC_ROOT), dbs/ (its DB_ROOT) and build/ (the CMake configures, and an empty HiGHS folder for
cuPDLP-C). STEP: sources, dbs (default: both). Needs git, cmake (3.25), ninja, make and the CUDA
toolkit at /usr/local/cuda; builds nothing. A blob the clone lacks (TIGRE's data files) is left
out and named on standard error.
"""
import glob
import json
import os
import re
import shlex
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import recreate  # noqa: E402  (checkout, run, write_db)

NVCC = recreate.NVCC
SOURCES = [
    ("InfiniTAM", "victorprad/InfiniTAM", "4156547e7f118c3a303d0b3c20f4da2aa3bfc9c9"),
    ("cholla", "cholla-hydro/cholla", "8478c9ede8a5e2cb72d6481a50023666d489a763"),
    ("cuPDLP-C", "COPT-Public/cuPDLP-C", "7b94c41efca42fa176a129a935b59718e1455fad"),
    ("TIGRE", "CERN/TIGRE", "e70247328fd897ca5dee1351893b66efe741dc73"),
]


def sources(git_root, top):
    for folder, repo, commit in SOURCES:
        recreate.checkout(os.path.join(git_root, repo), commit, os.path.join(top, "srcs", folder))


def infinitam_db(top):
    """CMake's C++ rows and, for FindCUDA's .cu rules, nvcc rows from its generated scripts."""
    src, build = os.path.join(top, "srcs", "InfiniTAM", "InfiniTAM"), os.path.join(top, "build",
                                                                                    "InfiniTAM")
    recreate.run(["cmake", "-S", src, "-B", build, "-G", "Ninja", "-DCMAKE_BUILD_TYPE=Release",
                  "-DCMAKE_EXPORT_COMPILE_COMMANDS=ON", "-DCUDA_COMPUTE_CAPABILITY=90",
                  "-DCUDA_TOOLKIT_ROOT_DIR=/usr/local/cuda"], stdout=subprocess.DEVNULL)
    commands = recreate.load(build)
    for script in sorted(glob.glob(f"{build}/**/*.cu.o.Release.cmake", recursive=True)):
        text = open(script).read()
        path = re.search(r'set\(source_file "([^"]+)"\)', text).group(1)
        incs = re.search(r"set\(CUDA_NVCC_INCLUDE_DIRS \[==\[(.*?)\]==\]\)", text).group(1)
        defs = re.search(r"set\(CUDA_NVCC_COMPILE_DEFINITIONS \[==\[(.*?)\]==\]\)", text).group(1)
        args = [NVCC, "-ccbin", "/usr/bin/cc", "-m64", "--std", "c++11"]
        args += ["-D" + d for d in defs.split(";") if d]
        args += ["-Xcompiler", "-fPIC,-O3,-march=native,-pthread,-DNDEBUG",
                 "-Xcudafe", "--diag_suppress=cc_clobber_ignored",
                 "-Xcudafe", "--diag_suppress=set_but_not_used", "--use_fast_math",
                 "--generate-code", "arch=compute_90,code=sm_90"]
        args += ["-I" + i for i in dict.fromkeys(incs.split(";")) if i]
        directory = os.path.dirname(os.path.dirname(os.path.dirname(script)))
        commands.append(recreate.entry(directory, path, args))
    recreate.write_db(top, "InfiniTAM", commands)


def cholla_db(top):
    """`make -n` of the default build type, without MPI and HDF5 (neither is on the machine)."""
    src = os.path.join(top, "srcs", "cholla")
    dry = subprocess.run(["make", "-n", "MACHINE=github", "TYPE=hydro", "CUDA_ROOT=/usr/local/cuda",
                          "CUDA_ARCH=sm_90", "OUTPUT=-DOUTPUT", "CXX=g++", "GPUCXX=" + NVCC],
                         cwd=src, check=True, capture_output=True, text=True).stdout
    commit = SOURCES[1][2]
    defines = ("-DPRECISION=2 -DPLMC -DHLLC -DVL -DDENSITY_FLOOR -DTEMPERATURE_FLOOR -DOUTPUT "
               f'-DGIT_HASH=\\"{commit}\\"')
    commands = []
    for line in dry.splitlines():
        if " -c " not in line:
            continue
        args = []
        for arg in shlex.split(line):
            if arg in ("-DMPI_CHOLLA", "-I/include"):
                continue
            if arg.startswith("-DGIT_HASH="):
                arg = f'-DGIT_HASH="{commit}"'
            if arg.startswith("-DMACRO_FLAGS="):
                arg = f'-DMACRO_FLAGS="{defines}"'
            args.append(arg)
        path = args[args.index("-c") + 1]
        commands.append({"directory": src, "arguments": args, "file": os.path.join(src, path)})
    recreate.write_db(top, "cholla", commands)


def cupdlp_db(top):
    """CMake with CUDA on; HiGHS (the MPS reader) pointed at an empty folder."""
    src, build = os.path.join(top, "srcs", "cuPDLP-C"), os.path.join(top, "build", "cuPDLP-C")
    highs = os.path.join(top, "build", "highs-empty")
    os.makedirs(os.path.join(highs, "lib"), exist_ok=True)
    os.makedirs(os.path.join(highs, "include", "highs"), exist_ok=True)
    open(os.path.join(highs, "lib", "libhighs.so"), "a").close()
    recreate.run(["cmake", "-S", src, "-B", build, "-G", "Ninja", "-DBUILD_CUDA=ON",
                  "-DCMAKE_BUILD_TYPE=Release", "-DCMAKE_EXPORT_COMPILE_COMMANDS=ON",
                  "-DCMAKE_CUDA_ARCHITECTURES=90", "-DCMAKE_CUDA_COMPILER=" + NVCC],
                 env=dict(os.environ, HIGHS_HOME=highs), stdout=subprocess.DEVNULL)
    recreate.write_db(top, "cuPDLP-C", recreate.load(build))


def tigre_db(top):
    """setup.py's nvcc and g++ commands for its Common/CUDA sources."""
    src = os.path.join(top, "srcs", "TIGRE")
    with open(os.path.join(src, "setup.py")) as f:
        units = sorted(set(re.findall(r'"(Common/CUDA/\w+\.(?:cu|cpp))"', f.read())))
    inc = ["-I/usr/local/cuda/include", "-ICommon/CUDA/"]
    nvcc = [NVCC, *inc, "-D__CUDA_NO_HALF_OPERATORS__", "-D__CUDA_NO_HALF_CONVERSIONS__",
            "-D__CUDA_NO_HALF2_OPERATORS__", "--expt-relaxed-constexpr", "--compiler-options",
            "'-fPIC'", "-gencode=arch=compute_90,code=sm_90", "-std=c++11", "-DIS_FOR_PYTIGRE"]
    gxx = ["g++", "-pthread", "-fPIC", "-O2", "-DIS_FOR_PYTIGRE", *inc, "-std=c++11"]
    commands = [recreate.entry(src, os.path.join(src, u), nvcc if u.endswith(".cu") else gxx)
                for u in units]
    recreate.write_db(top, "TIGRE", commands)


def main(argv):
    return recreate.command_line(argv, __doc__, sources, [infinitam_db, cholla_db, cupdlp_db, tigre_db])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
