"""recreate_h9.py: the sources and compile databases of study-projects.txt's "held-out-9" rows,
made again as docs/studies/lint-realworld.md describes them ("Held-out projects, ninth
sample").

Usage: python3 bench/lint-real/recreate_h9.py GIT_ROOT TOP [STEP...]

GIT_ROOT/OWNER/NAME is a git folder (a bare clone will do) of brucefan1983/GPUMD,
flatironinstitute/finufft, flatironinstitute/poet (finufft's header-only dependency, which its
CMake would download) and fixstars/libSGM. TOP receives srcs/ (study.sh's SRC_ROOT), dbs/ (its
DB_ROOT) and build/ (the CMake configures). STEP: sources, dbs (default: both). Needs git,
cmake (3.25), ninja and the CUDA toolkit at /usr/local/cuda; builds nothing.
"""
import os
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import recreate  # noqa: E402  (checkout, run, write_db, load, entry)

NVCC = recreate.NVCC
CUDA = os.path.dirname(os.path.dirname(NVCC))
SOURCES = [
    ("GPUMD", "brucefan1983/GPUMD", "d98135deee27068f4f30605fbc581d4c613fff99", ()),
    ("finufft", "flatironinstitute/finufft", "9810998d273b504de6d61896047cc691738cd94c", ()),
    ("deps/poet", "flatironinstitute/poet", "dfb3e800a1e52c68333170cf1126335eef818535", ("include",)),
    ("libSGM", "fixstars/libSGM", "e4c669bb9e039b60f04178b080ac7d6077a4d4bd", ()),
]
# finufft/src/cuda/CMakeLists.txt: the library's CUDA units, its host-only units, and the
# per-dimension copies of the *_inst.cu units (configure_file COPYONLY, -DCUFINUFFT_DIM=d)
FINUFFT_CU = ["fft.cu", "heuristics.cu", "makeplan.cu", "setpts.cu", "execute.cu",
              "spread_blockgather_inst.cu"]
FINUFFT_CXX = ["c_interface.cpp", "spreadinterp.cpp"]
FINUFFT_PER_DIM = ["spread_nupts_driven", "spread_subprob", "spread_output_driven",
                   "interp_nupts_driven", "interp_subprob"]


def sources(git_root, top):
    for folder, repo, commit, paths in SOURCES:
        recreate.checkout(os.path.join(git_root, repo), commit, os.path.join(top, "srcs", folder),
                          paths)
    poet = os.path.join(top, "srcs", "deps", "poet", "include", "poet")
    text = open(os.path.join(poet, "version.hpp.in")).read()
    for key, value in (("MAJOR", "0"), ("MINOR", "0"), ("PATCH", "1"), ("STRING", "0.0.1"),
                       ("FULL", "0.0.1")):
        text = text.replace(f"@POET_VERSION_{key}@", value)
    with open(os.path.join(poet, "version.hpp"), "w") as f:
        f.write(text)


def configure(src, build, options):
    recreate.run(["cmake", "-S", src, "-B", build, "-G", "Ninja", "-DCMAKE_BUILD_TYPE=Release",
                  "-DCMAKE_EXPORT_COMPILE_COMMANDS=ON", "-DCMAKE_CUDA_COMPILER=" + NVCC,
                  "-DCMAKE_CUDA_ARCHITECTURES=90", *options], stdout=subprocess.DEVNULL)


def first_of_each(commands):
    """One row a file (GPUMD compiles src/utilities into both of its programs)."""
    kept, seen = [], set()
    for c in commands:
        if c["file"] not in seen:
            seen.add(c["file"])
            kept.append(c)
    return kept


def gpumd_db(top):
    """CMake's CUDA language: its own database (the gpumd and nep programs)."""
    src, build = os.path.join(top, "srcs", "GPUMD"), os.path.join(top, "build", "GPUMD")
    configure(src, build, [])
    recreate.write_db(top, "GPUMD", first_of_each(recreate.load(build)))


def libsgm_db(top):
    """CMake's CUDA language: the library (samples and tests off, as by default)."""
    src, build = os.path.join(top, "srcs", "libSGM"), os.path.join(top, "build", "libSGM")
    configure(src, build, [])
    commands = [c for c in recreate.load(build) if re.search(r"\.(cu|cpp)$", c["file"])]
    recreate.write_db(top, "libSGM", commands)


def finufft_db(top):
    """Written by hand: the configure downloads its dependencies (CPM), which this machine
    cannot; the rows are those of src/cuda/CMakeLists.txt's cufinufft target (Release)."""
    src = os.path.join(top, "srcs", "finufft")
    cuda_dir, gen = os.path.join(src, "src", "cuda"), os.path.join(src, "gen", "src", "cuda")
    os.makedirs(gen, exist_ok=True)
    poet = os.path.join(top, "srcs", "deps", "poet", "include")
    includes = ["-I" + os.path.join(src, "include"), "-I" + cuda_dir,
                "-isystem", os.path.join(CUDA, "include"), "-isystem", poet]
    nvcc = [NVCC, "-forward-unknown-to-host-compiler", *includes, "-O3", "-DNDEBUG",
            "-std=c++17", "--generate-code=arch=compute_90,code=[compute_90,sm_90]",
            "-Xcompiler=-fPIC", "-fvisibility=hidden", "--extended-lambda",
            "--extra-device-vectorization", "-Wextra", "-Wall", "-Wno-deprecated-declarations",
            "-x", "cu"]
    rows = [recreate.entry(src, os.path.join(cuda_dir, f), nvcc) for f in FINUFFT_CU]
    for method in FINUFFT_PER_DIM:
        for dim in (1, 2, 3):
            copy = os.path.join(gen, f"{method}_{dim}d.cu")
            shutil.copyfile(os.path.join(cuda_dir, f"{method}_inst.cu"), copy)
            rows.append(recreate.entry(src, copy, nvcc + [f"-DCUFINUFFT_DIM={dim}"]))
    cxx = ["/usr/bin/c++", *includes, "-O3", "-DNDEBUG", "-std=c++17", "-fPIC",
           "-fvisibility=hidden"]
    rows += [recreate.entry(src, os.path.join(cuda_dir, f), cxx) for f in FINUFFT_CXX]
    recreate.write_db(top, "finufft", rows)


def main(argv):
    return recreate.command_line(argv, __doc__, sources, [gpumd_db, finufft_db, libsgm_db])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
