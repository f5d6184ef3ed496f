# validate.cmake: writes the sample SARIF log, validates it with the SARIF Multitool (SARIF
# and GitHub rule sets) and fails on any error or warning in the validator's own SARIF log.
# -DSAMPLE=exe -DWORK=dir -DTOOLS=build/tools -DMULTITOOL=exe (optional) -DREQUIRE=ON|OFF
cmake_minimum_required(VERSION 3.25)

# The native validator: the npm wrapper runs it through a shell, which splits the
# semicolon-separated option values, so it is called directly.
set(candidates "${MULTITOOL}"
    "${TOOLS}/node_modules/@microsoft/sarif-multitool-linux/Sarif.Multitool")
set(validator "")
foreach(c IN LISTS candidates)
  if(c AND EXISTS "${c}" AND NOT IS_DIRECTORY "${c}")
    set(validator "${c}")
    break()
  endif()
endforeach()
if(NOT validator)
  set(why "the SARIF Multitool is not installed (looked for ${TOOLS}/node_modules/@microsoft/sarif-multitool-linux/Sarif.Multitool); run scripts/setup.sh")
  if(REQUIRE)
    message(FATAL_ERROR "sarif_validate: ${why}")
  endif()
  message("sarif_validate: SKIPPED: ${why}")
  return()
endif()

# A root folder with a space, so the sample's URIs need percent-encoding.
set(root "${WORK}/project root")
file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${root}")
set(log "${WORK}/syncscope.sarif")
set(out "${WORK}/validation.sarif")
execute_process(COMMAND "${SAMPLE}" "${log}" "${root}" RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "sarif_validate: the sample writer failed (${rc})")
endif()

# The validator is a self-contained .NET program: it needs no ICU in invariant mode.
set(ENV{DOTNET_SYSTEM_GLOBALIZATION_INVARIANT} 1)
set(ENV{DOTNET_CLI_TELEMETRY_OPTOUT} 1)
execute_process(
  COMMAND "${validator}" validate "${log}" --output "${out}" --log ForceOverwrite
          --level "Error;Warning" --rule-kind "Sarif;Gh"
  RESULT_VARIABLE rc OUTPUT_VARIABLE stdout ERROR_VARIABLE stderr)
if(NOT rc EQUAL 0 OR NOT EXISTS "${out}")
  message(FATAL_ERROR "sarif_validate: the validator failed (${rc}):\n${stdout}\n${stderr}")
endif()

file(READ "${out}" report)
string(JSON ok ERROR_VARIABLE err GET "${report}" runs 0 invocations 0 executionSuccessful)
if(err OR NOT ok STREQUAL "ON")
  message(FATAL_ERROR "sarif_validate: the validation did not complete:\n${stdout}\n${stderr}")
endif()
string(JSON count ERROR_VARIABLE err LENGTH "${report}" runs 0 results)
if(err)
  set(count 0)
endif()
set(problems 0)
if(count GREATER 0)
  math(EXPR last "${count} - 1")
  foreach(i RANGE ${last})
    string(JSON level ERROR_VARIABLE err GET "${report}" runs 0 results ${i} level)
    if(err)
      set(level warning) # SARIF's default level
    endif()
    if(level STREQUAL "error" OR level STREQUAL "warning")
      string(JSON rule GET "${report}" runs 0 results ${i} ruleId)
      string(JSON where ERROR_VARIABLE err GET "${report}" runs 0 results ${i} locations 0
             physicalLocation region startLine)
      message("sarif_validate: ${level} ${rule} (line ${where} of ${log})")
      math(EXPR problems "${problems} + 1")
    endif()
  endforeach()
endif()
if(problems GREATER 0)
  message("${stdout}")
  message(FATAL_ERROR "sarif_validate: ${problems} errors or warnings from the SARIF Multitool")
endif()

# The sample must exercise every rule of the catalog (each with a ruleIndex that points at
# its own rule) and both origins.
file(READ "${log}" sample)
string(JSON rule_count LENGTH "${sample}" runs 0 tool driver rules)
string(JSON result_count LENGTH "${sample}" runs 0 results)
set(indexes "")
set(origins "")
math(EXPR last "${result_count} - 1")
foreach(i RANGE ${last})
  string(JSON index GET "${sample}" runs 0 results ${i} ruleIndex)
  string(JSON id GET "${sample}" runs 0 results ${i} ruleId)
  string(JSON rule_id GET "${sample}" runs 0 tool driver rules ${index} id)
  if(NOT id STREQUAL rule_id)
    message(FATAL_ERROR "sarif_validate: result ${i}: ruleIndex ${index} is ${rule_id}, not ${id}")
  endif()
  string(JSON origin GET "${sample}" runs 0 results ${i} properties origin)
  list(APPEND indexes ${index})
  list(APPEND origins ${origin})
endforeach()
list(REMOVE_DUPLICATES indexes)
list(REMOVE_DUPLICATES origins)
list(LENGTH indexes covered)
list(LENGTH origins origin_count)
if(NOT covered EQUAL rule_count OR NOT origin_count EQUAL 2)
  message(FATAL_ERROR "sarif_validate: the sample covers ${covered} of ${rule_count} rules and "
                      "${origin_count} of 2 origins")
endif()
message("sarif_validate: ${result_count} results of ${rule_count} rules: no errors, no warnings")
