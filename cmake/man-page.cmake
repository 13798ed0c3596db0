# SPDX-License-Identifier: MIT
# The man page, generated from `gridstride --help`, every command's own
# `--help` and `--version` by help2man, so that it says what the program
# says; docs/gridstride.h2m adds SYNOPSIS, EXIT STATUS, ENVIRONMENT, FILES
# and SEE ALSO.
#
#   cmake -DGRIDSTRIDE=<exe> -DPAGE=<docs/gridstride.1> -DMODE=write -P man-page.cmake
#       regenerate the committed page (the `man` build target)
#   cmake -DGRIDSTRIDE=<exe> -DPAGE=<docs/gridstride.1> -DMODE=check -P man-page.cmake
#       fail when the committed page no longer matches --help (the man_page test)
#
# The check ignores the header line (it carries the month), comment lines
# (they carry help2man's version) and the lines of backends compiled in (they
# carry the build's configuration: the committed page is made from the
# Quick start's build, and CI also builds with the OpenMP backend).
set(_name "the same GPU kernels through CUDA, OpenCL, OpenMP offload and a C reference, every result predicted")
set(_commands table bandwidth pitfalls trace check compare lecture)
find_program(HELP2MAN help2man)
if(NOT HELP2MAN)
  message("SKIP: help2man is not installed (Debian: apt-get install help2man)")
  return()
endif()
get_filename_component(_here "${CMAKE_CURRENT_LIST_DIR}" DIRECTORY)
file(READ "${_here}/docs/gridstride.h2m" _include)
# [COMMANDS]: each command's own help, as it prints it.
string(APPEND _include "\n[COMMANDS]\n")
foreach(_cmd IN LISTS _commands)
  execute_process(COMMAND "${GRIDSTRIDE}" ${_cmd} --help OUTPUT_VARIABLE _help RESULT_VARIABLE _rc)
  if(NOT _rc EQUAL 0)
    message(FATAL_ERROR "gridstride ${_cmd} --help failed (${_rc})")
  endif()
  string(REPLACE "\\" "\\e" _help "${_help}")
  string(REGEX REPLACE "(^|\n)([.'])" "\\1\\\\&\\2" _help "${_help}")
  string(APPEND _include ".SS \"gridstride ${_cmd}\"\n.nf\n${_help}.fi\n")
endforeach()
file(WRITE "${PAGE}.h2m" "${_include}")
# The version line only: the rest of --version (the commit, the backends, the
# compilers) describes one build, not the program.
execute_process(COMMAND "${GRIDSTRIDE}" --version OUTPUT_VARIABLE _version)
string(REGEX REPLACE "\n.*" "" _version "${_version}")
execute_process(
  COMMAND ${HELP2MAN} --no-info --section 1 --name "${_name}" --include "${PAGE}.h2m"
          --version-string "${_version}"
          --output "${PAGE}.new" "${GRIDSTRIDE}"
  RESULT_VARIABLE _rc ERROR_VARIABLE _err)
file(REMOVE "${PAGE}.h2m")
if(NOT _rc EQUAL 0)
  file(REMOVE "${PAGE}.new")
  message(FATAL_ERROR "help2man failed (${_rc}): ${_err}")
endif()
if(MODE STREQUAL "write")
  file(RENAME "${PAGE}.new" "${PAGE}")
  message(STATUS "wrote ${PAGE}")
  return()
endif()

function(_gs_page_body file out)
  file(STRINGS "${file}" _lines)
  list(FILTER _lines EXCLUDE REGEX "^\\.TH |^\\.\\\\\"|^backends compiled in: ")
  set(${out} "${_lines}" PARENT_SCOPE)
endfunction()
_gs_page_body("${PAGE}.new" _new)
file(REMOVE "${PAGE}.new")
if(NOT EXISTS "${PAGE}")
  message(FATAL_ERROR "${PAGE} is missing: run cmake --build <build> --target man")
endif()
_gs_page_body("${PAGE}" _old)
if(NOT _new STREQUAL _old)
  message(FATAL_ERROR "${PAGE} no longer matches gridstride --help: run "
                      "cmake --build <build> --target man and commit the page")
endif()
message(STATUS "${PAGE} matches gridstride --help")
