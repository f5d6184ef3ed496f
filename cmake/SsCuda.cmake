# SsCuda.cmake: turns the CUDA language on for a folder of CUDA programs (samples, GPU tests,
# benchmarks). A macro, because enable_language must run at file scope.
#
# ss_enable_cuda(): uses the nvcc that find_package(CUDAToolkit) found, unless one is named
# (CMAKE_CUDA_COMPILER or CUDACXX). check_language tries it in a scratch project first, so a
# toolkit that cannot compile here (an unsupported host compiler, say) leaves the folder's
# programs out with a warning instead of failing the configuration. Sets SS_CUDA_USABLE to ON
# or OFF; the caller returns when it is OFF. Default architectures: H200 machine code plus
# portable PTX that any newer GPU can compile at load time.
include(CheckLanguage)
macro(ss_enable_cuda)
  if(NOT DEFINED CMAKE_CUDA_COMPILER AND NOT DEFINED ENV{CUDACXX})
    set(ENV{CUDACXX} "${CUDAToolkit_NVCC_EXECUTABLE}")
  endif()
  check_language(CUDA)
  if(CMAKE_CUDA_COMPILER)
    if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES)
      set(CMAKE_CUDA_ARCHITECTURES 90-real 75-virtual)
    endif()
    enable_language(CUDA)
    set(SS_CUDA_USABLE ON)
  else()
    message(WARNING "syncscope: ${CUDAToolkit_NVCC_EXECUTABLE} cannot compile CUDA here; "
                    "the CUDA programs in ${CMAKE_CURRENT_SOURCE_DIR} are not built")
    set(SS_CUDA_USABLE OFF)
  endif()
endmacro()
