# SPDX-License-Identifier: MIT
# `gridstride bandwidth --spread` on a backend that cannot record per-unit
# finish times: exit 2, nothing on stdout, and one line on stderr saying
# "not available" with that backend's reason.
#
#   cmake -DGRIDSTRIDE=path -DBACKEND=name -DREASON=text -P spread_unavailable.cmake
#
# A backend without a device is reported skipped ("SKIPPED:"), unless
# GRIDSTRIDE_REQUIRE names it.
cmake_minimum_required(VERSION 3.20)

execute_process(COMMAND "${GRIDSTRIDE}" bandwidth --spread --backend ${BACKEND} --quiet
                RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE err)
string(TOLOWER "${err}" lower)
if(NOT lower MATCHES "not available" AND lower MATCHES "no [a-z]* ?device" AND
   NOT "$ENV{GRIDSTRIDE_REQUIRE}" MATCHES "(^|,)(${BACKEND}|all)(,|$)")
  message("SKIPPED: ${BACKEND} has no device here: ${err}")
  return()
endif()
string(REGEX MATCHALL "\n" lines "${err}")
list(LENGTH lines nlines)
string(FIND "${err}" "${BACKEND} (" at_backend)
string(FIND "${err}" "not available: ${REASON}" at_reason)
if(NOT code EQUAL 2 OR NOT out STREQUAL "" OR NOT nlines EQUAL 1 OR at_backend EQUAL -1 OR
   at_reason EQUAL -1)
  message(FATAL_ERROR "expected exit 2, no stdout and one line naming ${BACKEND} and "
                      "'not available: ${REASON}'\nexit ${code}\nstdout:\n${out}\nstderr:\n${err}")
endif()
message("${err}")
