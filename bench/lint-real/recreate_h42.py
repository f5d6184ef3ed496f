"""recreate_h42.py: the sources and compile databases of study-projects.txt's "held-out-42" rows,
made again as docs/studies/lint-realworld.md describes them ("Held-out-42").

Usage: python3 bench/lint-real/recreate_h42.py GIT_ROOT TOP [STEP...]

GIT_ROOT/OWNER/NAME is a git folder (a bare clone will do) of rsasaki0109/gnss_gpu,
khemisset18/gpubnb and wrf-gpu/wrf_gpu. TOP receives srcs/ (study.sh's SRC_ROOT), dbs/ (its
DB_ROOT) and build/ (gnss_gpu's CMake configure). STEP: sources, dbs (default: both). Needs
git, make, CMake 3.25, ninja and the CUDA toolkit at /usr/local/cuda; builds nothing, downloads
nothing. The files the clones lack are left out and named on standard error: gnss_gpu's 24
(experiment results, .csv, and videos and animations of its documentation) and its submodule
entry third_party/gnssplusplus, which its CMake project does not read; wrf_gpu's 8 (physics
tables, a boundary file and proof records of the Python model, which its CUDA units do not
read). All three are small: every unit is taken (gnss_gpu 25, gpubnb 1, wrf_gpu 3).
"""
import os
import shlex
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import recreate  # noqa: E402  (checkout, write_db, load, command_line, NVCC)
import recreate_h16  # noqa: E402  (rows)
import recreate_h17  # noqa: E402  (sources)
from recreate_h32 import configure, first_of_each  # noqa: E402

SOURCES = [
    # First the four that held-out-41 did not reach in held-out-40's order, all skipped:
    # UTING-4517/aerial-cuda-accelerated-ran (find_package(CLI11 REQUIRED),
    # cuPHY/CMakeLists.txt:136, then gsl-lite, yaml-cpp, WiseEnum and mathdx,
    # cuPHY/src/cuphy/CMakeLists.txt:22-25; none installed), xavigibert/ShearCuda (built from
    # MATLAB, makeall.m:1-30; its host units include MATLAB's mex.h,
    # shearcuda/src_cuda/ShearCudaFunctions.h:20; MATLAB not installed), NVIDIA/grcuda (no .cu
    # unit: a GraalVM language in Java; its C++ wrappers need TensorRT,
    # tensorrt/CMakeLists.txt:31), EricSolshkov/stardis-cuda (C standard 89,
    # cmake/ProjectOptions.cmake:13, which CMake does not know; cuBQL outside the tree,
    # cmake/ThirdPartyRegistry.cmake:36, custar-3d/0.10/CMakeLists.txt:162). Then the second
    # list (a name search for "gpu", shuffled with random.Random(42); bench/lint-real/h42_shuffle.txt); skipped
    # before gnss_gpu: flycat0101/gpu-viv6-andy (no .cu unit; a Vivante GPU driver,
    # Android.mk:4-5), Team-Argentum/JavaToGpu (no .cu unit; Java to OpenCL, README.md:3),
    # kjk/gpui-cpp (no .cu unit; README.md:3), jeiths2202/gpubase-raphrag (no .cu unit; Python
    # and TypeScript), iomeone/gputest and Gangasagarhl/bare-metal-to-gpu-university (no
    # snapshot can be brought here), redcamel/RedGPU (its snapshot, 625 MB, over what can be
    # brought here), qubeenyoung/gpu-powerflow (SuiteSparse, cuPF/CMakeLists.txt:111-113; METIS,
    # custom_linear_solver/CMakeLists.txt:50-51; cuDSS; none installed), energye/gpui (no .cu
    # unit; Go, go.mod), ianras77/gpu-private-store (no snapshot), gpustack/gpustack-ui (no .cu
    # unit; TypeScript, package.json), D-Ogi/amdgpu-wddm (no snapshot), Rendering-FIT/GPUEngine
    # (no .cu unit; an OpenGL engine, Readme.md:1), Rust-Framework/rust-gpui-rml (no snapshot),
    # GPUOpen-Drivers/pal (no .cu unit; README.md:23-24), woowacourse-teams/2021-gpu-is-mine (no
    # .cu unit; a web service in Java and TypeScript), jaigouk/gpumod (no .cu unit; Python,
    # pyproject.toml:1-3), martinlaxenaire/gpu-curtains (no .cu unit; TypeScript, package.json),
    # longbridge/gpui-component (no .cu unit; Rust, Cargo.toml), gpui-luma-dev/gpui-luma (no
    # snapshot), reallyhimbrodigy/promptly-gpu-worker (no .cu unit; Python), EmilSV/WebGPUSharp
    # (no .cu unit; C#, WebGpuSharp.csproj)
    ("gnss_gpu", "rsasaki0109/gnss_gpu", "8ecac8e12cb97cdcb6d3f4d2d814ed0e21a2a897"),
    # Skipped between gnss_gpu and gpubnb: leptonai/gpud (no .cu unit; Go, go.mod),
    # pantheongpu/pantheonsim (no snapshot), SisyphusMountain/gpurec (no .cu unit; Python,
    # pyproject.toml:1-3), torlambrechts-sketch/Orgpuls (no snapshot), christosk92/fluent-gpu
    # (no .cu unit; .NET, README.md:3), gpustack/gpustack (no .cu unit; Python, pyproject.toml),
    # TryDotAtwo/MultiGPUBeamSearch (a PyTorch extension, setup.py:2, torch.utils.cpp_extension;
    # torch not installed), GPUOpen-Drivers/xgl (no .cu unit; README.md:1-3), DeegayuA/LogPup
    # (no .cu unit; TypeScript, package.json), dreamyloong2005/cgpui (no snapshot),
    # likev/CodeOrpgPub (no .cu unit; C and Fortran of 2015), CodeHariK/WebGpu (its snapshot,
    # 671 MB, over what can be brought here), bobleesj/quantem.gpu (no .cu unit; Python,
    # pyproject.toml:1-3), pierreaubert/gpui-toolkit (no .cu unit; Rust, Cargo.toml),
    # kurtyoung-dev/cesium-webgpu (its snapshot, 615 MB), AStaroverov/exp_webgpu_tf (no .cu
    # unit; TypeScript, package.json), GPUOpen-Tools/GPU-Reshape (no .cu unit; Vulkan and D3D12
    # instrumentation, ReadMe.md:3), otyagi/GNNTrackFinder-gpu (ROOT, FairRoot, Geant4:
    # CMakeLists.txt:91, :130, :152), gpustack/gpustack-operator (no snapshot),
    # NoxxGames/LiberPrimus-GPU (CMake 3.26, CMakeLists.txt:1; its CUDA off by default, :9),
    # Zushah/WasmGPU (no snapshot), MarkKirichko2002/AGPU-iOS-App (no .cu unit; Swift),
    # wgpu4k/wgpu4k (no .cu unit; Kotlin, build.gradle.kts), HuangPuStar/FenixAgent (no .cu
    # unit; TypeScript, package.json), swasanaweddingpusat/swasana-project (no .cu unit; a
    # Next.js site, package.json:7-8)
    ("gpubnb", "khemisset18/gpubnb", "a476eb872973225a443f93853a9d8d59fc30f412"),
    # Skipped between gpubnb and wrf_gpu: DevHead-LLC/RisingPunk (no snapshot),
    # ComputationalRadiationPhysics/picongpu (MPI, include/picongpu/CMakeLists.txt:157, and
    # Boost's headers, :185, not installed; no .cu unit, alpaka's .cpp units),
    # QianMo/GPU-Pro-Books-Source-Code (its snapshot, 968 MB), Latias94/open-gpui and
    # TryDotAtwo/MultiGPUBFS (no snapshot), dykamino-coder/gpui-kamin-ide (no .cu unit; Rust,
    # Cargo.toml), GPUOpen-LibrariesAndSDKs/RadeonProRenderUE (no .cu unit; an Unreal plug-in,
    # RPR.uproject), vercel-labs/vgpu (no .cu unit; an npm package, README.md:3),
    # cyew3/oneVPL-intel-gpu (no .cu unit; README.md:1-3)
    ("wrf_gpu", "wrf-gpu/wrf_gpu", "f63a1748c387601c38e8519632dced9821dd12d6"),
]


def sources(git_root, top):
    recreate_h17.sources(git_root, top, SOURCES)


def gnss_db(top):
    """Its CMake configure (Release, Ninja, nvcc 13; CMAKE_CUDA_ARCHITECTURES as CMake defaults
    it for nvcc 13, 75): its 20 CUDA libraries (CMakeLists.txt:11-155); pybind11 is not found
    (find_package(pybind11 QUIET), :9), so the Python modules (:157-294) are not configured.
    CMake's database, each file once: all 25 .cu units."""
    src = os.path.join(top, "srcs", "gnss_gpu")
    build = os.path.join(top, "build", "gnss_gpu")
    configure(src, build, ["-DCMAKE_CUDA_COMPILER=" + recreate.NVCC])
    recreate.write_db(top, "gnss_gpu", first_of_each(recreate.load(build)))


def gpubnb_db(top):
    """The Dockerfile of its GPU workload (containers/gpu-proof-workspace/Dockerfile:5-7): one
    nvcc line over its one unit, gpu_proof.cu (-O2 --use_fast_math -Xcompiler=-fPIE and the
    linker's flags), run in that folder; one entry (recreate_h16.rows). The rest of the project
    (a marketplace: Rust, TypeScript) has no CUDA."""
    src = os.path.join(top, "srcs", "gpubnb")
    folder = os.path.join(src, "containers", "gpu-proof-workspace")
    with open(os.path.join(folder, "Dockerfile")) as f:
        text = f.read().replace("\\\n", " ")
    line = next(x for x in text.splitlines() if x.startswith("RUN nvcc "))
    words = ["nvcc"] + shlex.split(line)[2:]
    recreate.write_db(top, "gpubnb", recreate_h16.rows(folder, words))


def wrf_db(top):
    """The Makefile of its CUDA tile back end (src/gpuwrf/backends/cuda_tile/Makefile, run by
    build.sh:11 'make all'): one nvcc line over its three units, host.cpp, stencil.cu and
    column.cu (-arch=sm_120 -O3 -std=c++17 -Xptxas=-v, :7-9, :16), from 'make -n -B' in its
    folder (ROOT given, as 'git rev-parse' would: the checkout is not a git folder); one entry
    per unit with that line's flags (recreate_h16.rows). The rest of the project is Python (JAX)."""
    src = os.path.join(top, "srcs", "wrf_gpu")
    folder = os.path.join(src, "src", "gpuwrf", "backends", "cuda_tile")
    out = subprocess.run(["make", "-n", "-B", "-C", folder, "ROOT=" + src], check=True,
                         capture_output=True, text=True).stdout
    line = next(x for x in out.splitlines() if x.startswith(recreate.NVCC + " "))
    recreate.write_db(top, "wrf_gpu", recreate_h16.rows(folder, shlex.split(line)))


def main(argv):
    return recreate.command_line(argv, __doc__, sources, [gnss_db, gpubnb_db, wrf_db])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
