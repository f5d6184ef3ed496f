# SsWarnings.cmake: warning flags, -Werror and sanitizers for the tool's own targets.
set(SS_WARNING_FLAGS -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes
    -Wformat=2 -Wno-unused-parameter)
if(SYNCSCOPE_WERROR)
  list(APPEND SS_WARNING_FLAGS -Werror)
endif()
set(SS_SANITIZE_FLAGS "")
if(SYNCSCOPE_SANITIZE)
  set(SS_SANITIZE_FLAGS -fsanitize=address,undefined -fno-omit-frame-pointer
      -fno-sanitize-recover=undefined)
endif()

# ss_target_defaults(<target> [NO_SANITIZE]): warnings for every target; sanitizers for
# targets that never load into a foreign program.
function(ss_target_defaults target)
  cmake_parse_arguments(ARG "NO_SANITIZE" "" "" ${ARGN})
  target_compile_options(${target} PRIVATE ${SS_WARNING_FLAGS})
  target_compile_definitions(${target} PRIVATE _GNU_SOURCE)
  if(SS_SANITIZE_FLAGS AND NOT ARG_NO_SANITIZE)
    target_compile_options(${target} PRIVATE ${SS_SANITIZE_FLAGS})
    target_link_options(${target} PRIVATE ${SS_SANITIZE_FLAGS})
  endif()
endfunction()

# ss_add_part_library(<name> <sources...>): a part's static library, twice: <name> for the
# tool and its tests (sanitized in the ci preset) and <name>_plain, never sanitized, for code
# that is loaded into the observed program (the interposer and its exit-time helper).
# Dependencies are added with ss_part_link(<name> PUBLIC|PRIVATE <libs...>), which links each
# ss_* dependency's matching variant.
function(ss_add_part_library name)
  add_library(${name} STATIC ${ARGN})
  add_library(${name}_plain STATIC ${ARGN})
  target_include_directories(${name} PUBLIC ${CMAKE_CURRENT_SOURCE_DIR})
  target_include_directories(${name}_plain PUBLIC ${CMAKE_CURRENT_SOURCE_DIR})
  ss_target_defaults(${name})
  ss_target_defaults(${name}_plain NO_SANITIZE)
endfunction()

# ss_sources_from_rows(<var> <table> <macro> <folder>): the source files that the rows of the
# X-macro table <table> (in the current source folder) name in their first column, each
# <folder><name>.c, once each, in the order of the rows, into <var>; CMake configures again
# when the table changes. analyzer/ (checks.def) and detect/ (families.def) take their
# check and family files from their tables this way.
function(ss_sources_from_rows var table macro folder)
  file(STRINGS ${table} rows REGEX "^${macro}\\([a-z0-9_]+,")
  set(sources)
  foreach(row IN LISTS rows)
    string(REGEX REPLACE "^${macro}\\(([a-z0-9_]+),.*" "${folder}\\1.c" source "${row}")
    list(APPEND sources ${source})
  endforeach()
  list(REMOVE_DUPLICATES sources)
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${table})
  set(${var} ${sources} PARENT_SCOPE)
endfunction()

function(ss_part_link name scope)
  foreach(lib ${ARGN})
    if(lib MATCHES "^ss_" AND TARGET ${lib}_plain)
      target_link_libraries(${name} ${scope} ${lib})
      target_link_libraries(${name}_plain ${scope} ${lib}_plain)
    else()
      target_link_libraries(${name} ${scope} ${lib})
      target_link_libraries(${name}_plain ${scope} ${lib})
    endif()
  endforeach()
endfunction()
