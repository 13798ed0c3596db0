# SPDX-License-Identifier: MIT
# The man page, generated from `gridstride --help` and `--version` by
# help2man, so that it says what the program says.
#
#   cmake -DGRIDSTRIDE=<exe> -DPAGE=<docs/gridstride.1> -DMODE=write -P man-page.cmake
#       regenerate the committed page (the `man` build target)
#   cmake -DGRIDSTRIDE=<exe> -DPAGE=<docs/gridstride.1> -DMODE=check -P man-page.cmake
#       fail when the committed page no longer matches --help (the man_page test)
#
# The check ignores the header line (it carries the month), comment lines
# (they carry help2man's version) and the line naming the backends compiled
# in (it depends on the machine that builds, not on the source).
set(_name "the same GPU kernels through CUDA, OpenCL and a C reference, every result predicted")
find_program(HELP2MAN help2man)
if(NOT HELP2MAN)
  message("SKIP: help2man is not installed (Debian: apt-get install help2man)")
  return()
endif()
execute_process(
  COMMAND ${HELP2MAN} --no-info --section 1 --name "${_name}" --output "${PAGE}.new" "${GRIDSTRIDE}"
  RESULT_VARIABLE _rc ERROR_VARIABLE _err)
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
