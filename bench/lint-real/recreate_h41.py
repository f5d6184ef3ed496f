"""recreate_h41.py: the sources and compile databases of study-projects.txt's "held-out-41" rows,
made again as docs/studies/lint-realworld.md describes them ("Held-out-41").

Usage: python3 bench/lint-real/recreate_h41.py GIT_ROOT TOP [STEP...]

GIT_ROOT/OWNER/NAME is a git folder (a bare clone will do) of CVCUDA/CV-CUDA,
RichardEllicott/CudaTextureGen and hhergeth/CudaTracerLib, and of the submodules they need at
the commits their trees name: wjakob/nanobind and Tessil/robin-map (CudaTextureGen's, and
nanobind's own), Kanma/FreeImage, Kanma/XMake, Kanma/zlib, citra-emu/ext-boost,
richgel999/miniz, zeux/pugixml and hhergeth/qMatrixLib (CudaTracerLib's, and FreeImage's and its
zlib's own). TOP receives srcs/ (study.sh's SRC_ROOT), dbs/ (its DB_ROOT) and build/ (the three
CMake configures). STEP: sources, dbs (default: both). Needs git, CMake 3.25, ninja, Python's
headers and the CUDA toolkit at /usr/local/cuda; builds nothing, downloads nothing. The files
the clones lack (CudaTextureGen's three: a Godot scene and two built Python modules, read by no
build) are left out and named on standard error, as are the trees' submodule entries (those
SUBMODULES names are then checked out in their place; CV-CUDA's four, read only by its tests,
Python bindings and benchmarks, stay empty). CV-CUDA (213 units) is over this study's ~150,
so 60 of its units are drawn, random.Random(41).sample over the sorted paths (recreate.draw).
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import recreate  # noqa: E402  (checkout, write_db, load, draw, command_line, NVCC)
import recreate_h17  # noqa: E402  (sources)
from recreate_h32 import configure, first_of_each  # noqa: E402
from recreate_h8 import findcuda_rows  # noqa: E402

SOURCES = [
    # The fourteen candidates held-out-40's draw did not reach, in the order of that draw
    # (random.Random(40).shuffle), from the first. Skipped before CV-CUDA:
    # rsasaki0109/CudaRobotics (find_package(Eigen3 REQUIRED) and find_package(OpenCV REQUIRED),
    # CMakeLists.txt:14-15; neither installed)
    ("CV-CUDA", "CVCUDA/CV-CUDA", "da51fc96c1494c5e43e136978a2acb99138824af"),
    ("CudaTextureGen", "RichardEllicott/CudaTextureGen",
     "bb4a5f5051614fda42d8b9371dc5878c0b4fd5f6"),
    # Skipped between CudaTextureGen and CudaTracerLib: alexoz12v2/cuda-optix-pathtracing (CMake
    # 4.2.1, CMakeLists.txt:1), sony/nnabla-ext-cuda (nnabla's sources and its built C++ library,
    # NNABLA_DIR and CPPLIB_LIBRARY, CMakeLists.txt:30-32, :55-57), iteathen/CUDA-MCGS (CMake
    # 3.28, experiments/cuda-device-mcgs-prototype/CMakeLists.txt:1),
    # dozeri83/gaussian-splatting-cuda (libtorch, CMakeLists.txt:27, :78), Heng5384/CUDA_STO_PF
    # (no snapshot can be brought here), MrNeRF/gaussian-splatting-cuda (CMake 3.30,
    # CMakeLists.txt:14; libtorch, :277)
    ("CudaTracerLib", "hhergeth/CudaTracerLib", "3250757b0d28977bdb924a7e8cbe684e04ee715e"),
]
SUBMODULES = [  # at the commits the trees above (and the submodules' own trees) record
    ("CudaTextureGen/src/python/nanobind", "wjakob/nanobind",
     "babec16ecdc8d49239d1b9e2991db85e2b5deac6"),
    ("CudaTextureGen/src/python/nanobind/ext/robin_map", "Tessil/robin-map",
     "4ec1bf19c6a96125ea22062f38c2cf5b958e448e"),
    ("CudaTracerLib/ext/FreeImage", "Kanma/FreeImage", "442a0deceff13af6e2e2a48ce3dd4200bc554feb"),
    ("CudaTracerLib/ext/FreeImage/dependencies/XMake", "Kanma/XMake",
     "77f42ff5f52eb3794fc734b8e1650998707ca447"),
    ("CudaTracerLib/ext/FreeImage/dependencies/zlib", "Kanma/zlib",
     "ca334810d72007c4c6bec269da408d13f70c9d4a"),
    ("CudaTracerLib/ext/FreeImage/dependencies/zlib/dependencies/XMake", "Kanma/XMake",
     "77f42ff5f52eb3794fc734b8e1650998707ca447"),
    ("CudaTracerLib/ext/ext-boost", "citra-emu/ext-boost",
     "7310c95e2320ed262b0600315fa2f762c4b6cc54"),
    ("CudaTracerLib/ext/miniz", "richgel999/miniz", "b01930542e0734d6c4675d5a3b8f6bbd5163517f"),
    ("CudaTracerLib/ext/pugixml", "zeux/pugixml", "9bb468b3a960421b2ae3a3f232fbda477f42d2f4"),
    ("CudaTracerLib/ext/qMatrixLib", "hhergeth/qMatrixLib",
     "3b203570b6ed543d490c4cf84f572bdfec1273de"),
]
CVCUDA_DRAW = 60
# Three static libraries of the toolkit that CV-CUDA's cvcuda_priv links
# (src/cvcuda/priv/CMakeLists.txt:98-109) and that this toolkit lacks (libcusolver_static.a,
# libcublas_static.a, libcublasLt_static.a): empty link-only stand-ins, read by the configure
# through CMAKE_PROJECT_INCLUDE (held-out-29's warp did the same). No compile line depends on them.
CVCUDA_LINK_ONLY = """foreach(_t cusolver_static cublas_static cublasLt_static)
  if(NOT TARGET CUDA::${_t})
    add_library(CUDA::${_t} INTERFACE IMPORTED)
  endif()
endforeach()
"""


def sources(git_root, top):
    recreate_h17.sources(git_root, top, SOURCES)
    recreate_h17.sources(git_root, top, SUBMODULES)


def cvcuda_db(top):
    """Its CMake configure (Release, Ninja, nvcc 13) with CVCUDA_LINK_ONLY and its own switch
    USE_CMAKE_CUDA_ARCHITECTURES=ON with CMAKE_CUDA_ARCHITECTURES=90: its default list starts at
    70 (cmake/ConfigCUDA.cmake:38-77), gone from CUDA 13; its other options as they default (no
    tests, Python, benchmarks, docs or samples: the libraries nvcv_types, nvcv_util, cvcuda and
    the legacy operators). CMake's database, each file once: 213 units (70 .cu, 141 .cpp, 2 .c),
    over this study's ~150, so CVCUDA_DRAW of them, random.Random(41).sample over the sorted
    paths (recreate.draw). Its submodules (pybind11, googletest, dlpack, nvbench) are read only
    by the tests, Python and benchmarks: not brought."""
    src = os.path.join(top, "srcs", "CV-CUDA")
    build = os.path.join(top, "build", "CV-CUDA")
    os.makedirs(build, exist_ok=True)
    script = os.path.join(build, "link_only.cmake")
    with open(script, "w") as f:
        f.write(CVCUDA_LINK_ONLY)
    configure(src, build, ["-DCMAKE_CUDA_COMPILER=" + recreate.NVCC,
                           "-DUSE_CMAKE_CUDA_ARCHITECTURES=ON", "-DCMAKE_CUDA_ARCHITECTURES=90",
                           "-DCMAKE_PROJECT_INCLUDE=" + script])
    rows = first_of_each(recreate.load(build))
    recreate.write_db(top, "CV-CUDA", recreate.draw(rows, "^" + src + "/", 41, CVCUDA_DRAW))


def texturegen_db(top):
    """Its BUILD.sh's configure (cmake -G Ninja -DCMAKE_BUILD_TYPE=Release, BUILD.sh:55), with
    nvcc 13 (CMAKE_CUDA_ARCHITECTURES as CMake defaults it for nvcc 13, 75); its options as they
    default (the tests and the plugin test on). CMake's database, each file once: all 46 units
    (the static library cuda_core: src/main's 26 .cu and src/core's 3; the Python module's 12
    .cpp, its own bindings and nanobind's; the 3 tests and the plugin test's 2)."""
    src = os.path.join(top, "srcs", "CudaTextureGen")
    build = os.path.join(top, "build", "CudaTextureGen")
    configure(src, build, ["-DCMAKE_CUDA_COMPILER=" + recreate.NVCC])
    recreate.write_db(top, "CudaTextureGen", first_of_each(recreate.load(build)))


def tracer_db(top):
    """Its CMake configure (Release, Ninja; FindCUDA's CUDA_ADD_EXECUTABLE, no architecture
    named, so nvcc's default): the 53 .cu units from FindCUDA's generated *.cu.o.Release.cmake
    scripts (recreate_h8.findcuda_rows) and its own 35 .cpp units from CMake's database, 88 in
    all; the units of ext/ (FreeImage with its codecs, miniz and its examples, pugixml: 309),
    libraries that use no CUDA, left out."""
    src = os.path.join(top, "srcs", "CudaTracerLib")
    build = os.path.join(top, "build", "CudaTracerLib")
    configure(src, build, [])
    ext = os.path.join(src, "ext", "")
    host = [row for row in first_of_each(recreate.load(build))
            if row["file"].startswith(os.path.join(src, "")) and not row["file"].startswith(ext)]
    recreate.write_db(top, "CudaTracerLib", first_of_each(findcuda_rows(build)) + host)


def main(argv):
    return recreate.command_line(argv, __doc__, sources, [cvcuda_db, texturegen_db, tracer_db])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
