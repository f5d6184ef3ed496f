"""recreate_h25.py: the sources and compile databases of study-projects.txt's "held-out-25" rows,
made again as docs/studies/lint-realworld.md describes them ("Held-out-25").

Usage: python3 bench/lint-real/recreate_h25.py GIT_ROOT TOP [STEP...]

GIT_ROOT/OWNER/NAME is a git folder (a bare clone will do) of quantumlib/qsim, serban/kmeans,
harrism/mini-nbody, UoB-HPC/arch and UoB-HPC/hot. TOP receives srcs/ (study.sh's SRC_ROOT; hot
in srcs/arch/hot, inside its framework) and dbs/ (its DB_ROOT). STEP: sources, dbs (default:
both). Needs git, make and the CUDA toolkit at /usr/local/cuda; builds nothing.
"""
import os
import shlex
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import recreate  # noqa: E402  (write_db, entry, run, command_line, NVCC)
import recreate_h16  # noqa: E402  (rows)
import recreate_h17  # noqa: E402  (sources, make_rows)

SOURCES = [
    ("qsim", "quantumlib/qsim", "502b4a3774834ca866c633777b4c7bf8fee1d25e"),
    ("kmeans", "serban/kmeans", "83e76bf685b62ea4fae37bfc82ecd3a2e2356288"),
    ("mini-nbody", "harrism/mini-nbody", "38fda6717eb2f5ae1a4c59e66a1150f5881b7fad"),
    # hot builds inside the arch framework (its README: hot cloned into arch/hot), the framework
    # at its last commit before hot's
    ("arch", "UoB-HPC/arch", "f19d9325d993bd31fc348b648db8dc49b77593d7"),
    ("arch/hot", "UoB-HPC/hot", "5c07d5c261fbce770b1cd901c0fa2169e7f824cb"),
]


def sources(git_root, top):
    recreate_h17.sources(git_root, top, SOURCES)


def qsim_db(top):
    """Its top Makefile's target qsim-cuda with CUDAARCHS=90 (the Makefile's way to name the
    architectures; -arch=native without it) and PYBIND11=false: the compile lines of make -n -B,
    which make -C apps/ runs in apps/: one nvcc line a program (compile and link at once, no -c),
    qsim_base_cuda.cu and qsim_qtrajectory_cuda.cu. cuStateVec's programs (not in this target)
    and the tests (gtest) left out."""
    src = os.path.join(top, "srcs", "qsim")
    env = dict(os.environ, CUDAARCHS="90")
    out = subprocess.run(["make", "-n", "-B", "-C", src, "qsim-cuda", "PYBIND11=false"],
                         check=True, capture_output=True, text=True, env=env).stdout
    commands = []
    for line in out.splitlines():
        words = shlex.split(line)
        if words and words[0] == "nvcc":
            commands += recreate_h16.rows(os.path.join(src, "apps"), words)
    recreate.write_db(top, "qsim", commands)


def kmeans_db(top):
    """Its Makefile's target cuda (cuda_main.cu, cuda_io.cu, cuda_wtime.cu and cuda_kmeans.cu,
    each with nvcc and the Makefile's flags): the compile lines of make -n -B cuda."""
    recreate_h17.make_rows(top, "kmeans", ["cuda"], {"nvcc": recreate.NVCC})


def nbody_db(top):
    """No Makefile: each unit's compile line from its own cuda/shmoo-cuda-nbody-*.sh script, run
    in cuda/ (nvcc -arch=sm_35 [-ftz=true] -I../ -DSHMOO: -ftz=true in the block and unroll
    scripts, not in the orig and soa ones; the ftz script builds nbody-soa.cu again with it, left
    out as a second line of the same unit)."""
    src = os.path.join(top, "srcs", "mini-nbody", "cuda")
    ftz = {"nbody-block.cu": True, "nbody-orig.cu": False, "nbody-soa.cu": False,
           "nbody-unroll.cu": True}
    commands = []
    for unit, flush in ftz.items():
        args = [recreate.NVCC, "-arch=sm_35", *(["-ftz=true"] if flush else []), "-I../",
                "-DSHMOO"]
        commands.append(recreate.entry(src, os.path.join(src, unit), args))
    recreate.write_db(top, "mini-nbody", commands)


def hot_db(top):
    """Its Makefile with KERNELS=cuda, COMPILER=GCC, MPI=no and DECOMP=TILES (its defaults) and
    CUDA_PATH=/usr/local/cuda, run in arch/hot: the compile lines of make -n -B (nvcc for
    cuda/hot.cu and arch's cuda/*.cu, gcc for hot's C units and arch's, main.c among them), each
    from the folder make runs in; the database named hot."""
    src = os.path.join(top, "srcs", "arch", "hot")
    out = subprocess.run(["make", "-n", "-B", "-C", src, "CUDA_PATH=/usr/local/cuda"],
                         check=True, capture_output=True, text=True).stdout
    commands = []
    for line in out.splitlines():
        words = shlex.split(line)
        if words and words[0] in ("nvcc", "gcc") and "-c" in words:
            commands += recreate_h16.rows(src, words)
    for command in commands:  # arch's units, named ../X by the Makefile, as plain paths
        path = os.path.normpath(command["file"])
        command["arguments"] = [path if a == command["file"] else a for a in command["arguments"]]
        command["file"] = path
    recreate.write_db(top, "hot", commands)


def main(argv):
    return recreate.command_line(argv, __doc__, sources,
                                 [qsim_db, kmeans_db, nbody_db, hot_db])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
