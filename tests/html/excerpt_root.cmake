# excerpt_root.cmake: `syncscope report` embeds source excerpts only from regular files inside
# --root (cmake -P). A result naming /etc/passwd, a file beside the root whose name extends
# the root's (rootx), a symbolic link inside the root to a file outside it, a path through a
# linked folder, and a FIFO inside the root must bring none of their lines into the page;
# a file inside the root still gets its excerpt. Variables: SYNCSCOPE, WORK (a scratch folder).
cmake_minimum_required(VERSION 3.25)

file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}/root" "${WORK}/rootx")
set(a "")
foreach(i RANGE 1 12)
  string(APPEND a "inside line ${i}\n")
endforeach()
file(WRITE "${WORK}/root/a.cu" "${a}")
file(WRITE "${WORK}/rootx/secret.cu" "SECRET-ROOTX 1\nSECRET-ROOTX 2\n")
file(WRITE "${WORK}/outside.cu" "SECRET-OUTSIDE 1\nSECRET-OUTSIDE 2\n")
file(CREATE_LINK "../outside.cu" "${WORK}/root/link.cu" SYMBOLIC)
file(CREATE_LINK ".." "${WORK}/root/up" SYMBOLIC)
execute_process(COMMAND mkfifo "${WORK}/root/fifo.cu" RESULT_VARIABLE rc)
if(NOT rc STREQUAL "0")
  message(FATAL_ERROR "mkfifo failed: ${rc}")
endif()

# One SYNC101 finding per file; relative names are taken from the result's root.
set(findings "")
foreach(place "a.cu:5" "/etc/passwd:1" "link.cu:1" "up/outside.cu:1" "fifo.cu:1"
              "../rootx/secret.cu:1" "${WORK}/rootx/secret.cu:2")
  string(REGEX MATCH "^(.*):([0-9]+)$" _ "${place}")
  if(findings)
    string(APPEND findings ",")
  endif()
  string(APPEND findings "{\"ruleId\":\"SYNC101\",\"severity\":\"warning\",\"origin\":\"static\","
                         "\"file\":\"${CMAKE_MATCH_1}\",\"line\":${CMAKE_MATCH_2},\"column\":1,"
                         "\"message\":\"m\"}")
endforeach()
file(WRITE "${WORK}/result.json"
     "{\"format\":\"syncscope-result\",\"formatVersion\":1,\"kind\":\"lint\","
     "\"root\":\"${WORK}/root\",\"findings\":[${findings}]}\n")

# The excerpt of a.cu around line 5, as the data block holds it.
set(want "[{\"path\":\"a.cu\",\"lines\":[")
foreach(i RANGE 2 8)
  if(i GREATER 2)
    string(APPEND want ",")
  endif()
  string(APPEND want "[${i},\"inside line ${i}\"]")
endforeach()
string(APPEND want "]}]")

set(passwd_line "")
if(EXISTS /etc/passwd)
  file(STRINGS /etc/passwd passwd_lines LIMIT_COUNT 1)
  list(GET passwd_lines 0 passwd_line)
endif()

# check(NAME DIR ARGS...): runs `syncscope report` in DIR and checks the page's sources.
function(check name dir)
  set(page "${WORK}/${name}.html")
  execute_process(COMMAND "${SYNCSCOPE}" report "${WORK}/result.json" -o "${page}" ${ARGN}
                  WORKING_DIRECTORY "${dir}" OUTPUT_VARIABLE out ERROR_VARIABLE err
                  RESULT_VARIABLE rc)
  if(NOT rc STREQUAL "0")
    message(FATAL_ERROR "${name}: syncscope report exited with ${rc}:\n${out}${err}")
  endif()
  file(READ "${page}" html)
  string(FIND "${html}" "\"sources\":" from)
  string(FIND "${html}" ",\n\"diags\":" to)
  math(EXPR from "${from} + 10")
  math(EXPR len "${to} - ${from}")
  string(SUBSTRING "${html}" ${from} ${len} sources)
  if(NOT sources STREQUAL want)
    message(FATAL_ERROR "${name}: sources are\n${sources}\nexpected\n${want}")
  endif()
  foreach(secret "SECRET-ROOTX" "SECRET-OUTSIDE" "${passwd_line}")
    if(NOT secret STREQUAL "")
      string(FIND "${html}" "${secret}" at)
      if(at GREATER -1)
        message(FATAL_ERROR "${name}: the page holds '${secret}'")
      endif()
    endif()
  endforeach()
endfunction()

check(explicit_root "${WORK}" --root "${WORK}/root")
check(relative_root "${WORK}" --root root)
check(default_root "${WORK}/root")

# A root that is not a folder is a usage error.
execute_process(COMMAND "${SYNCSCOPE}" report "${WORK}/result.json" -o "${WORK}/none.html"
                        --root "${WORK}/root/a.cu"
                ERROR_VARIABLE err RESULT_VARIABLE rc)
if(NOT rc STREQUAL "2" OR NOT err STREQUAL "syncscope: error: --root '${WORK}/root/a.cu': not a folder\n"
   OR EXISTS "${WORK}/none.html")
  message(FATAL_ERROR "--root FILE: exit ${rc}, stderr '${err}'")
endif()
execute_process(COMMAND "${SYNCSCOPE}" report "${WORK}/result.json" -o "${WORK}/none.html"
                        --root "${WORK}/missing"
                ERROR_VARIABLE err RESULT_VARIABLE rc)
if(NOT rc STREQUAL "2"
   OR NOT err STREQUAL "syncscope: error: --root '${WORK}/missing': No such file or directory\n")
  message(FATAL_ERROR "--root MISSING: exit ${rc}, stderr '${err}'")
endif()
