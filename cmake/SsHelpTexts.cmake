# SsHelpTexts.cmake: cmake -DSYNCSCOPE=<syncscope> -DOUT=<dir> -P SsHelpTexts.cmake
# writes OUT/syncscope.txt (`syncscope --help`) and OUT/<command>.txt (`syncscope <command>
# --help`) for every command that the top-level help lists: the input of syncscope-gen-man.
if(NOT SYNCSCOPE OR NOT OUT)
  message(FATAL_ERROR "usage: cmake -DSYNCSCOPE=<syncscope> -DOUT=<dir> -P SsHelpTexts.cmake")
endif()
file(REMOVE_RECURSE "${OUT}")
file(MAKE_DIRECTORY "${OUT}")

# ss_help_text(<file> <args...>): the help printed by `syncscope <args>`. A command that this
# build lacks (lint without libclang) says so on stderr: its message stands in for the help.
function(ss_help_text file)
  execute_process(COMMAND "${SYNCSCOPE}" ${ARGN}
                  OUTPUT_VARIABLE help ERROR_VARIABLE err RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0 AND err MATCHES "not available in this build")
    set(help "${err}")
  elseif(NOT rc EQUAL 0)
    message(FATAL_ERROR "syncscope ${ARGN} failed (${rc}): ${err}")
  endif()
  file(WRITE "${OUT}/${file}" "${help}")
endfunction()

ss_help_text(syncscope.txt --help)
file(STRINGS "${OUT}/syncscope.txt" lines)
set(in_commands OFF)
foreach(line IN LISTS lines)
  if(line STREQUAL "commands:")
    set(in_commands ON)
  elseif(in_commands AND line MATCHES "^  ([a-z]+) ")
    ss_help_text(${CMAKE_MATCH_1}.txt ${CMAKE_MATCH_1} --help)
  elseif(in_commands)
    break()
  endif()
endforeach()
