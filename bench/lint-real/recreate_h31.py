"""recreate_h31.py: the sources and compile databases of study-projects.txt's "held-out-31" rows,
made again as docs/studies/lint-realworld.md describes them ("Held-out-31").

Usage: python3 bench/lint-real/recreate_h31.py GIT_ROOT TOP [STEP...]

GIT_ROOT/OWNER/NAME is a git folder (a bare clone will do) of PixarAnimationStudios/OpenSubdiv,
moderngpu/moderngpu (which also gives cudpp's ext/moderngpu submodule: NVlabs/moderngpu is the
same repository under its former name), cudpp/cudpp, and of the addendum's four projects:
NVIDIA/gvdb-voxels, mfem/mfem, AMReX-Codes/amrex and NVlabs/instant-ngp with the submodules
SOURCES names (NVlabs/tiny-cuda-nn, NVIDIA/cutlass, fmtlib/fmt, vector-of-bool/cmrc,
pybind/pybind11, Taywee/args, Tom94/tinylogger, Tom94/zstr, Tom94/zlib). TOP receives srcs/
(study.sh's SRC_ROOT), dbs/ (its DB_ROOT) and build/ (the CMake configures). STEP: sources, dbs
(default: both). Needs git, CMake 3.25 (which still has FindCUDA), ninja, Python 3 with its
headers at /usr/bin/python3 and the CUDA toolkit at /usr/local/cuda; builds nothing, downloads
nothing.
"""
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import recreate  # noqa: E402  (write_db, load, command_line, run, NVCC)
import recreate_h17  # noqa: E402  (sources)
from recreate_h8 import findcuda_rows  # noqa: E402

NGP = "instant-ngp"
SOURCES = [
    ("OpenSubdiv", "PixarAnimationStudios/OpenSubdiv", "7d0ab5530feef693ac0a920585b5c663b80773b3"),
    ("moderngpu", "moderngpu/moderngpu", "267cc8d02c03f00f1656f1205c61c946a1e530b0"),
    ("cudpp", "cudpp/cudpp", "9dc7357ee818498a87bc2f68f9d887c298e0e3f6"),
    # its submodules: ext/moderngpu at the commit its tree names; ext/cub (NVlabs/cub 9c335b9)
    # is not in NVlabs/cub's history as it stands, so it is left out (the toolkit's CUB is used)
    ("cudpp/ext/moderngpu", "moderngpu/moderngpu", "b6b3ed52f8f7478b969e05242980c97ff21a6ab0"),
    # added after the first three gave 1 warning (the choice's addendum)
    ("gvdb-voxels", "NVIDIA/gvdb-voxels", "8fa911ffbfd22c088cd5f003742b209bec83fb0c"),
    # added after four gave 4 warnings (the addendum's second; LLNL/LULESH skipped before it)
    ("mfem", "mfem/mfem", "5581b0c0797915e1eb554841e39111d8df807703"),
    # added after five gave 4 warnings (the addendum's third; AcademySoftwareFoundation/openvdb
    # skipped before it)
    ("amrex", "AMReX-Codes/amrex", "92679babfc2cc66ca06ee591a80001db57c89878"),
    # added after six gave 4 warnings (the addendum's fourth), with the submodules its
    # configure without the GUI reads, at the commits its tree names (its pybind11 is Tom94's
    # fork; the commit is upstream's, and in pybind/pybind11); tiny-cuda-nn's at the commits
    # tiny-cuda-nn's tree names. glfw (Tom94/glfw 71eb703) is not in that fork's history as
    # stored, nor in glfw/glfw's: a stand-in CMakeLists.txt (instant_ngp_db); imgui, DLSS and
    # OpenXR-SDK are for the GUI only, left out.
    (NGP, "NVlabs/instant-ngp", "abe236ee00cf90cfca6e36e65c00435d5b21f50a"),
    (NGP + "/dependencies/tiny-cuda-nn", "NVlabs/tiny-cuda-nn",
     "2e757bbe781db59c4980d389d7dccbf5edc09669"),
    (NGP + "/dependencies/tiny-cuda-nn/dependencies/cutlass", "NVIDIA/cutlass",
     "1eb6355182a5124639ce9d3ff165732a94ed9a70"),
    (NGP + "/dependencies/tiny-cuda-nn/dependencies/fmt", "fmtlib/fmt",
     "fa2eb2d2e3ec5c21629f8ccd88ae05ec40b963fa"),
    (NGP + "/dependencies/tiny-cuda-nn/dependencies/cmrc", "vector-of-bool/cmrc",
     "952ffddba731fc110bd50409e8d2b8a06abbd237"),
    (NGP + "/dependencies/pybind11", "pybind/pybind11", "3262000195616afedaf95185f1fe965c7eb82be6"),
    (NGP + "/dependencies/args", "Taywee/args", "a48e1f880813b367d2354963a58dedbf2b708584"),
    (NGP + "/dependencies/tinylogger", "Tom94/tinylogger",
     "aea07e21a3c0f0590513dd23f2ea7b2271312dfc"),
    (NGP + "/dependencies/zstr", "Tom94/zstr", "007f97607865934fb52e08248f152712e428688a"),
    (NGP + "/dependencies/zlib", "Tom94/zlib", "fafd714d8b3ce85a6decf566e3b5b611352eadea"),
]
MFEM_DRAW = 60  # units of the library drawn, as HeCBench's row drew 60 benchmarks


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


def opensubdiv_db(top):
    """Its CMake configure (Release, its defaults: CUDA found by FindCUDA, OpenMP; no TBB, OpenCL,
    Ptex here) with NO_GLFW=ON (its own switch: FindGLFW stops the configure, "Xrandr library not
    found - required for GLFW"; the examples that need GLFW are left out with it). Its CUDA
    backend as opensubdiv/osd/CMakeLists.txt lists it: cudaKernel.cu, which FindCUDA compiles by
    custom commands (its row from the generated *.cu.o.Release.cmake script, the osd_dynamic_gpu
    library's; the static library compiles the same file), and the four cuda*.cpp that call the
    runtime (cudaEvaluator, cudaPatchTable, cudaVertexBuffer, cudaGLVertexBuffer) from CMake's
    database. No architecture: the project names none for CUDA 8 and later (OSD_CUDA_NVCC_FLAGS
    unset), so nvcc's default."""
    src = os.path.join(top, "srcs", "OpenSubdiv")
    build = os.path.join(top, "build", "OpenSubdiv")
    configure(src, build, ["-DNO_GLFW=ON"])
    host = [row for row in recreate.load(build)
            if os.path.basename(row["file"]).startswith("cuda") and row["file"].endswith(".cpp")]
    recreate.write_db(top, "OpenSubdiv", first_of_each(findcuda_rows(build)) + first_of_each(host))


MGPU_ARCH = "--generate-code=arch=compute_60,code=[compute_60,sm_60]"


def moderngpu_db(top):
    """Its CMake configure (Release, Ninja; demo, tutorial and tests on, its defaults); CMake's
    database, its 23 .cu units (demo/, tutorial/, tests/), graph.cxx (host only) left out; the
    architecture its targets get, compute_60 (CUDA_ARCHITECTURES "60 61 70 75 80" on the interface
    library, of which set_target_properties hands the targets the first), written 90: CUDA 13
    has no sm_60."""
    src = os.path.join(top, "srcs", "moderngpu")
    build = os.path.join(top, "build", "moderngpu")
    configure(src, build, ["-DCMAKE_CUDA_COMPILER=" + recreate.NVCC])
    rows = []
    for row in first_of_each(recreate.load(build)):
        if row["file"].endswith(".cu"):
            row["command"] = row["command"].replace(MGPU_ARCH, MGPU_ARCH.replace("60", "90"))
            rows.append(row)
    recreate.write_db(top, "moderngpu", rows)


def cudpp_db(top):
    """Its CMake configure (Release, its defaults: the static libraries cudpp and cudpp_hash, the
    applications off); the libraries' 20 .cu units from FindCUDA's generated scripts, their
    gencode for sm_30 (CUDPP_GENCODE_SM30, its default) written sm_90 (CUDA 13 has no sm_30),
    and their 10 .cpp units from CMake's database. ext/cub is empty (see SOURCES): its include
    folder is kept and the toolkit's CUB found in /usr/local/cuda/include."""
    src = os.path.join(top, "srcs", "cudpp")
    build = os.path.join(top, "build", "cudpp")
    configure(src, build, [])
    rows = first_of_each(findcuda_rows(build))
    for row in rows:
        row["arguments"] = [a.replace("compute_30", "compute_90").replace("sm_30", "sm_90")
                            for a in row["arguments"]]
    recreate.write_db(top, "cudpp", rows + first_of_each(recreate.load(build)))


def gvdb_db(top):
    """Its CMake configure (Release, Ninja, nvcc 13; the library and the seven samples of its
    default build, the OptiX, OpenVDB and NanoVDB samples off, its defaults; GLEW its bundled
    copy; no architecture named, so nvcc's default); CMake's database: every C++ and CUDA unit
    (the library's host code, which drives the GPU through the driver API, gvdb_cutils.cu, the
    kernel units it compiles to PTX, the samples), each file once; GLEW's glew.c (C, an OpenGL
    loader, twice) and the library's empty dummy.cpp left out."""
    src = os.path.join(top, "srcs", "gvdb-voxels")
    build = os.path.join(top, "build", "gvdb-voxels")
    configure(src, build, ["-DCMAKE_CUDA_COMPILER=" + recreate.NVCC])
    rows = [row for row in first_of_each(recreate.load(build))
            if row["file"].endswith((".cpp", ".cu")) and not row["file"].endswith("/dummy.cpp")]
    recreate.write_db(top, "gvdb-voxels", rows)


def mfem_db(top):
    """Its CMake configure (Release, Ninja, nvcc 13) with MFEM_USE_CUDA=ON and CUDA_ARCH=sm_90 (its
    default, sm_60, is gone from CUDA 13); MPI and the other packages off, its defaults (serial
    build). Its default build target makes the library (general, linalg, mesh, fem: 253 units,
    each a .cpp that CMake compiles with nvcc -x cu); the examples, miniapps and tests are in
    CMake's database but not in its default build, left out. 253 is over this study's ~150, so
    MFEM_DRAW of them, random.Random(31).sample over the sorted paths (recreate.draw)."""
    src = os.path.join(top, "srcs", "mfem")
    build = os.path.join(top, "build", "mfem")
    configure(src, build, ["-DCMAKE_CUDA_COMPILER=" + recreate.NVCC, "-DMFEM_USE_CUDA=ON",
                           "-DCUDA_ARCH=sm_90"])
    library = src + "/(general|linalg|mesh|fem)/"
    recreate.write_db(top, "mfem", recreate.draw(recreate.load(build), library, 31, MFEM_DRAW))


def amrex_db(top):
    """Its CMake configure (Release, Ninja, nvcc 13) with AMReX_GPU_BACKEND=CUDA, AMReX_MPI=OFF
    (its default is on; no MPI here) and AMReX_CUDA_ARCH=9.0 (its default, Auto, asks the GPU;
    there is none here); its other options as they default (3-D, double, particles, no
    Fortran). Its default build target makes the library (Src/), 119 units, each a .cpp that
    CMake compiles with nvcc -x cu: all of them (the tests and tutorials are not configured by
    default)."""
    src = os.path.join(top, "srcs", "amrex")
    build = os.path.join(top, "build", "amrex")
    configure(src, build, ["-DCMAKE_CUDA_COMPILER=" + recreate.NVCC, "-DAMReX_GPU_BACKEND=CUDA",
                           "-DAMReX_MPI=OFF", "-DAMReX_CUDA_ARCH=9.0"])
    recreate.write_db(top, "amrex", first_of_each(recreate.load(build)))


def instant_ngp_db(top):
    """Its CMake configure (Release, Ninja, nvcc 13) with TCNN_CUDA_ARCHITECTURES=90 (by default
    tiny-cuda-nn asks the GPU; there is none here), NGP_BUILD_WITH_GUI=OFF (its own switch: the
    GUI build requires GLEW, not installed here, and GLFW's X11 headers) and
    Python_EXECUTABLE=/usr/bin/python3 (for the Python bindings, on by default); OptiX, RTC and
    the bindings on, its defaults. The configure stops unless dependencies/glfw/CMakeLists.txt
    exists, even without the GUI: a stand-in (a comment only), the submodule being unfetchable.
    CMake's database, instant-ngp's own CUDA units: the 18 .cu of src/ (the testbed, the NeRF,
    SDF, image and volume modes, the loaders, main.cu, python_api.cu and the three OptiX
    programs compiled to PTX); tiny-cuda-nn's units (held-out-2 linted that library), fmt's,
    the cmrc resource units and src/thread_pool.cpp (host only) left out."""
    src = os.path.join(top, "srcs", NGP)
    stand_in = os.path.join(src, "dependencies", "glfw", "CMakeLists.txt")
    os.makedirs(os.path.dirname(stand_in), exist_ok=True)
    with open(stand_in, "w") as f:
        f.write("# stand-in for the glfw submodule (Tom94/glfw 71eb703, not fetchable): the\n"
                "# configure only tests that this file exists; unused without the GUI\n")
    build = os.path.join(top, "build", NGP)
    configure(src, build, ["-DCMAKE_CUDA_COMPILER=" + recreate.NVCC, "-DTCNN_CUDA_ARCHITECTURES=90",
                           "-DNGP_BUILD_WITH_GUI=OFF", "-DPython_EXECUTABLE=/usr/bin/python3"])
    own = os.path.join(src, "src", "")
    rows = [row for row in first_of_each(recreate.load(build))
            if row["file"].startswith(own) and row["file"].endswith(".cu")]
    recreate.write_db(top, NGP, rows)


def main(argv):
    return recreate.command_line(argv, __doc__, sources,
                                 [opensubdiv_db, moderngpu_db, cudpp_db, gvdb_db, mfem_db,
                                  amrex_db, instant_ngp_db])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
