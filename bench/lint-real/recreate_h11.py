"""recreate_h11.py: the sources and compile databases of study-projects.txt's "held-out-11" rows,
made again as docs/studies/lint-realworld.md describes them ("Held-out projects, eleventh
sample").

Usage: python3 bench/lint-real/recreate_h11.py GIT_ROOT TOP [STEP...]

GIT_ROOT/OWNER/NAME is a git folder (a bare clone will do) of ethereum-mining/ethminer,
chfast/ethash, zhihu/cuBERT and JeanLucPons/VanitySearch. TOP receives srcs/ (study.sh's
SRC_ROOT), dbs/ (its DB_ROOT), deps/ (ethminer's dependencies) and build/ (cuBERT's CMake
configure, ethminer's generated header). STEP: sources, dbs (default: both). Needs git, cmake
(3.25), ninja, make, apt-get and dpkg-deb (Debian 12's boost 1.74, jsoncpp and CLI11 headers
are unpacked under TOP/deps, not installed) and the CUDA toolkit at /usr/local/cuda; builds
nothing.
"""
import glob
import os
import re
import shlex
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import recreate  # noqa: E402  (checkout, run, write_db, load, entry)
import recreate_h8  # noqa: E402  (findcuda_rows)
import recreate_h10  # noqa: E402  (cxx17)

NVCC = recreate.NVCC
SOURCES = [
    ("ethminer", "ethereum-mining/ethminer", "8eaf50ab3baad9a1747e04dc295793d46740dcae"),
    ("cuBERT", "zhihu/cuBERT", "4ed413dc20a9e22be30f9fa2c4b5e5f227be912a"),
    ("VanitySearch", "JeanLucPons/VanitySearch", "c8d48ce5f03f5357c0e87cbdb3e1e93cd50af88b"),
]
ETHASH = ("ethash", "chfast/ethash", "441af9009ba581a7ffd01e60426c271f72c81b64")  # v0.4.3, as Hunter gave ethminer 0.19
DEBS = ["libboost1.74-dev", "libjsoncpp-dev", "libcli11-dev"]  # Debian 12's, headers only


def sources(git_root, top):
    for folder, repo, commit in SOURCES:
        recreate.checkout(os.path.join(git_root, repo), commit, os.path.join(top, "srcs", folder))
    folder, repo, commit = ETHASH
    recreate.checkout(os.path.join(git_root, repo), commit, os.path.join(top, "deps", folder))


def unpack_debs(top, names=DEBS):
    """The headers ethminer's Hunter would have downloaded (or the packages NAMES), from
    Debian's packages, unpacked under TOP/deps/root (nothing installed on the machine); returns
    its usr/include."""
    debs, root = os.path.join(top, "deps", "debs"), os.path.join(top, "deps", "root")
    os.makedirs(debs, exist_ok=True)
    for name in names:
        if not glob.glob(os.path.join(debs, name + "_*.deb")):
            recreate.run(["apt-get", "download", name], cwd=debs, stdout=subprocess.DEVNULL)
    for deb in sorted(glob.glob(os.path.join(debs, "*.deb"))):
        recreate.run(["dpkg-deb", "-x", deb, root])
    return os.path.join(root, "usr", "include")


BUILDINFO_H = """/* what cable's cable_add_buildinfo_library writes (its submodule is not in the clone) */
#pragma once
#ifdef __cplusplus
extern "C" {
#endif
struct buildinfo {
    const char* project_name; const char* project_version; const char* project_name_with_version;
    const char* git_commit_hash; const char* system_name; const char* system_processor;
    const char* compiler_id; const char* compiler_version; const char* build_type;
};
const struct buildinfo* ethminer_get_buildinfo(void);
#ifdef __cplusplus
}
#endif
"""


def ethminer_db(top):
    """The CUDA build (ETHASHCUDA on; the OpenCL and CPU miners off; APICORE and BINKERN on, the
    defaults), written from the CMakeLists: its configure downloads Boost, jsoncpp, OpenSSL,
    ethash and CLI11 through Hunter and needs the cable submodule. Each library's .cpp files as
    its CMakeLists globs or lists them, g++ -std=c++11 (cable's cxx11 toolchain) with the
    project's warning flags; the .cu as FindCUDA's nvcc (COMPUTE=90)."""
    src, build = os.path.join(top, "srcs", "ethminer"), os.path.join(top, "build", "ethminer")
    inc = unpack_debs(top)
    os.makedirs(os.path.join(build, "ethminer"), exist_ok=True)
    with open(os.path.join(build, "ethminer", "buildinfo.h"), "w") as f:
        f.write(BUILDINFO_H)
    defines = ["-DETH_ETHASHCUDA", "-DAPI_CORE", "-DBIN_KERN", "-DNDEBUG"]
    system = ["-isystem", os.path.join(top, "deps", "ethash", "include"), "-isystem", inc,
              "-isystem", os.path.join(inc, "jsoncpp"), "-isystem", "/usr/local/cuda/include"]
    includes = ["-I" + src, "-I" + build]
    cxx = ["/usr/bin/c++", *defines, *includes, *system, "-Wall", "-Wno-unknown-pragmas",
           "-Wextra", "-Wno-error=parentheses", "-pedantic", "-ffunction-sections",
           "-fdata-sections", "-O3", "-std=c++11"]
    commands = []
    for folder in ["libdevcore", "libethcore", "libhwmon", "libpoolprotocols", "libapicore",
                   "ethminer", "libethash-cuda"]:
        for path in sorted(glob.glob(os.path.join(src, folder, "**", "*.cpp"), recursive=True)):
            commands.append(recreate.entry(os.path.join(build, folder), path, cxx))
    nvcc = [NVCC, "--ptxas-options=-v", "-use_fast_math", "--disable-warnings", "-O3",
            "-gencode", "arch=compute_90,code=sm_90", *defines, "-Xcompiler", "-O3", *includes,
            *system]
    kernel = os.path.join(src, "libethash-cuda", "ethash_cuda_miner_kernel.cu")
    commands.append(recreate.entry(os.path.join(build, "libethash-cuda"), kernel, nvcc))
    recreate.write_db(top, "ethminer", commands)


def cubert_db(top):
    """CMake configure with the GPU on (FindCUDA's cuda_add_library): the library and its
    benchmark programs; the tests left out, and the *.pb-c.c that protobuf-c generates at build
    time (absent). cub 1.8, utf8proc, protobuf-c and googletest are ExternalProjects (downloaded
    at build time: absent), so the toolkit's CUB is used and the generated *.pb-c.h are missing."""
    src, build = os.path.join(top, "srcs", "cuBERT"), os.path.join(top, "build", "cuBERT")
    recreate_h10.configure(src, build, ["-DcuBERT_ENABLE_GPU=ON", "-DCUDA_ARCH_NAME=9.0"])
    commands = recreate.load(build) + recreate_h8.findcuda_rows(build)
    commands = [c for c in commands if "/test/" not in c["file"] and "pb-c.c" not in c["file"]]
    recreate.write_db(top, "cuBERT", recreate_h10.cxx17(commands))


def make_n_commands(src, make_args):
    """The compile commands of 'make -n -B -C SRC MAKE_ARGS...': its g++ and nvcc lines with
    '-c', each as an entry run in SRC (the '-c' and '-o' operands taken out, as recreate.entry
    writes them)."""
    out = subprocess.run(["make", "-n", "-B", "-C", src, *make_args], check=True,
                         capture_output=True, text=True).stdout
    commands = []
    for line in out.splitlines():
        words = shlex.split(line)
        if " -c " not in line or not words or not re.search(r"(g\+\+|nvcc)$", words[0]):
            continue
        args, path, skip = [], None, False
        for i, w in enumerate(words):
            if skip:
                skip = False
            elif w in ("-c", "-o"):
                path = os.path.join(src, words[i + 1]) if w == "-c" else path
                skip = True
            else:
                args.append(w)
        commands.append(recreate.entry(src, path, args))
    return commands


def vanitysearch_db(top):
    """The Makefile's gpu=1 build (CCAP=9.0, CUDA at /usr/local/cuda, g++ as nvcc's host
    compiler), from 'make -n -B ... all': its g++ and nvcc lines (the Makefile's first rule
    is GPUEngine.o's, so the target is named)."""
    src = os.path.join(top, "srcs", "VanitySearch")
    commands = make_n_commands(src, ["gpu=1", "CCAP=9.0", "CUDA=/usr/local/cuda",
                                     "CXXCUDA=/usr/bin/g++", "all"])
    recreate.write_db(top, "VanitySearch", commands)


def main(argv):
    return recreate.command_line(argv, __doc__, sources, [ethminer_db, cubert_db, vanitysearch_db])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
