"""recreate_h16.py: the sources and compile databases of study-projects.txt's "held-out-16" rows,
made again as docs/studies/lint-realworld.md describes them ("Held-out projects, sixteenth
sample").

Usage: python3 bench/lint-real/recreate_h16.py GIT_ROOT TOP [STEP...]

GIT_ROOT/OWNER/NAME is a git folder (a bare clone will do) of zeux/calm, farkhor/CuSha and
mgawan/ADEPT. TOP receives srcs/ (study.sh's SRC_ROOT), dbs/ (its DB_ROOT) and build/ (the CMake
configure of ADEPT). STEP: sources, dbs (default: both). Needs git, cmake (3.25), ninja, make
and the CUDA toolkit at /usr/local/cuda; builds nothing.
"""
import os
import shlex
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import recreate  # noqa: E402  (checkout, write_db, load, entry, command_line)
import recreate_h8  # noqa: E402  (configure)

SOURCES = [
    ("calm", "zeux/calm", "cab0b7b44965e7deeb12a6a188b7d64ce224498e"),
    ("CuSha", "farkhor/CuSha", "e753734098645d7e1ad103d6f7f6018cb085b7bf"),
    ("ADEPT", "mgawan/ADEPT", "4f17274dc98bb68c8bab12ba2bcb2653eac1f08d"),
]
UNITS = (".cu", ".c", ".cpp")


def sources(git_root, top):
    for folder, repo, commit in SOURCES:
        recreate.checkout(os.path.join(git_root, repo), commit, os.path.join(top, "srcs", folder))


def rows(directory, words):
    """One entry per source file a compile line names: the line's other words (the '-o' operand
    and '-c' taken out), each file alone, as recreate.entry writes them."""
    paths = [w for w in words if w.endswith(UNITS)]
    output = {i + 1 for i, w in enumerate(words) if w == "-o"}
    args = [recreate.NVCC if w == "nvcc" else w for i, w in enumerate(words)
            if w not in ("-c", "-o") and w not in paths and i not in output]
    return [recreate.entry(directory, os.path.join(directory, p), args) for p in paths]


def calm_db(top):
    """Its Makefile, the default target on Linux (the run program: src/*.c with cc, src/infer.cu
    with nvcc and its own -gencode flags): the compile lines of 'make -n -B' in its folder, run
    there. tools/cudaprof.cu (a CUPTI profiling library, not in the default target) left out."""
    src = os.path.join(top, "srcs", "calm")
    out = subprocess.run(["make", "-n", "-B", "-C", src], check=True, capture_output=True,
                         text=True).stdout
    commands = []
    for line in out.splitlines():
        words = shlex.split(line)
        if words and words[0] in ("cc", "nvcc") and "-c" in words:
            commands += rows(src, words)
    recreate.write_db(top, "calm", commands)


def cusha_db(top):
    """Its build script, sfBuild.sh: one nvcc line over all its units (-O3 -arch=sm_35), run in
    its folder; one entry per unit with that line's flags."""
    src = os.path.join(top, "srcs", "CuSha")
    with open(os.path.join(src, "sfBuild.sh")) as f:
        line = next(x for x in f if x.startswith("nvcc "))
    recreate.write_db(top, "CuSha", rows(src, shlex.split(line)))


def adept_db(top):
    """A CMake configure of its CMakeLists with its defaults (the adept library, its .cpp
    compiled as CUDA for CUDA_ARCHITECTURES 50 60 70 80 as it sets them, and the examples;
    its tests run the examples and build nothing; ADEPT_USE_PYTHON off): CMake's database."""
    src, build = os.path.join(top, "srcs", "ADEPT"), os.path.join(top, "build", "ADEPT")
    recreate_h8.configure(src, build, [])
    recreate.write_db(top, "ADEPT", recreate.load(build))


def main(argv):
    return recreate.command_line(argv, __doc__, sources, [calm_db, cusha_db, adept_db])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
