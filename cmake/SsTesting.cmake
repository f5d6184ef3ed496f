# SsTesting.cmake: ss_add_check_suite(<module> LIBS <libs...> [LABELS <labels...>])
# builds tests/unit/check_<module>.c into one executable and registers it as one CTest test.
# The suite's main is in the file itself; tests/unit/check_main.h provides a shared runner.
function(ss_add_check_suite module)
  cmake_parse_arguments(ARG "" "" "LIBS;LABELS;SOURCES" ${ARGN})
  set(target check_${module})
  add_executable(${target} ${CMAKE_CURRENT_SOURCE_DIR}/check_${module}.c ${ARG_SOURCES})
  target_link_libraries(${target} PRIVATE ${ARG_LIBS} PkgConfig::CHECK)
  target_include_directories(${target} PRIVATE ${CMAKE_CURRENT_SOURCE_DIR})
  target_compile_definitions(${target} PRIVATE
    SS_SOURCE_DIR="${PROJECT_SOURCE_DIR}" SS_BINARY_DIR="${PROJECT_BINARY_DIR}")
  ss_target_defaults(${target})
  add_test(NAME ${module} COMMAND ${target})
  set_tests_properties(${module} PROPERTIES SKIP_RETURN_CODE 77)
  if(ARG_LABELS)
    set_tests_properties(${module} PROPERTIES LABELS "${ARG_LABELS}")
  endif()
endfunction()
