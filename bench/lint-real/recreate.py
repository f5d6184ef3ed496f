"""recreate.py: the sources and compile databases of study-projects.txt's "issue25" and "earlier"
rows, made again as docs/studies/lint-realworld.md describes them ("2026-12-02 re-run",
"Severity from context", "Re-run, 2026-12-03").

Usage: python3 bench/lint-real/recreate.py GIT_ROOT TOP [STEP...]

GIT_ROOT/OWNER/NAME is a git folder (a bare clone will do) of each project: facebookresearch/faiss,
NVIDIA/nccl, dmlc/xgboost, dmlc/dmlc-core, rapidsai/rmm, NVIDIA/cccl, rapidsai/rapids-logger,
kaldi-asr/kaldi, mmcauliffe/openfst-1.8.3, NVIDIA/cuda-samples, pjreddie/darknet,
NVIDIA-AI-IOT/CUDA-PointPillars, NVIDIA-AI-IOT/Lidar_AI_Solution. TOP receives srcs/ (study.sh's
SRC_ROOT), dbs/ (its DB_ROOT), deps/ (RMM's CCCL and rapids-logger) and build/ (the CMake
configures). STEP: sources, cmake, dbs (default: all three, in that order). Needs git, cmake
(3.25), ninja and the CUDA toolkit at /usr/local/cuda; builds nothing but NCCL's generated
nccl.h. A blob the clone lacks (a large data file) is left out and named on standard error.
"""
import glob
import json
import os
import random
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
NVCC = "/usr/local/cuda/bin/nvcc"
# (folder under srcs, OWNER/NAME, commit): the commits the study names
SOURCES = [
    ("faiss", "facebookresearch/faiss", "02dbb4e42f49aa2ce57cd78977b0e47a11f7cb91"),
    ("nccl", "NVIDIA/nccl", "5067397c2676d5aed50042fc39e5c8ee96eb0027"),
    ("xgboost", "dmlc/xgboost", "379b29f0836b9dbc313b993d8e5743bd452d4117"),
    ("xgboost/dmlc-core", "dmlc/dmlc-core", "5295de940c7e79abe8b5d3891ca1d9ac6e7d467c"),
    ("rmm", "rapidsai/rmm", "5d50a37b9612e29d53f8202fba792b1a36f88a79"),
    ("kaldi", "kaldi-asr/kaldi", "f4007661023b98b8081fd875029f0dee62242fd1"),
    ("kaldi/tools/openfst", "mmcauliffe/openfst-1.8.3", "ee100966709bae0d547e159255d3d1666e706a38"),
    ("cuda-samples", "NVIDIA/cuda-samples", "c94ff366aed18c797b8a85dfaac7817b0228b420"),
    ("darknet", "pjreddie/darknet", "f6afaabcdf85f77e7aff2ec55c020c0e297c77f9"),
    ("lidar/CUDA-PointPillars", "NVIDIA-AI-IOT/CUDA-PointPillars",
     "ce7e2bd694c90207435c8751d61cdb38d48a9f4c"),
    ("lidar/Lidar_AI_Solution", "NVIDIA-AI-IOT/Lidar_AI_Solution",
     "787ad9549d2573a1a543fd1c03fb5835e580aafb"),
]
DEPS = [("cccl", "NVIDIA/cccl", "v3.4.2", ["thrust", "libcudacxx/include", "cub"]),
        ("rapids-logger", "rapidsai/rapids-logger", "62ddc85b563d05fd6b88a05cfb75219946493432",
         [])]
FIRST_STUDY = [  # the first study's cuda-samples files (concurrentKernels is gone at c94ff366)
    "0_Introduction/simpleStreams/simpleStreams.cu", "0_Introduction/asyncAPI/asyncAPI.cu",
    "0_Introduction/simpleMultiCopy/simpleMultiCopy.cu",
    "0_Introduction/simpleCallback/simpleCallback.cu",
    "0_Introduction/UnifiedMemoryStreams/UnifiedMemoryStreams.cu",
    "0_Introduction/cudaOpenMP/cudaOpenMP.cu", "0_Introduction/concurrentKernels/concurrentKernels.cu",
    "0_Introduction/simpleHyperQ/simpleHyperQ.cu", "0_Introduction/simpleZeroCopy/simpleZeroCopy.cu",
    "2_Concepts_and_Techniques/streamOrderedAllocation/streamOrderedAllocation.cu",
    "3_CUDA_Features/simpleCudaGraphs/simpleCudaGraphs.cu",
    "3_CUDA_Features/StreamPriorities/StreamPriorities.cu",
    "3_CUDA_Features/jacobiCudaGraphs/jacobi.cu",
    "5_Domain_Specific/p2pBandwidthLatencyTest/p2pBandwidthLatencyTest.cu"]


def run(cmd, **kw):
    subprocess.run(cmd, check=True, **kw)


def checkout(git_dir, commit, dest, paths=()):
    """The commit's files (or those under PATHS) in DEST, without the blobs the clone lacks."""
    os.makedirs(dest, exist_ok=True)
    env = dict(os.environ, GIT_INDEX_FILE=os.path.join(dest, ".recreate-index"))
    git = ["git", "--git-dir", git_dir]
    run(git + ["read-tree", commit], env=env)
    staged = subprocess.run(git + ["ls-files", "-s"], env=env, check=True, capture_output=True,
                            text=True).stdout.splitlines()
    entries = [(line.split()[1], line.split("\t", 1)[1]) for line in staged]
    check = subprocess.run(git + ["cat-file", "--batch-check"], check=True, text=True,
                           capture_output=True, input="".join(o + "\n" for o, _ in entries))
    missing = {line.split()[0] for line in check.stdout.splitlines() if line.endswith("missing")}
    for obj, path in entries:
        drop = obj in missing or (paths and not any(path.startswith(p + "/") for p in paths))
        if drop:
            if obj in missing:
                sys.stderr.write(f"recreate.py: not in the clone, left out: {dest}/{path}\n")
            run(git + ["update-index", "--force-remove", "--", path], env=env)
    run(git + ["--work-tree", dest, "checkout-index", "-a", "-f"], env=env)
    os.remove(env["GIT_INDEX_FILE"])


def sources(git_root, top):
    for folder, repo, commit in SOURCES:
        checkout(os.path.join(git_root, repo), commit, os.path.join(top, "srcs", folder))
    for folder, repo, commit, paths in DEPS:
        checkout(os.path.join(git_root, repo), commit, os.path.join(top, "deps", folder), paths)


def cmake_configures(top, projects=("faiss", "nccl", "xgboost", "rmm")):
    """The CMake configures of PROJECTS (default: all four; bed.py asks for faiss and xgboost)."""
    s, b = os.path.join(top, "srcs"), os.path.join(top, "build")
    common = ["-G", "Ninja", "-DCMAKE_EXPORT_COMPILE_COMMANDS=ON", "-DCMAKE_CUDA_COMPILER=" + NVCC,
              "-DCMAKE_CUDA_ARCHITECTURES=90"]
    if "faiss" in projects:
        run(["cmake", "-S", f"{s}/faiss", "-B", f"{b}/faiss", *common, "-DFAISS_ENABLE_GPU=ON",
             "-DFAISS_ENABLE_PYTHON=OFF", "-DFAISS_ENABLE_MKL=OFF", "-DFAISS_ENABLE_EXTRAS=OFF",
             "-DBUILD_TESTING=OFF"])
    if "nccl" in projects:
        run(["cmake", "-S", f"{s}/nccl", "-B", f"{b}/nccl", *common])
        run(["ninja", "-C", f"{b}/nccl", "include/nccl.h"])
    if "xgboost" in projects:
        run(["cmake", "-S", f"{s}/xgboost", "-B", f"{b}/xgboost", *common, "-DUSE_CUDA=ON"])
    if "rmm" not in projects:
        return
    macros = os.path.join(b, "rmm", "include", "rmm", "logger_macros.hpp")
    script = os.path.join(b, "rmm-logger-macros.cmake")
    os.makedirs(os.path.dirname(macros), exist_ok=True)
    with open(script, "w") as f:  # create_logger_macros(RMM "rmm::default_logger()" include/rmm)
        f.write('set(_RAPIDS_LOGGER_MACRO_PREFIX "RMM")\n'
                'set(_RAPIDS_LOGGER_DEFAULT_LOGGER "rmm::default_logger()")\n'
                'configure_file(${IN} ${OUT})\n')
    run(["cmake", f"-DIN={top}/deps/rapids-logger/cmake/logger_macros.hpp.in", f"-DOUT={macros}",
         "-P", script])


def write_db(top, name, commands):
    os.makedirs(os.path.join(top, "dbs", name), exist_ok=True)
    with open(os.path.join(top, "dbs", name, "compile_commands.json"), "w") as f:
        json.dump(commands, f, indent=1)
    print(f"{name}: {len(commands)} units")


def entry(directory, path, args):
    return {"directory": directory, "file": path, "arguments": [*args, "-c", path, "-o", "x.o"]}


def load(folder):
    with open(os.path.join(folder, "compile_commands.json")) as f:
        return json.load(f)


def draw(commands, pattern, seed, count, names=(), exclude=()):
    """draw_units.py's draw: COUNT of the matching files, random.Random(SEED).sample over their
    sorted paths, with the NAMEs; the first command of each."""
    files = sorted({c["file"] for c in commands if re.search(pattern, c["file"])} - set(exclude))
    chosen = set(random.Random(seed).sample(files, min(count, len(files))))
    chosen.update(f for f in files for n in names if f.endswith(n))
    kept, seen = [], set()
    for c in commands:
        if c["file"] in chosen and c["file"] not in seen:
            seen.add(c["file"])
            kept.append(c)
    return kept


def cmake_dbs(top, projects=("faiss", "nccl", "xgboost")):
    """The databases of PROJECTS drawn from their configures (default: all three)."""
    s, b = os.path.join(top, "srcs"), os.path.join(top, "build")
    if "faiss" in projects:
        write_db(top, "faiss", draw(load(f"{b}/faiss"),
                                    f"{s}/faiss/faiss/gpu/(?!utils/(block|warp)select)", 25, 1000))
    if "nccl" in projects:
        full = load(f"{b}/nccl")
        pattern = f"{s}/nccl/src/(?!transport/net_ib/gdaki)"
        first = draw(full, pattern, 25, 20, ["transport/coll_net.cc"])
        write_db(top, "nccl", first + draw(full, pattern, 26, 30, exclude=[c["file"] for c in first]))
    if "xgboost" not in projects:
        return
    full = load(f"{b}/xgboost")
    pattern = f"{s}/xgboost/src/.*\\.cu$"
    first = draw(full, pattern, 25, 20, ["data/ellpack_page.cu", "data/cat_container.cu"])
    write_db(top, "xgboost", first)
    write_db(top, "xgboost-more", draw(full, pattern, 26, 20, exclude=[c["file"] for c in first]))


def rmm_db(top):
    cpp, build, cccl = f"{top}/srcs/rmm/cpp", f"{top}/build/rmm", f"{top}/deps/cccl"
    inc = [f"-I{cpp}/include", f"-I{build}/include", "-isystem", f"{cccl}/thrust", "-isystem",
           f"{cccl}/libcudacxx/include", "-isystem", f"{cccl}/cub", "-isystem",
           f"{top}/deps/rapids-logger/include", "-isystem", "/usr/local/cuda/include"]
    with open(f"{cpp}/CMakeLists.txt") as f:
        lib = re.findall(r"^\s+(src/\S+\.cpp)\)?$", f.read(), re.M)
    flags = ["-std=gnu++20", "-fPIC", "-fvisibility=hidden", "-Wall", "-Werror", "-Wextra",
             "-Wsign-conversion", "-Wno-unknown-pragmas", "-Wno-error=deprecated-declarations",
             "-DRMM_NVTX"]
    commands = [entry(build, f"{cpp}/{p}", ["c++", *flags, *inc]) for p in lib]
    test = ["-DRMM_LOG_ACTIVE_LEVEL=RAPIDS_LOGGER_LOG_LEVEL_INFO", f"-I{cpp}", *inc]
    for path in sorted(glob.glob(f"{cpp}/tests/**/*.cpp", recursive=True)
                       + glob.glob(f"{cpp}/tests/**/*.cu", recursive=True)):
        if path.endswith(".cu"):
            args = [NVCC, "-std=c++20", "--generate-code=arch=compute_90,code=[compute_90,sm_90]",
                    *test]
        else:
            args = ["c++", "-std=gnu++20", *test]
        commands.append(entry(build, path, args))
    write_db(top, "rmm", draw(commands, f"{cpp}/", 25, 20))


def kaldi_db(top):
    src = f"{top}/srcs/kaldi/src"
    common = ["-DHAVE_CUDA=1", "-DKALDI_DOUBLEPRECISION=0", "-std=c++17", f"-I{src}",
              "-DOPENFST_VER=10803", f"-I{top}/srcs/kaldi/tools/openfst/src/include",
              "-DHAVE_CLAPACK", f"-I{top}/srcs/kaldi/tools/CLAPACK"]
    commands = []
    for path in sorted(glob.glob(f"{src}/cuda*/*.c[cu]")):
        if os.path.basename(os.path.dirname(path)) not in ("cudamatrix", "cudafeat", "cudadecoder") \
                or "test" in os.path.basename(path):
            continue
        if path.endswith(".cu"):
            commands.append(entry(src, path, [NVCC, *common, "-DCUDA_API_PER_THREAD_DEFAULT_STREAM"]))
        else:
            commands.append(entry(src, path, ["c++", *common]))
    write_db(top, "kaldi-fst", commands)


def darknet_db(top):
    src = f"{top}/srcs/darknet"
    cflags = ["-Wall", "-Wno-unused-result", "-Wno-unknown-pragmas", "-Wfatal-errors", "-fPIC",
              "-Ofast", "-DGPU"]
    common = ["-Iinclude/", "-DGPU", "-I/usr/local/cuda/include/"]  # the Makefile's, but -Isrc/
    commands = []
    for path in sorted(glob.glob(f"{src}/src/*.c") + glob.glob(f"{src}/src/*.cu")
                       + glob.glob(f"{src}/examples/*.c")):
        if path.endswith(".cu"):
            commands.append(entry(src, path, ["nvcc", *common, "--compiler-options",
                                              " ".join(cflags)]))
        else:
            commands.append(entry(src, path, ["gcc", *common, *cflags]))
    write_db(top, "darknet", commands)


def lidar_db(top):
    pp = f"{top}/srcs/lidar/CUDA-PointPillars"
    cp = f"{top}/srcs/lidar/Lidar_AI_Solution/CUDA-CenterPoint"
    commands = []

    def add(directory, path, inc, cxx_std):
        std = "-std=c++14" if path.endswith(".cu") else cxx_std
        commands.append(entry(directory, path, [NVCC if path.endswith(".cu") else "c++", std, *inc]))
    for path in sorted(glob.glob(f"{pp}/src/**/*.cu", recursive=True)
                       + glob.glob(f"{pp}/src/**/*.cpp", recursive=True)):
        add(pp, path, [f"-I{pp}/src", f"-I{pp}/src/pointpillar"], "-std=c++14")
    for path in [f"{cp}/main.cpp"] + sorted(glob.glob(f"{cp}/src/*.cu") + glob.glob(f"{cp}/src/*.cpp")):
        add(cp, path, [f"-I{cp}/3rdparty/libspconv/include", f"-I{cp}/include"], "-std=c++11")
    write_db(top, "lidar", commands)


def samples_dbs(top):
    root, first = f"{top}/srcs/cuda-samples", f"{top}/srcs/cuda-samples-first"
    args = [NVCC, "-std=c++17", "-ICommon"]
    folders = sorted({os.path.dirname(p)[len(root) + 1:] for p in glob.glob(f"{root}/Samples/*/*/*.cu")
                      + glob.glob(f"{root}/Samples/*/*/*.cpp")})
    drawn = sorted(random.Random(25).sample(folders, 40))
    write_db(top, "cuda-samples", [entry(root, p, args) for d in drawn for p in sorted(
        glob.glob(f"{root}/{d}/*.cu") + glob.glob(f"{root}/{d}/*.cpp"))])
    shutil.rmtree(first, ignore_errors=True)
    shutil.copytree(f"{root}/Common", f"{first}/Common")
    commands = []
    for path in FIRST_STUDY:
        sample = f"Samples/{path}"
        if not os.path.exists(f"{root}/{sample}"):
            sys.stderr.write(f"recreate.py: not in cuda-samples any more: {sample}\n")
            continue
        shutil.copytree(os.path.dirname(f"{root}/{sample}"), os.path.dirname(f"{first}/{sample}"))
        commands.append(entry(first, f"{first}/{sample}", args))
    write_db(top, "first-study", commands)


def command_line(argv, doc, sources_step, db_steps):
    """The command line of a sample's recreate script: GIT_ROOT TOP [sources] [dbs]; runs
    'sources_step(git_root, top)' and each of 'db_steps(top)' as asked ('doc': the script's
    docstring, whose second paragraph is its usage). Returns the exit status."""
    if len(argv) < 2:
        sys.stderr.write(doc.split("\n\n")[1] + "\n")
        return 2
    git_root, top = argv[0], os.path.abspath(argv[1])
    steps = argv[2:] or ["sources", "dbs"]
    if "sources" in steps:
        sources_step(git_root, top)
    if "dbs" in steps:
        for step in db_steps:
            step(top)
    return 0


def main(argv):
    if len(argv) < 2:
        sys.stderr.write(__doc__.split("\n\n")[1] + "\n")
        return 2
    git_root, top = os.path.abspath(argv[0]), os.path.abspath(argv[1])
    steps = argv[2:] or ["sources", "cmake", "dbs"]
    if "sources" in steps:
        sources(git_root, top)
    if "cmake" in steps:
        cmake_configures(top)
    if "dbs" in steps:
        cmake_dbs(top)
        for make in (rmm_db, kaldi_db, darknet_db, lidar_db, samples_dbs):
            make(top)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
