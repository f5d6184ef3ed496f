"""recreate_h13.py: the sources and compile databases of study-projects.txt's "held-out-13" rows,
made again as docs/studies/lint-realworld.md describes them ("Held-out projects, thirteenth
sample").

Usage: python3 bench/lint-real/recreate_h13.py GIT_ROOT TOP [STEP...]

GIT_ROOT/OWNER/NAME is a git folder (a bare clone will do) of zhxfl/CUDA-CNN, JeanLucPons/Kangaroo,
wilicc/gpu-burn and NVIDIA/cuda-samples. TOP receives srcs/ (study.sh's SRC_ROOT), dbs/ (its
DB_ROOT) and deps/ (cuda-samples' Common/, the helper headers CUDA-CNN includes, and Debian 12's
OpenCV headers, unpacked, not installed). STEP: sources, dbs (default: both). Needs git, make,
apt-get, dpkg-deb and the CUDA toolkit at /usr/local/cuda; builds nothing, runs no configure:
each database is written from the project's build scripts.
"""
import glob
import os
import shlex
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import recreate  # noqa: E402  (checkout, write_db, entry, command_line)
import recreate_h11  # noqa: E402  (make_n_commands, unpack_debs)

NVCC = recreate.NVCC
CUDA = "/usr/local/cuda"
SOURCES = [
    ("CUDA-CNN", "zhxfl/CUDA-CNN", "c843bb2861e4daec823870d8421318355ebd4afd"),
    ("Kangaroo", "JeanLucPons/Kangaroo", "37576c82d198c20fca65b14da74138ae6153a446"),
    ("gpu-burn", "wilicc/gpu-burn", "3ead140434da9473582b68452f7115967a7a0581"),
]
# helper_cuda.h and helper_functions.h, which toolkits before CUDA 11.6 installed under
# samples/common/inc and CUDA 13 does not: the samples' Common/ at the commit of recreate.py
SAMPLES = ("NVIDIA/cuda-samples", "c94ff366aed18c797b8a85dfaac7817b0228b420")
# the modules whose headers opencv2/opencv.hpp includes (net.cu and common/util.h include it),
# as Debian 12's opencv_modules.hpp lists them
OPENCV = ["core", "calib3d", "features2d", "dnn", "flann", "highgui", "imgcodecs", "imgproc",
          "ml", "objdetect", "photo", "stitching", "video", "videoio"]


def sources(git_root, top):
    for folder, repo, commit in SOURCES:
        recreate.checkout(os.path.join(git_root, repo), commit, os.path.join(top, "srcs", folder))
    recreate.checkout(os.path.join(git_root, SAMPLES[0]), SAMPLES[1],
                      os.path.join(top, "deps", "cuda-samples"), ["Common"])


def cudacnn_db(top):
    """Its CMakeLists (FindCUDA's cuda_add_executable over the glob of readData/, layers/,
    dataAugmentation/, common/, main.cpp and net.*), written out: the .cu as FindCUDA's nvcc
    (CUDA_NVCC_FLAGS: its -gencode list, sm_20 to sm_50, as compute_90/sm_90, which CUDA 13
    builds for; -rdc=true; CMAKE_CXX_FLAGS to the host compiler through -Xcompiler), the .cpp as
    c++ with CMAKE_CXX_FLAGS. Include folders: the toolkit's; its '../samples/common/inc', gone
    since CUDA 11.6 (the samples' Common/ of SAMPLES in its place); OpenCV's, which its
    find_package(OpenCV REQUIRED) gives and common/util.h, net.cu, DataLayer.cu and the readers
    use (Debian 12's 4.6 headers, unpacked); the source root."""
    src = os.path.join(top, "srcs", "CUDA-CNN")
    build = os.path.join(src, "build")
    inc = recreate_h11.unpack_debs(top, ["libopencv-%s-dev" % m for m in OPENCV])
    includes = ["-I" + CUDA + "/include",
                "-I" + os.path.join(top, "deps", "cuda-samples", "Common"),
                "-I" + os.path.join(inc, "opencv4"),
                "-I" + os.path.join(inc, "x86_64-linux-gnu", "opencv4"), "-I" + src]
    nvcc = [NVCC, "-m64", "-Xcompiler", "-O3,-g,-rdynamic", "-gencode",
            "arch=compute_90,code=sm_90", "-rdc=true", "-DNVCC", *includes]
    cxx = ["/usr/bin/c++", *includes, "-O3", "-g", "-rdynamic"]
    files = []
    for pattern in ["readData/*", "layers/*", "dataAugmentation/*", "common/*", "main.cpp",
                    "net.*"]:
        files += sorted(glob.glob(os.path.join(src, pattern)))
    commands = []
    for path in files:
        if path.endswith(".cu"):
            commands.append(recreate.entry(build, path, nvcc))
        elif path.endswith(".cpp"):
            commands.append(recreate.entry(build, path, cxx))
    recreate.write_db(top, "CUDA-CNN", commands)


def kangaroo_db(top):
    """Its Makefile's gpu=1 build (ccap=90, CUDA at /usr/local/cuda, g++ as nvcc's host
    compiler), from 'make -n -B ... all': its g++ and nvcc lines."""
    src = os.path.join(top, "srcs", "Kangaroo")
    commands = recreate_h11.make_n_commands(src, ["gpu=1", "ccap=90", "CUDA=" + CUDA,
                                                  "CXXCUDA=/usr/bin/g++", "all"])
    recreate.write_db(top, "Kangaroo", commands)


def gpuburn_db(top):
    """Its Makefile's build (COMPUTE=90, CUDAPATH=/usr/local/cuda), from 'make -n -B ...
    gpu_burn': the g++ line of gpu_burn-drv.cpp and the nvcc line that makes compare.fatbin
    (its 'PATH=...' prefix left out), each as make writes it."""
    src = os.path.join(top, "srcs", "gpu-burn")
    out = subprocess.run(["make", "-n", "-B", "-C", src, "COMPUTE=90", "CUDAPATH=" + CUDA,
                          "gpu_burn"], check=True, capture_output=True, text=True).stdout
    commands = []
    for line in out.splitlines():
        words = [w for w in shlex.split(line) if not w.startswith("PATH=")]
        name = next((w for w in words if w.endswith((".cpp", ".cu"))), None)
        if words and name and ("-c" in words or "-fatbin" in words):
            commands.append({"directory": src, "file": os.path.join(src, name),
                             "arguments": words})
    recreate.write_db(top, "gpu-burn", commands)


def main(argv):
    return recreate.command_line(argv, __doc__, sources, [cudacnn_db, kangaroo_db, gpuburn_db])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
