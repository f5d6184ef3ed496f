# SsDependencies.cmake: finds each part's dependencies and names the package when one is missing.
find_package(PkgConfig REQUIRED)

# ss_missing(<what> <package>): a clear message; fatal when SYNCSCOPE_REQUIRE_ALL is on.
function(ss_missing what package)
  if(SYNCSCOPE_REQUIRE_ALL)
    message(FATAL_ERROR "syncscope: ${what} not found: install the Debian package '${package}' "
                        "(scripts/setup.sh installs everything)")
  else()
    message(WARNING "syncscope: ${what} not found (Debian package '${package}'); "
                    "the parts that need it are not built")
  endif()
endfunction()

# cJSON: JSON and SARIF writers, JSON reader (all parts).
pkg_check_modules(CJSON IMPORTED_TARGET libcjson)
if(NOT CJSON_FOUND)
  message(FATAL_ERROR "syncscope: cJSON not found: install the Debian package 'libcjson-dev'")
endif()

# libyaml: .syncscope.yml configuration.
pkg_check_modules(YAML IMPORTED_TARGET yaml-0.1)
if(NOT YAML_FOUND)
  message(FATAL_ERROR "syncscope: libyaml not found: install the Debian package 'libyaml-dev'")
endif()

# elfutils libdw: symbolization of runtime call stacks.
pkg_check_modules(LIBDW IMPORTED_TARGET libdw)
set(SS_HAVE_LIBDW ${LIBDW_FOUND})
if(NOT LIBDW_FOUND)
  ss_missing("elfutils libdw (stack symbolization)" "libdw-dev")
endif()

# libclang (16 by default; SYNCSCOPE_LIBCLANG_VERSION picks another of Debian's llvm-N): the
# analyzer.
set(SYNCSCOPE_LIBCLANG_VERSION 16 CACHE STRING
    "LLVM major version of the libclang that lint is built with (/usr/lib/llvm-N)")
set(SS_HAVE_ANALYZER OFF)
if(SYNCSCOPE_ANALYZER)
  set(ss_llvm /usr/lib/llvm-${SYNCSCOPE_LIBCLANG_VERSION})
  find_path(LIBCLANG_INCLUDE_DIR clang-c/Index.h
            HINTS ${ss_llvm}/include ENV LIBCLANG_ROOT PATH_SUFFIXES include NO_DEFAULT_PATH)
  find_library(LIBCLANG_LIBRARY NAMES clang-${SYNCSCOPE_LIBCLANG_VERSION} clang
               HINTS ${ss_llvm}/lib ENV LIBCLANG_ROOT PATH_SUFFIXES lib NO_DEFAULT_PATH)
  find_program(CLANG16_EXECUTABLE NAMES clang-16 HINTS /usr/lib/llvm-16/bin)
  if(LIBCLANG_INCLUDE_DIR AND LIBCLANG_LIBRARY)
    set(SS_HAVE_ANALYZER ON)
    add_library(ss_libclang INTERFACE IMPORTED)
    target_include_directories(ss_libclang INTERFACE ${LIBCLANG_INCLUDE_DIR})
    target_link_libraries(ss_libclang INTERFACE ${LIBCLANG_LIBRARY})
    get_filename_component(LIBCLANG_LIBDIR "${LIBCLANG_LIBRARY}" DIRECTORY)
    # clang/16 in LLVM 16, clang/14.0.6 in LLVM 14.
    file(GLOB ss_resource_dirs "${LIBCLANG_LIBDIR}/clang/${SYNCSCOPE_LIBCLANG_VERSION}*")
    list(GET ss_resource_dirs 0 ss_resource_dir)
    set(LIBCLANG_RESOURCE_DIR "${ss_resource_dir}" CACHE PATH "clang resource dir")
  else()
    ss_missing("libclang ${SYNCSCOPE_LIBCLANG_VERSION} (syncscope lint)"
               "libclang-${SYNCSCOPE_LIBCLANG_VERSION}-dev")
  endif()
endif()

# CUDA toolkit with CUPTI: the interposer. Only headers are needed to build it; libcupti is
# loaded at run time.
set(SS_HAVE_INTERPOSER OFF)
set(SS_HAVE_NVCC OFF)
find_package(CUDAToolkit QUIET)
if(CUDAToolkit_FOUND)
  find_path(CUPTI_INCLUDE_DIR cupti.h
            HINTS ${CUDAToolkit_INCLUDE_DIRS} "${CUDAToolkit_TARGET_DIR}/extras/CUPTI/include"
            NO_DEFAULT_PATH)
  if(CUDAToolkit_NVCC_EXECUTABLE AND EXISTS "${CUDAToolkit_NVCC_EXECUTABLE}")
    set(SS_HAVE_NVCC ON)
  endif()
endif()
if(SYNCSCOPE_INTERPOSER)
  if(CUDAToolkit_FOUND AND CUPTI_INCLUDE_DIR)
    set(SS_HAVE_INTERPOSER ON)
  else()
    ss_missing("CUDA toolkit with CUPTI (syncscope run)" "the NVIDIA CUDA toolkit (nvidia-cuda-toolkit or CUDA 12+/13 from NVIDIA)")
  endif()
endif()

# Check: unit tests.
if(SYNCSCOPE_TESTS)
  pkg_check_modules(CHECK IMPORTED_TARGET check)
  if(NOT CHECK_FOUND)
    ss_missing("Check (unit tests)" "check")
    set(SYNCSCOPE_TESTS OFF)
  endif()
endif()
