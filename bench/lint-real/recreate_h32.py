"""recreate_h32.py: the sources and compile databases of study-projects.txt's "held-out-32" rows,
made again as docs/studies/lint-realworld.md describes them ("Held-out-32").

Usage: python3 bench/lint-real/recreate_h32.py GIT_ROOT TOP [STEP...]

GIT_ROOT/OWNER/NAME is a git folder (a bare clone will do) of LLNL/zfp, kokkos/kokkos,
LLNL/sundials and of the addendum's ginkgo-project/ginkgo, ggml-org/whisper.cpp, gromacs/gromacs,
hypre-space/hypre and QuEST-Kit/QuEST. TOP receives srcs/ (study.sh's SRC_ROOT), dbs/ (its
DB_ROOT) and build/ (the CMake configures). STEP: sources, dbs (default: both). Needs git, CMake
3.25 (which still has FindCUDA), ninja and the CUDA toolkit at /usr/local/cuda; builds nothing,
downloads nothing. The dbs step edits one file of the sources: gromacs' top CMakeLists.txt asks
for CMake 3.28, lowered to 3.25 (gromacs_db).
"""
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import recreate  # noqa: E402  (write_db, load, command_line, run, NVCC)
import recreate_h17  # noqa: E402  (sources)
from recreate_h8 import findcuda_rows  # noqa: E402

SOURCES = [
    ("zfp", "LLNL/zfp", "da9a8349ab200890b169b90ecde2b8a6a6fc6de8"),
    ("kokkos", "kokkos/kokkos", "28848dfa8fc1411873b6a663c4d29ba05712510e"),
    # the blobs the clone lacks (large figures of doc/) and the submodules
    # external/sundials-addon-example and test/answers are not read by the build: left out
    ("sundials", "LLNL/sundials", "c8dabcea90ca8bf195474da120e4f3dd39aa711f"),
    # the addendum, one at a time after the first three gave 0 warnings, in the draw's order:
    # gunrock/gunrock, neka-nat/cupoch and NVlabs/nvdiffrast skipped before ginkgo,
    # lammps/lammps before whisper.cpp, glotzerlab/hoomd-blue after QuEST (the list's end).
    # ginkgo: the blobs the clone lacks (three test matrices of matrices/test/, 4 MiB and more)
    # are read only by the tests' configure
    ("ginkgo", "ginkgo-project/ginkgo", "591cd136b603d47669e53ec5264ff9ed59231682"),
    ("whisper.cpp", "ggml-org/whisper.cpp", "233fe1fc9b48a09e361d3594520838ca266537fe"),
    ("gromacs", "gromacs/gromacs", "b1a82ec1956eb9658d33f3ec6f3adfdbb6b53a7b"),
    ("hypre", "hypre-space/hypre", "0854739e5136f7b850b29eaaf609ec9df6c8307a"),
    ("QuEST", "QuEST-Kit/QuEST", "4d44ec81debdae20cb6ae988e400bf606180a65e"),
]
# units drawn from each very large project (random.Random(32).sample over the sorted paths), as
# MFEM's row drew 60
GINKGO_DRAW = WHISPER_DRAW = GROMACS_DRAW = HYPRE_DRAW = 60

def sources(git_root, top):
    recreate_h17.sources(git_root, top, SOURCES)


def configure(src, build, options):
    os.makedirs(build, exist_ok=True)
    recreate.run(["cmake", "-S", src, "-B", build, "-G", "Ninja", "-DCMAKE_BUILD_TYPE=Release",
                  "-DCMAKE_EXPORT_COMPILE_COMMANDS=ON", "-Wno-dev", *options],
                 stdout=subprocess.DEVNULL)


def first_of_each(rows):
    kept, seen = [], set()
    for row in rows:
        if row["file"] not in seen:
            seen.add(row["file"])
            kept.append(row)
    return kept


def zfp_db(top):
    """Its CMake configure (Release, Ninja) with its own ZFP_WITH_CUDA=ON (FindCUDA; no
    architecture named, so nvcc's default); its other options as they default (the library,
    the zfp utility, testzfp and testviews). Its CUDA back end: src/cuda_zfp/cuZFP.cu from
    FindCUDA's generated *.cu.o.Release.cmake script (cuda_wrap_srcs in src/CMakeLists.txt) and
    src/zfp.c, the library's dispatch, which includes template/cudacompress.c and
    cudadecompress.c (the calls into cuZFP), from CMake's database. The other C units (the CPU
    encoders and decoders), the utility and the two tests do not use CUDA: left out."""
    src = os.path.join(top, "srcs", "zfp")
    build = os.path.join(top, "build", "zfp")
    configure(src, build, ["-DZFP_WITH_CUDA=ON"])
    dispatch = os.path.join(src, "src", "zfp.c")
    host = [row for row in recreate.load(build) if row["file"] == dispatch]
    recreate.write_db(top, "zfp", first_of_each(findcuda_rows(build)) + first_of_each(host))


def kokkos_db(top):
    """Its CMake configure (Release, Ninja, nvcc 13) with Kokkos_ENABLE_CUDA=ON,
    Kokkos_ENABLE_COMPILE_AS_CMAKE_LANGUAGE=ON (its own switch: the units compiled as CMake's CUDA
    language, by nvcc, rather than by its nvcc_wrapper as the C++ compiler) and
    Kokkos_ARCH_HOPPER90=ON (without an architecture the configure stops: "CUDA enabled but no
    NVIDIA GPU architecture currently enabled and auto-detection failed"; there is no GPU here);
    its other options as they default (core, containers, algorithms, simd; no tests, examples or
    benchmarks). CMake's database: the library's 24 units, each a .cpp that nvcc compiles; the
    generated Kokkos_Version_Info.cpp (host only, in the build folder) left out."""
    src = os.path.join(top, "srcs", "kokkos")
    build = os.path.join(top, "build", "kokkos")
    configure(src, build, ["-DCMAKE_CUDA_COMPILER=" + recreate.NVCC, "-DKokkos_ENABLE_CUDA=ON",
                           "-DKokkos_ENABLE_COMPILE_AS_CMAKE_LANGUAGE=ON",
                           "-DKokkos_ARCH_HOPPER90=ON"])
    rows = [row for row in first_of_each(recreate.load(build))
            if row["file"].startswith(os.path.join(src, ""))]
    recreate.write_db(top, "kokkos", rows)


def sundials_db(top):
    """Its CMake configure (Release, Ninja, nvcc 13) with its own ENABLE_CUDA=ON (CMake's CUDA
    language; CMAKE_CUDA_ARCHITECTURES as CMake defaults it for nvcc 13, 75); its other options
    as they default (64-bit indices, so the cuSPARSE matrix and cuSOLVER solver, which need
    32-bit ones, are not built; the C and CUDA examples on). CMake's database, the units nvcc
    compiles, each file once: the CUDA vector (nvector_cuda.cu) and memory helper
    (sundials_cuda_memory.cu) of the library and the four CUDA examples of CVODE and IDA. The
    C units (the integrators and the other modules, the C examples) call no CUDA: left out."""
    src = os.path.join(top, "srcs", "sundials")
    build = os.path.join(top, "build", "sundials")
    configure(src, build, ["-DCMAKE_CUDA_COMPILER=" + recreate.NVCC, "-DENABLE_CUDA=ON"])
    rows = [row for row in first_of_each(recreate.load(build)) if row["file"].endswith(".cu")]
    recreate.write_db(top, "sundials", rows)


def ginkgo_db(top):
    """Its CMake configure (Release, Ninja, nvcc 13; CUDA found, so GINKGO_BUILD_CUDA on, its
    default; OpenMP on; no MPI here) with GINKGO_CUDA_ARCHITECTURES=90 (its default, Auto, asks
    the GPU; there is none here) and three of its own switches off: GINKGO_BUILD_BENCHMARKS (its
    configure clones gflags from GitHub), GINKGO_BUILD_EXAMPLES (nlohmann_json, cloned the same
    way) and GINKGO_BUILD_TESTS (its configure copies test matrices the clone lacks). The
    library's units in the source tree (core, reference, omp, cuda, common/cuda_hip, devices,
    the SuiteSparse wrappers: 343), the instantiation units the configure generates into the
    build folder left out; over this study's ~150, so GINKGO_DRAW of them,
    random.Random(32).sample over the sorted paths (recreate.draw)."""
    src = os.path.join(top, "srcs", "ginkgo")
    build = os.path.join(top, "build", "ginkgo")
    configure(src, build, ["-DCMAKE_CUDA_COMPILER=" + recreate.NVCC,
                           "-DGINKGO_CUDA_ARCHITECTURES=90", "-DGINKGO_BUILD_BENCHMARKS=OFF",
                           "-DGINKGO_BUILD_EXAMPLES=OFF", "-DGINKGO_BUILD_TESTS=OFF"])
    recreate.write_db(top, "ginkgo", recreate.draw(recreate.load(build), src + "/", 32,
                                                   GINKGO_DRAW))


def whisper_db(top):
    """Its CMake configure (Release, Ninja, nvcc 13) with its own GGML_CUDA=ON and
    CMAKE_CUDA_ARCHITECTURES=90 (under GGML_NATIVE, on by default, its default is "native",
    which asks the GPU; there is none here); its other options as they default (a standalone
    build: the examples, the server and the tests on). CMake's database, each file once: 185
    units (ggml's base, CPU and CUDA back ends, whisper's library, the examples and tests); over
    this study's ~150, so WHISPER_DRAW of them, random.Random(32).sample over the sorted paths
    (recreate.draw)."""
    src = os.path.join(top, "srcs", "whisper.cpp")
    build = os.path.join(top, "build", "whisper.cpp")
    configure(src, build, ["-DCMAKE_CUDA_COMPILER=" + recreate.NVCC, "-DGGML_CUDA=ON",
                           "-DCMAKE_CUDA_ARCHITECTURES=90"])
    recreate.write_db(top, "whisper.cpp", recreate.draw(recreate.load(build), src + "/", 32,
                                                        WHISPER_DRAW))


def default_target_rows(build):
    """CMake's database, each file once, but only the units its default build ('all') compiles
    (ninja -t commands all names them)."""
    out = subprocess.run(["ninja", "-C", build, "-t", "commands", "all"], check=True,
                         capture_output=True, text=True).stdout
    return [row for row in first_of_each(recreate.load(build)) if row["file"] in out]


def gromacs_db(top):
    """Its configure asks for CMake 3.28 (CMakeLists.txt: cmake_minimum_required and
    cmake_policy); this machine has 3.25, so the copy's two lines are lowered to 3.25 (as
    held-out-4's LightGBM). Then its CMake configure (Release, Ninja, nvcc 13) with its own
    GMX_GPU=CUDA and GMX_FFT_LIBRARY=fftpack (its default, fftw3, stops the configure: FFTW is
    not installed here; fftpack is its bundled FFT, where GMX_BUILD_OWN_FFTW would download
    FFTW); its CUDA architectures as it sets them, thread-MPI (its default). The units its
    default build compiles (1101; the tests are in CMake's database but not in 'all'); over this
    study's ~150, so GROMACS_DRAW of those in the source tree, random.Random(32).sample over the
    sorted paths (recreate.draw)."""
    src = os.path.join(top, "srcs", "gromacs")
    build = os.path.join(top, "build", "gromacs")
    top_list = os.path.join(src, "CMakeLists.txt")
    with open(top_list) as f:
        text = f.read()
    text = text.replace("cmake_minimum_required(VERSION 3.28)",
                        "cmake_minimum_required(VERSION 3.25)")
    text = text.replace("cmake_policy(VERSION 3.28)", "cmake_policy(VERSION 3.25)")
    with open(top_list, "w") as f:
        f.write(text)
    configure(src, build, ["-DCMAKE_CUDA_COMPILER=" + recreate.NVCC, "-DGMX_GPU=CUDA",
                           "-DGMX_FFT_LIBRARY=fftpack"])
    recreate.write_db(top, "gromacs", recreate.draw(default_target_rows(build), src + "/", 32,
                                                    GROMACS_DRAW))


def hypre_db(top):
    """Its CMake configure (src/, Release, Ninja, nvcc 13) with its own HYPRE_ENABLE_CUDA=ON,
    HYPRE_ENABLE_MPI=OFF (its default is on; no MPI here), CMAKE_CUDA_ARCHITECTURES=90 (its
    default asks nvidia-smi, then falls back to 70, which CUDA 13 has dropped) and
    HYPRE_ENABLE_UMPIRE=OFF (a GPU build turns Umpire on by default and stops without it; the
    message names this opt-out, where HYPRE_BUILD_UMPIRE would download it). CMake's database,
    the library's 632 units (all in its default build, 154 of them .c that nvcc compiles as
    CUDA); over this study's ~150, so HYPRE_DRAW of them, random.Random(32).sample over the
    sorted paths (recreate.draw)."""
    src = os.path.join(top, "srcs", "hypre")
    build = os.path.join(top, "build", "hypre")
    configure(os.path.join(src, "src"), build,
              ["-DCMAKE_CUDA_COMPILER=" + recreate.NVCC, "-DHYPRE_ENABLE_CUDA=ON",
               "-DHYPRE_ENABLE_MPI=OFF", "-DCMAKE_CUDA_ARCHITECTURES=90",
               "-DHYPRE_ENABLE_UMPIRE=OFF"])
    recreate.write_db(top, "hypre", recreate.draw(recreate.load(build), src + "/", 32,
                                                  HYPRE_DRAW))


def quest_db(top):
    """Its CMake configure (Release, Ninja, nvcc 13) with its own ENABLE_CUDA=ON and
    CMAKE_CUDA_ARCHITECTURES=90 (it names none, and the configure stops without one:
    "CUDA_ARCHITECTURES is empty for target QuEST"); its other options as they default (OpenMP,
    no MPI, no cuQuantum, tests and examples off). CMake's database, all 29 units (the API, core
    and CPU back end in C++, gpu_config.cpp and gpu_subroutines.cpp compiled by nvcc,
    min_example.c)."""
    src = os.path.join(top, "srcs", "QuEST")
    build = os.path.join(top, "build", "QuEST")
    configure(src, build, ["-DCMAKE_CUDA_COMPILER=" + recreate.NVCC, "-DENABLE_CUDA=ON",
                           "-DCMAKE_CUDA_ARCHITECTURES=90"])
    recreate.write_db(top, "QuEST", first_of_each(recreate.load(build)))


def main(argv):
    return recreate.command_line(argv, __doc__, sources, [zfp_db, kokkos_db, sundials_db,
                                                          ginkgo_db, whisper_db, gromacs_db,
                                                          hypre_db, quest_db])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
