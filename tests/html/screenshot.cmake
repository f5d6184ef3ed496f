# screenshot.cmake: scripts/screenshot-report.sh draws a recorded trace and saves the page as a
# PNG 1280 pixels wide (cmake -P). Variables: SCRIPT, SYNCSCOPE, TRACE, OUT, TOOLS.
cmake_minimum_required(VERSION 3.25)

file(REMOVE "${OUT}")
execute_process(COMMAND "${CMAKE_COMMAND}" -E env "SYNCSCOPE=${SYNCSCOPE}" "SS_TOOLS_DIR=${TOOLS}"
                        sh "${SCRIPT}" "${TRACE}" "${OUT}"
                OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
if(NOT rc STREQUAL "0")
  message(FATAL_ERROR "screenshot-report.sh exited with ${rc}:\n${out}${err}")
endif()
if(NOT out STREQUAL "screenshot-report: wrote ${OUT}\n")
  message(FATAL_ERROR "unexpected output: '${out}'")
endif()
# The PNG signature, then the IHDR chunk: width 1280 (0x500).
file(READ "${OUT}" head LIMIT 20 HEX)
if(NOT head STREQUAL "89504e470d0a1a0a0000000d4948445200000500")
  message(FATAL_ERROR "${OUT} is not a PNG 1280 pixels wide: ${head}")
endif()
