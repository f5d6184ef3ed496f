"""recreate_h10.py: the sources and compile databases of study-projects.txt's "held-out-10" rows,
made again as docs/studies/lint-realworld.md describes them ("Held-out projects, tenth
sample").

Usage: python3 bench/lint-real/recreate_h10.py GIT_ROOT TOP [STEP...]

GIT_ROOT/OWNER/NAME is a git folder (a bare clone will do) of Xtra-Computing/thundergbm,
baidu-research/warp-ctc and InteractiveComputerGraphics/cuNSearch. TOP receives srcs/ (study.sh's
SRC_ROOT), dbs/ (its DB_ROOT) and build/ (the CMake configures). STEP: sources, dbs (default:
both). Needs git, cmake (3.25), ninja and the CUDA toolkit at /usr/local/cuda; builds nothing.
"""
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import recreate  # noqa: E402  (checkout, run, write_db, load)
import recreate_h8  # noqa: E402  (findcuda_rows)

NVCC = recreate.NVCC
SOURCES = [
    ("thundergbm", "Xtra-Computing/thundergbm", "e3f824e4bdeba9230f4230b121f87119f63c425c"),
    ("warp-ctc", "baidu-research/warp-ctc", "94b2fa178347cf02757bdc7329dc2f1b46f5d094"),
    ("cuNSearch", "InteractiveComputerGraphics/cuNSearch",
     "4dd5598824bb7dfceae86d89758a6be74e7a9ac4"),
]


def sources(git_root, top):
    for folder, repo, commit in SOURCES:
        recreate.checkout(os.path.join(git_root, repo), commit, os.path.join(top, "srcs", folder))


def configure(src, build, options):
    recreate.run(["cmake", "-S", src, "-B", build, "-G", "Ninja", "-DCMAKE_BUILD_TYPE=Release",
                  "-DCMAKE_EXPORT_COMPILE_COMMANDS=ON", "-DCUDA_TOOLKIT_ROOT_DIR=/usr/local/cuda",
                  "-DCMAKE_CUDA_COMPILER=" + NVCC, "-DCMAKE_CUDA_ARCHITECTURES=90", *options],
                 stdout=subprocess.DEVNULL)


def cxx17(commands):
    """-std=c++11/14 as -std=c++17: CUDA 13's Thrust and CUB refuse older dialects ("Thrust
    requires at least C++17"; nvcc stops there too), so this is what the project needs to build
    with this toolkit (as for thundersvm in held-out-4)."""
    old = re.compile(r"(^|\s)(-std=|--std=)(c|gnu)\+\+1[14](?=\s|$)")
    for c in commands:
        if "command" in c:
            c["command"] = old.sub(r"\1\2\3++17", c["command"])
        else:
            c["arguments"] = [old.sub(r"\1\2\3++17", a) for a in c["arguments"]]
    return commands


def thundergbm_db(top):
    """FindCUDA's cuda_add_library: the library's .cu rows and its host units (the train and
    predict programs are one main each). Its cub submodule (NVlabs/cub of 2019) stays out, as
    the clone holds no submodule: CUDA 13's Thrust refuses that CUB, so the toolkit's is used."""
    src, build = os.path.join(top, "srcs", "thundergbm"), os.path.join(top, "build", "thundergbm")
    configure(src, build, [])
    commands = recreate.load(build) + recreate_h8.findcuda_rows(build)
    commands = [c for c in commands if "/src/test/" not in c["file"]]
    recreate.write_db(top, "thundergbm", cxx17(commands))


def warpctc_db(top):
    """CMake's CUDA language: the library (tests off; no Torch)."""
    src, build = os.path.join(top, "srcs", "warp-ctc"), os.path.join(top, "build", "warp-ctc")
    configure(src, build, ["-DBUILD_TESTS=OFF", "-DWITH_TORCH=OFF"])
    commands = [c for c in recreate.load(build) if re.search(r"\.(cu|cpp)$", c["file"])]
    recreate.write_db(top, "warp-ctc", commands)


def cunsearch_db(top):
    """CMake's CUDA language: the library and its demo."""
    src, build = os.path.join(top, "srcs", "cuNSearch"), os.path.join(top, "build", "cuNSearch")
    configure(src, build, [])
    recreate.write_db(top, "cuNSearch", cxx17(recreate.load(build)))


def main(argv):
    return recreate.command_line(argv, __doc__, sources, [thundergbm_db, warpctc_db, cunsearch_db])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
