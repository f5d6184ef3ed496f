"""recreate_h12.py: the sources and compile databases of study-projects.txt's "held-out-12" rows,
made again as docs/studies/lint-realworld.md describes them ("Held-out projects, twelfth
sample").

Usage: python3 bench/lint-real/recreate_h12.py GIT_ROOT TOP [STEP...]

GIT_ROOT/OWNER/NAME is a git folder (a bare clone will do) of Celebrandil/CudaSift,
brichard19/BitCrack, js1010/cuhnsw and cuhnsw's two submodules, dropbox/json11 and gabime/spdlog.
TOP receives srcs/ (study.sh's SRC_ROOT), dbs/ (its DB_ROOT) and deps/ (Debian 12's OpenCV,
pybind11 and NumPy headers, unpacked, not installed). STEP: sources, dbs (default: both). Needs
git, apt-get and dpkg-deb and the CUDA toolkit at /usr/local/cuda; builds nothing, runs no
configure: each database is written from the project's build scripts.
"""
import glob
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import recreate  # noqa: E402  (checkout, run, write_db, entry)
import recreate_h10  # noqa: E402  (cxx17)
import recreate_h11  # noqa: E402  (unpack_debs)

NVCC = recreate.NVCC
CUDA_INCLUDE = "/usr/local/cuda/include"
SOURCES = [
    ("CudaSift", "Celebrandil/CudaSift", "5bc874af176224770da573eb0135b3494e553690"),
    ("BitCrack", "brichard19/BitCrack", "6bf8059ef075eb1622298395866b0bd02375e1d9"),
    ("cuhnsw", "js1010/cuhnsw", "7115e222a8b0406a5c371eff720f8280f335f2cc"),
]
SUBMODULES = [  # cuhnsw's, at the commits its tree records
    ("cuhnsw/3rd/json11", "dropbox/json11", "2df9473fb3605980db55ecddf34392a2e832ad35"),
    ("cuhnsw/3rd/spdlog", "gabime/spdlog", "aa2053a575f67abcc8f661ae5e1d5ee468142a1c"),
]
DEBS = ["libopencv-core-dev", "libopencv-imgproc-dev", "libopencv-highgui-dev",
        "libopencv-imgcodecs-dev", "libopencv-videoio-dev", "pybind11-dev", "python3-numpy"]


def sources(git_root, top):
    for folder, repo, commit in SOURCES:
        recreate.checkout(os.path.join(git_root, repo), commit, os.path.join(top, "srcs", folder))
    for folder, repo, commit in SUBMODULES:
        recreate.checkout(os.path.join(git_root, repo), commit, os.path.join(top, "srcs", folder))


def unpack_debs(top):
    """DEBS unpacked under TOP/deps/root (recreate_h11's way: nothing installed); returns
    that root."""
    return os.path.dirname(os.path.dirname(recreate_h11.unpack_debs(top, DEBS)))


def cudasift_db(top):
    """Its CMakeLists (FindCUDA's cuda_add_executable, OpenCV found by find_package), written
    out: the 3 .cu as FindCUDA's nvcc (CUDA_NVCC_FLAGS of the Linux branch, CMAKE_CXX_FLAGS to
    the host compiler), the 2 .cpp as c++ with OpenCV's include folder. Two changes the toolkit
    needs: '-arch=sm_35' (the OPTIONS) as sm_90, which CUDA 13 builds for, and the
    '-ccbin /usr/bin/gcc-6' of CUDA_NVCC_FLAGS left out (no such compiler here)."""
    src = os.path.join(top, "srcs", "CudaSift")
    build = os.path.join(src, "build")
    inc = os.path.join(unpack_debs(top), "usr", "include")
    opencv = ["-isystem", os.path.join(inc, "opencv4"),
              "-isystem", os.path.join(inc, "x86_64-linux-gnu", "opencv4")]
    commands = []
    nvcc = [NVCC, "-m64", "-Xcompiler", "-O2,-msse2", "-arch=sm_90", "-lineinfo",
            "--compiler-options", "-O2", "-D_FORCE_INLINES", "-DVERBOSE_NOT", "-DNVCC",
            "-I" + CUDA_INCLUDE, "-I" + src]
    for name in ["cudaImage.cu", "cudaSiftH.cu", "matching.cu"]:
        commands.append(recreate.entry(build, os.path.join(src, name), nvcc))
    cxx = ["/usr/bin/c++", "-I" + src, "-I" + CUDA_INCLUDE, *opencv, "-O2", "-msse2"]
    for name in ["geomFuncs.cpp", "mainSift.cpp"]:
        commands.append(recreate.entry(build, os.path.join(src, name), cxx))
    recreate.write_db(top, "CudaSift", commands)


BITCRACK_DIRS = ["util", "AddressUtil", "CmdParse", "CryptoUtil", "KeyFinderLib",
                 "CLKeySearchDevice", "CudaKeySearchDevice", "cudaMath", "clUtil", "cudaUtil",
                 "secp256k1lib", "Logger", "embedcl"]


def bitcrack_db(top):
    """The top Makefile's BUILD_CUDA=1 build (COMPUTE_CAP=90; OpenCL off), written from the
    folders' Makefiles, whose rules are shell loops that 'make -n' does not expand (and the top
    one recurses with a literal 'make'): each folder's .cpp as '${CXX} -c FILE ${INCLUDE}
    [-I${CUDA_INCLUDE}] ${CXXFLAGS}', CudaKeySearchDevice's .cu as '${NVCC} -c FILE ${NVCCFLAGS}
    -rdc=true ${INCLUDE} -I${CUDA_INCLUDE} -I${CUDA_MATH}', KeyFinder's and AddrGen's programs
    (one g++ line each over their .cpp files) with their link options left out."""
    src = os.path.join(top, "srcs", "BitCrack")
    include = ["-I" + os.path.join(src, d) for d in BITCRACK_DIRS]
    cxxflags = ["-O2", "-std=c++11"]
    nvccflags = ["-std=c++11", "-gencode=arch=compute_90,code=sm_90", "-Xptxas=-v",
                 "-Xcompiler", "-O2 -std=c++11"]
    rules = [  # folder, extra arguments before ${INCLUDE}, whether -I${CUDA_INCLUDE} follows
        ("AddressUtil", [], False), ("CmdParse", [], False), ("CryptoUtil", [], False),
        ("KeyFinderLib", [], True), ("KeyFinder", ["-DBUILD_CUDA"], True),
        ("secp256k1lib", [], False), ("util", [], False), ("Logger", [], False),
        ("AddrGen", [], True), ("CudaKeySearchDevice", [], True), ("cudaUtil", [], True)]
    commands = []
    for folder, extra, cuda in rules:
        cwd = os.path.join(src, folder)
        for path in sorted(glob.glob(os.path.join(cwd, "*.cpp"))):
            args = ["g++", *extra, *include, *(["-I" + CUDA_INCLUDE] if cuda else []), *cxxflags]
            commands.append(recreate.entry(cwd, path, args))
    cwd = os.path.join(src, "CudaKeySearchDevice")
    for path in sorted(glob.glob(os.path.join(cwd, "*.cu"))):
        args = [NVCC, *nvccflags, "-rdc=true", *include, "-I" + CUDA_INCLUDE,
                "-I" + os.path.join(src, "cudaMath")]
        commands.append(recreate.entry(cwd, path, args))
    recreate.write_db(top, "BitCrack", commands)


def cuhnsw_db(top):
    """Its setup.py's extension, written out: the .cu through cuda_setup.py's nvcc (CUDA_ARCH,
    CUDA_COMPUTE and CUDA_SM_LIST set to 90, which its tables need for CUDA 13), the .cc and
    json11.cpp through distutils' gcc with its extra_compile_args; -std=c++14 as -std=c++17, which
    CUDA 13's Thrust needs (cuhnsw.hpp includes it); pybind11 and NumPy from Debian 12's packages
    (unpacked), Python's headers from the machine."""
    src = os.path.join(top, "srcs", "cuhnsw")
    root = unpack_debs(top)
    includes = ["-Icpp/include/",
                "-I" + os.path.join(root, "usr/lib/python3/dist-packages/numpy/core/include"),
                "-I" + os.path.join(root, "usr", "include"), "-I" + CUDA_INCLUDE,
                "-I3rd/json11", "-I3rd/spdlog/include", "-I/usr/include/python3.11"]
    gcc = ["x86_64-linux-gnu-gcc", "-Wno-unused-result", "-Wsign-compare", "-DNDEBUG", "-g",
           "-fwrapv", "-O2", "-Wall", "-fPIC", *includes]
    post = ["-fopenmp", "-std=c++14", "-ggdb", "-O3", "-march=native"]
    nvcc_post = ["-arch=sm_90", "-gencode=arch=compute_90,code=sm_90",
                 "-gencode=arch=compute_90,code=compute_90", "--ptxas-options=-v", "-O2",
                 "--compiler-options", "-fPIC", "--compiler-options", "-std=c++14"]
    commands = []
    for path in sorted(glob.glob(os.path.join(src, "cpp", "src", "*.cu"))):
        commands.append(recreate.entry(src, path, [NVCC, *includes, *nvcc_post]))
    others = sorted(glob.glob(os.path.join(src, "cpp", "src", "*.cc")))
    others += [os.path.join(src, "cuhnsw", "bindings.cc"),
               os.path.join(src, "3rd", "json11", "json11.cpp")]
    for path in others:
        commands.append(recreate.entry(src, path, [*gcc, *post]))
    recreate.write_db(top, "cuhnsw", recreate_h10.cxx17(commands))


def main(argv):
    return recreate.command_line(argv, __doc__, sources, [cudasift_db, bitcrack_db, cuhnsw_db])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
