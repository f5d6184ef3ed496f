"""recreate_h28.py: the sources and compile databases of study-projects.txt's "held-out-28" rows,
made again as docs/studies/lint-realworld.md describes them ("Held-out-28").

Usage: python3 bench/lint-real/recreate_h28.py GIT_ROOT TOP [STEP...]

GIT_ROOT/OWNER/NAME is a git folder (a bare clone will do) of chai-benchmarks/chai,
astra-toolbox/astra-toolbox and asbschmidt/CUDASW4. TOP receives srcs/ (study.sh's SRC_ROOT) and
dbs/ (its DB_ROOT). STEP: sources, dbs (default: both). Needs git, make and the CUDA toolkit at
/usr/local/cuda; builds nothing, runs no configure.
"""
import glob
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import recreate  # noqa: E402  (write_db, command_line, NVCC)
import recreate_h17  # noqa: E402  (sources)
from recreate_h26 import add_rows  # noqa: E402
from recreate_h27 import nvcc_lines  # noqa: E402

SOURCES = [
    ("chai", "chai-benchmarks/chai", "1ad38e3607a59905c5edc4f6ae11f676a769f3d9"),
    # v2.4.1, the last release whose CUDA units hold the iterative algorithms (SIRT, CGLS, EM)
    ("astra-toolbox", "astra-toolbox/astra-toolbox", "4f82d206545920b80429869970ee8c04270ca3c9"),
    ("CUDASW4", "asbschmidt/CUDASW4", "37a394c372e35086e7ac7da844e262d9645565e3"),
]

CUDA = "/usr/local/cuda"
SM90 = "-gencode=arch=compute_90,code=sm_90"


def sources(git_root, top):
    recreate_h17.sources(git_root, top, SOURCES)


def chai_db(top):
    """Each benchmark's Makefile of CUDA-D/ (discrete copies) and CUDA-U/ (unified memory), with
    CHAI_CUDA_LIB and CHAI_CUDA_INC set to the toolkit's: its one nvcc line ('nvcc -std=c++11
    main.cpp kernel.cpp kernel.cu ... -o NAME', compile and link at once, from make -n -B), one row
    per source it names. The simulator variants (CUDA-D-Sim, CUDA-U-Sim) and the OpenCL and C++AMP
    versions left out."""
    src = os.path.join(top, "srcs", "chai")
    commands, seen = [], set()
    variables = ["CHAI_CUDA_LIB=" + CUDA + "/lib64", "CHAI_CUDA_INC=" + CUDA + "/include"]
    for variant in ("CUDA-D", "CUDA-U"):
        for makefile in sorted(glob.glob(os.path.join(src, variant, "*", "Makefile"))):
            folder = os.path.dirname(makefile)
            for words in nvcc_lines(folder, [], variables, compile_only=False):
                add_rows(commands, seen, folder, words)
    recreate.write_db(top, "chai", commands)


def astra_db(top):
    """build/linux/Makefile.in's rule for the CUDA units of libastra (its CUDA_OBJECTS, '%.lo:
    %.cu'), written as its configure would fill it with --with-cuda=/usr/local/cuda and
    --with-cuda-compute=90 (autoconf is not installed here, so no configure is run): 'nvcc
    NVCCFLAGS -c UNIT -Xcompiler -fPIC -DPIC', NVCCFLAGS being the configure's NVCCFLAGS_EXTRA
    (-Wno-deprecated-gpu-targets, the gencode for 90 and its PTX), CPPFLAGS_CUDA and the Makefile's
    own, run in build/linux (srcdir '.'). The host C++ units (src/, matlab/, python/) left out."""
    src = os.path.join(top, "srcs", "astra-toolbox")
    folder = os.path.join(src, "build", "linux")
    with open(os.path.join(folder, "Makefile.in")) as f:
        text = f.read()
    block = text.split("CUDA_OBJECTS=\\", 1)[1].split("\n\n", 1)[0]
    units = [w.strip().rstrip("\\").strip() for w in block.splitlines() if w.strip()]
    flags = ["-Wno-deprecated-gpu-targets", SM90, "-gencode=arch=compute_90,code=compute_90",
             "-I" + CUDA + "/include", "-I./../../include", "-DASTRA_CUDA", "--std", "c++17",
             "-DASTRA_BUILDING_CUDA"]
    commands, seen = [], set()
    for unit in units:
        path = os.path.join("..", "..", unit[:-3] + ".cu")
        words = ["nvcc", *flags, "-c", path, "-Xcompiler", "-fPIC", "-DPIC", "-o", "x.o"]
        add_rows(commands, seen, folder, words)
    recreate.write_db(top, "astra-toolbox", commands)


def cudasw4_db(top):
    """Its Makefile's goals release (align and makedb) and gridsearch, from make -n -B, with
    NVCC_FLAGS as it sets them but '-arch=sm_90' for '-arch=native' (no GPU here to ask)."""
    folder = os.path.join(top, "srcs", "CUDASW4")
    flags = ("NVCC_FLAGS=-arch=sm_90 -lineinfo --expt-relaxed-constexpr -rdc=true "
             "--extended-lambda -lnvToolsExt -Xcompiler=\"-fopenmp\"")
    commands, seen = [], set()
    for words in nvcc_lines(folder, ["release", "gridsearch"], [flags]):
        add_rows(commands, seen, folder, words)
    recreate.write_db(top, "CUDASW4", commands)


def main(argv):
    return recreate.command_line(argv, __doc__, sources, [chai_db, astra_db, cudasw4_db])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
