# SPDX-License-Identifier: MIT
# `gridstride bandwidth --spread` through the command line, on one backend.
#
#   cmake -DGRIDSTRIDE=path -DBACKEND=name -DEXPECT=unavailable -DREASON=text -P spread_cli.cmake
#       a backend that cannot record per-unit finish times: exit 2, nothing on
#       stdout, one line on stderr naming the backend and "not available: REASON"
#   cmake -DGRIDSTRIDE=path -DBACKEND=name -DEXPECT=runs -DWORK=dir -P spread_cli.cmake
#       a backend that can: exit 0 on a small size (every launch verified), the
#       report's two launches, JSON with both launches verified, a whole SVG.
#       Correctness of the path only: no timing is judged.
#
# A backend without a device is reported skipped ("SKIPPED:"), unless
# GRIDSTRIDE_REQUIRE names it.
cmake_minimum_required(VERSION 3.20)

if(EXPECT STREQUAL "runs")
  file(MAKE_DIRECTORY "${WORK}")
  set(json "${WORK}/spread-${BACKEND}.json")
  set(svg "${WORK}/spread-${BACKEND}.svg")
  file(REMOVE "${json}" "${svg}")
  execute_process(COMMAND "${GRIDSTRIDE}" bandwidth --spread --backend ${BACKEND} --bytes 64MiB
                          --quiet --json "${json}" --svg "${svg}"
                  RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE err)
else()
  execute_process(COMMAND "${GRIDSTRIDE}" bandwidth --spread --backend ${BACKEND} --quiet
                  RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE err)
endif()
string(TOLOWER "${err}" lower)
if(NOT code EQUAL 0 AND NOT lower MATCHES "not available" AND lower MATCHES "no [a-z ]*device" AND
   NOT "$ENV{GRIDSTRIDE_REQUIRE}" MATCHES "(^|,)(${BACKEND}|all)(,|$)")
  message("SKIPPED: ${BACKEND} has no device here: ${err}")
  return()
endif()

function(fail what)
  message(FATAL_ERROR "bandwidth --spread on ${BACKEND}: expected ${what}\nexit ${code}\n"
                      "stdout:\n${out}\nstderr:\n${err}")
endfunction()

if(EXPECT STREQUAL "runs")
  if(NOT code EQUAL 0)
    fail("exit 0")
  endif()
  if(NOT out MATCHES "\n  1 wave \\(G\\) " OR NOT out MATCHES "\n  16 waves \\(16 G\\) ")
    fail("the one-wave and 16-wave rows")
  endif()
  file(READ "${json}" js)
  string(REGEX MATCHALL "\"verified\": true" verified "${js}")
  list(LENGTH verified nverified)
  if(NOT js MATCHES "\"mode\": \"bandwidth-spread\"" OR NOT nverified EQUAL 2)
    fail("a bandwidth-spread JSON with two verified launches:\n${js}")
  endif()
  file(READ "${svg}" picture)
  if(NOT picture MATCHES "^<svg " OR NOT picture MATCHES "</svg>\n$")
    fail("a whole SVG")
  endif()
  message("${out}")
  return()
endif()

string(REGEX MATCHALL "\n" lines "${err}")
list(LENGTH lines nlines)
string(FIND "${err}" "${BACKEND} (" at_backend)
string(FIND "${err}" "not available: ${REASON}" at_reason)
if(NOT code EQUAL 2 OR NOT out STREQUAL "" OR NOT nlines EQUAL 1 OR at_backend EQUAL -1 OR
   at_reason EQUAL -1)
  fail("exit 2, no stdout and one line naming ${BACKEND} and 'not available: ${REASON}'")
endif()
message("${err}")
