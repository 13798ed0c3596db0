# SPDX-License-Identifier: MIT
# `gridstride bandwidth --sweep` on the host backend, run for real on a small
# size, and its three outputs read back: exit 0 (every point verified); the
# JSON has one run of three variants, each with a point per size 2^10 ..
# 2^18 (--bytes 1MiB), every point verified with its five samples; the
# report has the host's table and both crossover sentences; the SVG is a
# whole chart with a line per variant. Nothing about the timings themselves.
#
#   cmake -DGRIDSTRIDE=path -DOUT=folder -P sweep_outputs.cmake
cmake_minimum_required(VERSION 3.20)

file(REMOVE_RECURSE "${OUT}")
file(MAKE_DIRECTORY "${OUT}")
execute_process(
  COMMAND "${GRIDSTRIDE}" bandwidth --sweep --backend host --bytes 1MiB --reps 5 --quiet
          --output "${OUT}/sweep.txt" --svg "${OUT}/sweep.svg" --json "${OUT}/sweep.json"
  RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT code EQUAL 0)
  message(FATAL_ERROR "gridstride bandwidth --sweep: exit ${code}\nstdout:\n${out}\nstderr:\n${err}")
endif()

function(fail what)
  message(FATAL_ERROR "bandwidth --sweep: ${what}")
endfunction()

# ---- JSON ----
file(READ "${OUT}/sweep.json" js)
string(JSON mode GET "${js}" mode)
string(JSON schema GET "${js}" schema)
string(JSON runs LENGTH "${js}" runs)
if(NOT mode STREQUAL "bandwidth-sweep" OR NOT schema STREQUAL "gridstride-results" OR
   NOT runs EQUAL 1)
  fail("JSON header: mode '${mode}', schema '${schema}', ${runs} runs")
endif()
string(JSON backend GET "${js}" runs 0 backend)
string(JSON nvariants LENGTH "${js}" runs 0 variants)
if(NOT backend STREQUAL "host" OR NOT nvariants EQUAL 3)
  fail("JSON run: backend '${backend}', ${nvariants} variants")
endif()
foreach(v RANGE 2)
  string(JSON name GET "${js}" runs 0 variants ${v} variant)
  string(JSON npoints LENGTH "${js}" runs 0 variants ${v} points)
  if(NOT npoints EQUAL 9)
    fail("${name}: ${npoints} points, not 9 (2^10 .. 2^18)")
  endif()
  if(v GREATER 0)
    string(JSON crossover GET "${js}" runs 0 variants ${v} crossover)
    if(NOT crossover MATCHES "^(found|none)$")
      fail("${name}: crossover '${crossover}'")
    endif()
  endif()
  foreach(k RANGE 8)
    math(EXPR want "1 << (10 + ${k})")
    string(JSON n GET "${js}" runs 0 variants ${v} points ${k} n)
    string(JSON verified GET "${js}" runs 0 variants ${v} points ${k} verified)
    string(JSON nsamples LENGTH "${js}" runs 0 variants ${v} points ${k} samples_us)
    string(JSON median GET "${js}" runs 0 variants ${v} points ${k} median_us)
    if(NOT n EQUAL want OR NOT verified STREQUAL "ON" OR NOT nsamples EQUAL 5 OR
       NOT median GREATER 0)
      fail("${name} point ${k}: n ${n} (want ${want}), verified ${verified}, ${nsamples} "
           "samples, median ${median}")
    endif()
  endforeach()
endforeach()

# ---- report ----
file(READ "${OUT}/sweep.txt" text)
foreach(want "-- host" "2\\^18 +262144 \\|" "host: [^\n]*grid-stride on G"
             "host: [^\n]*grid-stride on min\\(G, ceil\\(n/B\\)\\)")
  if(NOT text MATCHES "${want}")
    fail("the report lacks '${want}':\n${text}")
  endif()
endforeach()

# ---- SVG ----
file(READ "${OUT}/sweep.svg" svg)
string(REGEX MATCHALL "<path fill=\"none\"" lines "${svg}")
list(LENGTH lines nlines)
if(NOT svg MATCHES "^<svg " OR NOT svg MATCHES "</svg>\n$" OR NOT nlines EQUAL 3)
  fail("the SVG is not a whole chart of three lines (${nlines} lines)")
endif()
