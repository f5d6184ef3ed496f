"""recreate_h14.py: the sources and compile databases of study-projects.txt's "held-out-14" rows,
made again as docs/studies/lint-realworld.md describes them ("Held-out projects, fourteenth
sample").

Usage: python3 bench/lint-real/recreate_h14.py GIT_ROOT TOP [STEP...]

GIT_ROOT/OWNER/NAME is a git folder (a bare clone will do) of GerhardR/kfusion, edrosten/TooN
(kfusion's submodule), nahmedraja/GASAL2 and pwlnk/cuda-neural-network. TOP receives srcs/
(study.sh's SRC_ROOT), dbs/ (its DB_ROOT), deps/ (TooN at kfusion's submodule commit, and Debian
12's libfreenect and libusb headers, unpacked, not installed) and build/ (kfusion's CMake
configure). STEP: sources, dbs (default: both). Needs git, cmake (3.25), ninja, make, apt-get,
dpkg-deb, freeglut's headers and library (freeglut3-dev) and the CUDA toolkit at
/usr/local/cuda; builds nothing.
"""
import glob
import os
import shlex
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import recreate  # noqa: E402  (checkout, run, write_db, load, entry, command_line)
import recreate_h8  # noqa: E402  (configure, findcuda_rows)
import recreate_h11  # noqa: E402  (unpack_debs)

CUDA = "/usr/local/cuda"
SOURCES = [
    ("kfusion", "GerhardR/kfusion", "242cf4b35fc2e89e33bdfd06ced69c69a1e5f832"),
    ("GASAL2", "nahmedraja/GASAL2", "106d94ee53fc847214fb05f2f9f892538a5d3baf"),
    ("cuda-neural-network", "pwlnk/cuda-neural-network",
     "9dffadac496c67a9008ae56b438f12be5b6d6553"),
]
# kfusion's submodule thirdparty/TooN, at the commit its tree names
TOON = ("edrosten/TooN", "66edf7933263fa5bd7baf4a14cb73a599c83fa5f")


def sources(git_root, top):
    for folder, repo, commit in SOURCES:
        recreate.checkout(os.path.join(git_root, repo), commit, os.path.join(top, "srcs", folder))
    recreate.checkout(os.path.join(git_root, TOON[0]), TOON[1],
                      os.path.join(top, "deps", "toon", "TooN"))


def kfusion_db(top):
    """CMake configure of its CMakeLists (FindCUDA: cuda_add_library of helpers.cu and kfusion.cu
    with OPTIONS -O3, cuda_add_executable of devicequery.cpp; with GLUT and libfreenect found,
    test.cpp, kinect.cpp and interface.cpp with -DLIBFREENECT_INTERFACE). It names no GPU
    architecture: -arch=sm_90 in CUDA_NVCC_FLAGS, as a user sets it. TooN from the submodule's
    commit; libfreenect's and libusb's headers from Debian 12, unpacked, libfreenect's in the
    include/libfreenect/ of its own install (the library's path is given, not searched for).
    The .cpp from CMake's database, the .cu as FindCUDA's rules."""
    src, build = os.path.join(top, "srcs", "kfusion"), os.path.join(top, "build", "kfusion")
    inc = recreate_h11.unpack_debs(top, ["libfreenect-dev", "libusb-1.0-0-dev"])
    lib = os.path.join(os.path.dirname(inc), "lib", "x86_64-linux-gnu", "libfreenect.so")
    # libfreenect installs its headers in include/libfreenect/, where kfusion and its
    # FindFreenect look for them; Debian puts them in include/ itself: copied to that layout
    freenect = os.path.join(top, "deps", "freenect", "include")
    os.makedirs(os.path.join(freenect, "libfreenect"), exist_ok=True)
    for header in sorted(glob.glob(os.path.join(inc, "libfreenect*.h"))):
        shutil.copy(header, os.path.join(freenect, "libfreenect"))
    recreate_h8.configure(src, build, [
        "-DCUDA_NVCC_FLAGS=-arch=sm_90",
        "-DTOON_INCLUDE_PATH=" + os.path.join(top, "deps", "toon"),
        "-DFREENECT_INCLUDE_PATH=" + freenect, "-DFREENECT_LIBRARY=" + lib,
        "-DLIBUSB1_INCLUDE_PATH=" + inc])
    commands = recreate.load(build) + recreate_h8.findcuda_rows(build)
    recreate.write_db(top, "kfusion", sorted(commands, key=lambda c: c["file"]))


def make_rows(src, make_args, directory):
    """The compile commands of 'make -n -B -C SRC MAKE_ARGS...': each g++ or nvcc line with
    '-c', run in DIRECTORY, its source file (the word ending in .cu or .cpp) and '-o' operand
    taken out as recreate.entry writes them, the other words as make writes them
    (recreate_h11.make_n_commands takes the word after '-c' for the file: GASAL2's lines put
    '-c' first and the file later)."""
    out = subprocess.run(["make", "-n", "-B", "-C", src, *make_args], check=True,
                         capture_output=True, text=True).stdout
    commands = []
    for line in out.splitlines():
        words = shlex.split(line)
        if not words or "-c" not in words or not words[0].endswith(("g++", "nvcc")):
            continue
        path = next(w for w in words if w.endswith((".cu", ".cpp")))
        args, skip = [], False
        for w in words:
            if skip:
                skip = False
            elif w == "-o":
                skip = True
            elif w not in ("-c", path):
                args.append(w)
        commands.append(recreate.entry(directory, os.path.join(directory, path), args))
    return commands


def gasal2_db(top):
    """Its configure.sh with the toolkit's folder (it writes nvcc's path into the Makefile and
    the path of cuda_runtime.h into src/gasal.h; it checks for the toolkit's files, not for a
    GPU), then the library's rules from 'make -n -B GPU_SM_ARCH=sm_90 MAX_QUERY_LEN=160
    N_CODE=0x4E libgasal.a' (the test program README's query length for its sample files, the
    README's code for N) and the test program's from its Makefile ('make -n -B test_prog.out'),
    which includes the headers the library's 'makedir' rule copies to include/ (copied here)."""
    src = os.path.join(top, "srcs", "GASAL2")
    recreate.run(["bash", "configure.sh", CUDA], cwd=src, stdout=subprocess.DEVNULL)
    os.makedirs(os.path.join(src, "include"), exist_ok=True)
    for header in sorted(glob.glob(os.path.join(src, "src", "*.h"))):
        shutil.copy(header, os.path.join(src, "include"))
    commands = make_rows(src, ["GPU_SM_ARCH=sm_90", "MAX_QUERY_LEN=160", "N_CODE=0x4E",
                               "libgasal.a"], src)
    test = os.path.join(src, "test_prog")
    commands += make_rows(test, ["test_prog.out"], test)
    recreate.write_db(top, "GASAL2", commands)


def cnn_db(top):
    """Its Eclipse Nsight project (cuda-neural-network/.cproject), the Release configuration:
    nvcc with its optimization level 'most' (-O3) over every .cu under src/, run in the project's
    Release folder, as Nsight's generated makefiles do (no include path, no language standard:
    the sources include each other by relative paths, and CUDA 13's nvcc defaults to C++17,
    which meets the README's "C++11 support has to be enabled"). It sets no GPU architecture:
    -arch=sm_90. The project's second Nsight project (cuda-neural-network-test, gtest unit
    tests) is left out."""
    root = os.path.join(top, "srcs", "cuda-neural-network", "cuda-neural-network")
    build = os.path.join(root, "Release")
    nvcc = [recreate.NVCC, "-O3", "-arch=sm_90"]
    files = sorted(glob.glob(os.path.join(root, "src", "**", "*.cu"), recursive=True))
    recreate.write_db(top, "cuda-neural-network", [recreate.entry(build, f, nvcc) for f in files])


def main(argv):
    return recreate.command_line(argv, __doc__, sources, [kfusion_db, gasal2_db, cnn_db])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
