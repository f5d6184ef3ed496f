# syncscopeLint.cmake: syncscope_lint(), installed with the syncscope package config.
#
# syncscope_lint(TARGET <target> [NAME <custom-target>] [ALL]
#                [FORMAT <format>] [OUTPUT <file>] [FAIL_ON <level>]
#                [COMPILE_COMMANDS_DIR <dir>] [ARGS <lint-arguments>...])
#
# Adds the custom target <custom-target> (default: syncscope_lint_<target>) that runs
#   syncscope lint -p <dir> [--format F] [-o FILE] [--fail-on L] [ARGS...] <sources>
# in the top-level source folder, where <sources> are the C, C++ and CUDA sources of
# <target> (.c .cc .cpp .cxx .cu) known when syncscope_lint is called: call it after the
# target's sources are added. Each source is parsed with its own compile command from
# <dir>/compile_commands.json (default: the top-level build folder), which the Makefile and
# Ninja generators write; the target's EXPORT_COMPILE_COMMANDS is turned on. ALL adds the
# target to the default build. A relative OUTPUT is taken from the current build folder.
# The build of <custom-target> fails when lint exits non-zero (findings at or above
# FAIL_ON, default warning; or a tool error).
function(syncscope_lint)
  cmake_parse_arguments(ARG "ALL" "TARGET;NAME;FORMAT;OUTPUT;FAIL_ON;COMPILE_COMMANDS_DIR"
                        "ARGS" ${ARGN})
  if(ARG_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "syncscope_lint: unknown arguments: ${ARG_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT ARG_TARGET)
    message(FATAL_ERROR "syncscope_lint: TARGET is required")
  endif()
  if(NOT TARGET ${ARG_TARGET})
    message(FATAL_ERROR "syncscope_lint: '${ARG_TARGET}' is not a target")
  endif()
  if(NOT TARGET syncscope::syncscope)
    message(FATAL_ERROR "syncscope_lint: syncscope::syncscope is not defined "
                        "(use find_package(syncscope))")
  endif()
  if(NOT ARG_NAME)
    set(ARG_NAME syncscope_lint_${ARG_TARGET})
  endif()
  if(ARG_COMPILE_COMMANDS_DIR)
    get_filename_component(compdb_dir "${ARG_COMPILE_COMMANDS_DIR}" ABSOLUTE
                           BASE_DIR "${CMAKE_CURRENT_BINARY_DIR}")
  else()
    if(NOT CMAKE_GENERATOR MATCHES "Makefiles|Ninja")
      message(FATAL_ERROR "syncscope_lint: the ${CMAKE_GENERATOR} generator writes no "
                          "compile_commands.json; give COMPILE_COMMANDS_DIR")
    endif()
    set(compdb_dir "${CMAKE_BINARY_DIR}")
    set_property(TARGET ${ARG_TARGET} PROPERTY EXPORT_COMPILE_COMMANDS ON)
  endif()

  get_target_property(source_dir ${ARG_TARGET} SOURCE_DIR)
  get_target_property(sources ${ARG_TARGET} SOURCES)
  set(lint_sources "")
  foreach(source IN LISTS sources)
    if(source MATCHES "\\$<" OR NOT source MATCHES "\\.(c|cc|cpp|cxx|cu)$")
      continue()
    endif()
    get_filename_component(source "${source}" ABSOLUTE BASE_DIR "${source_dir}")
    list(APPEND lint_sources "${source}")
  endforeach()
  if(NOT lint_sources)
    message(FATAL_ERROR "syncscope_lint: '${ARG_TARGET}' has no C, C++ or CUDA sources "
                        "(.c .cc .cpp .cxx .cu) yet")
  endif()

  set(options -p "${compdb_dir}")
  set(byproducts "")
  if(ARG_FORMAT)
    list(APPEND options --format ${ARG_FORMAT})
  endif()
  set(make_output_dir "")
  if(ARG_OUTPUT)
    get_filename_component(output "${ARG_OUTPUT}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_BINARY_DIR}")
    get_filename_component(output_dir "${output}" DIRECTORY)
    list(APPEND options -o "${output}")
    set(byproducts BYPRODUCTS "${output}")
    set(make_output_dir COMMAND "${CMAKE_COMMAND}" -E make_directory "${output_dir}")
  endif()
  if(ARG_FAIL_ON)
    list(APPEND options --fail-on ${ARG_FAIL_ON})
  endif()
  set(all "")
  if(ARG_ALL)
    set(all ALL)
  endif()
  add_custom_target(${ARG_NAME} ${all}
    ${make_output_dir}
    COMMAND syncscope::syncscope lint ${options} ${ARG_ARGS} ${lint_sources}
    ${byproducts}
    WORKING_DIRECTORY "${CMAKE_SOURCE_DIR}"
    COMMENT "syncscope lint: ${ARG_TARGET}"
    VERBATIM USES_TERMINAL)
endfunction()
