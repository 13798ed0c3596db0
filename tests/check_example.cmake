# SPDX-License-Identifier: MIT
# One example of examples/ through `gridstride check`, judged against the
# verdict its own header states in an "expect:" line:
#
#   expect: ok [speed=measured]                   exit 0, every case right; speed=measured:
#                                                 the speed pass ran (gs_speed.h), its rule
#                                                 stated, the user's timed output verified
#                                                 (no row wrong or impossible) and a class
#                                                 as-fast, slower or too-slow. Asserted by
#                                                 rule, never by time: which class depends
#                                                 on the device, and ctest has no timing
#                                                 thresholds
#   expect: ok ... [work=once|block-stride]        a .gs file, on every backend: the
#                                                 count's class (every element by one
#                                                 thread, or by threads whole blocks
#                                                 apart), counted on the host backend for
#                                                 the others (counted_on_host) where the
#                                                 build has it; without it the JSON must
#                                                 say why it was not counted
#   expect: ok ... [counters=coalesced|repeated|scattered]
#                                                 a .cu kernel on CUDA: where Nsight
#                                                 Compute read the hardware counters
#                                                 (gs_counters.h), the rule's class;
#                                                 elsewhere the JSON must say why they
#                                                 were not read (with
#                                                 GRIDSTRIDE_REQUIRE_COUNTERS=1 that
#                                                 fails: the H200's record)
#   expect: CLASS [n=N] [shape=GxB|Gx256] [first=I]
#                                                 exit 1; the smallest failing case
#                                                 has CLASS, n, shape (G: the device
#                                                 grid) and first wrong index
#   expect: usage [parameter=K]                   exit 2, one line on stderr (naming
#                                                 parameter K), and with --format json
#                                                 the verdict bad-signature on stdout
#   expect: compile-error                         exit 2; the compiler's messages name
#                                                 the line marked "error-here", and
#                                                 with --format json the verdict
#                                                 compile-error with a diagnostic there
#
# An optional "check-args:" line adds arguments to the check (split at
# spaces), for an example whose verdict does not need the default sizes:
#
#   check-args: --sizes 0,1,611,65536
#
#   cmake -DGRIDSTRIDE=path -DEXAMPLE=file -DBACKEND=name [-DMODE=compile] -P check_example.cmake
#
# MODE=compile runs NVRTC alone for sm_75 and sm_90 (--compile-only), which
# needs no GPU: every example compiles except the compile-error ones, and a
# "usage" example's parameters, read from the PTX, are refused in one line.
# A backend without a device is reported skipped ("SKIPPED:"), unless
# GRIDSTRIDE_REQUIRE names it.
cmake_minimum_required(VERSION 3.20)

file(STRINGS "${EXAMPLE}" expect REGEX "^ \\* expect: ")
if(NOT expect)
  message(FATAL_ERROR "${EXAMPLE} has no ' * expect: ' line")
endif()
string(REGEX REPLACE "^ \\* expect: " "" expect "${expect}")
string(REGEX MATCH "^[a-z-]+" class "${expect}")
get_filename_component(base "${EXAMPLE}" NAME)
string(REPLACE "." "\\." base_re "${base}")

function(fail what)
  message(FATAL_ERROR "${base} on ${BACKEND}: ${what}\nexit ${code}\nstdout:\n${out}\nstderr:\n${err}")
endfunction()

# A "usage parameter=K" example's one line names parameter K.
function(expect_parameter_named)
  if(expect MATCHES " parameter=([0-9]+)")
    set(param ${CMAKE_MATCH_1})
    if(NOT err MATCHES "parameter ${param} ")
      fail("expected the line to name parameter ${param}")
    endif()
  endif()
endfunction()

# The line of the file marked "error-here", as the compiler should name it.
function(error_line var)
  file(STRINGS "${EXAMPLE}" lines)
  set(i 0)
  foreach(line IN LISTS lines)
    math(EXPR i "${i} + 1")
    if(line MATCHES "error-here")
      set(${var} ${i} PARENT_SCOPE)
      return()
    endif()
  endforeach()
  message(FATAL_ERROR "${EXAMPLE}: no line marked error-here")
endfunction()

# Run gridstride with the arguments given: code, out and err.
macro(gridstride)
  execute_process(COMMAND "${GRIDSTRIDE}" ${ARGN}
                  RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE err)
endmacro()

# Exit 2, no report, and the compiler's message at the marked line: NVRTC
# writes file(line), clang-based OpenCL compilers and gcc file:line:column.
function(expect_compile_error json)
  error_line(line)
  if(NOT code EQUAL 2 OR NOT err MATCHES "${base_re}(\\(${line}\\)|:${line}:)")
    fail("expected exit 2 and the compiler's message at ${base} line ${line}")
  endif()
  if(NOT json)
    if(NOT out MATCHES "^$")
      fail("expected no report")
    endif()
    return()
  endif()
  string(JSON verdict ERROR_VARIABLE jerr GET "${out}" verdict)
  if(jerr OR NOT verdict STREQUAL "compile-error")
    fail("expected the JSON verdict compile-error")
  endif()
  string(JSON n ERROR_VARIABLE jerr LENGTH "${out}" diagnostics)
  set(found FALSE)
  if(NOT jerr AND n GREATER 0)
    math(EXPR last "${n} - 1")
    foreach(k RANGE ${last})
      string(JSON l GET "${out}" diagnostics ${k} line)
      if(l EQUAL line)
        set(found TRUE)
      endif()
    endforeach()
  endif()
  if(NOT found AND NOT BACKEND STREQUAL "cuda")
    fail("expected a diagnostic at line ${line} in the JSON")
  endif()
endfunction()

if(MODE STREQUAL "compile")
  gridstride(check "${EXAMPLE}" --compile-only --arch sm_75,sm_90 --backend cuda)
  if(class STREQUAL "compile-error")
    expect_compile_error(FALSE)
  elseif(class STREQUAL "usage")
    string(REGEX MATCHALL "\n" newlines "${err}")
    list(LENGTH newlines nlines)
    if(NOT code EQUAL 2 OR NOT nlines EQUAL 1)
      fail("expected --compile-only to refuse the parameters: exit 2 and one line")
    endif()
    expect_parameter_named()
  else()
    if(NOT code EQUAL 0 OR NOT out MATCHES "NVRTC [0-9.]+ for sm_75" OR
       NOT out MATCHES "NVRTC [0-9.]+ for sm_90")
      fail("expected NVRTC to compile it for sm_75 and sm_90")
    endif()
  endif()
  return()
endif()

file(STRINGS "${EXAMPLE}" check_args REGEX "^ \\* check-args: ")
if(check_args)
  string(REGEX REPLACE "^ \\* check-args: " "" check_args "${check_args}")
  separate_arguments(check_args UNIX_COMMAND "${check_args}")
endif()
# Under ctest with a resource spec, the GPU CTest allocated to this test
# (its resource id, pci_DDDD_BB_DD_F), as --device selects it.
set(device "")
if("$ENV{CTEST_RESOURCE_GROUP_0_GPUS}" MATCHES "id:([a-z0-9_]+)")
  set(device --device ${CMAKE_MATCH_1})
endif()
# An example whose expect line asserts no speed= needs no speed pass (nor the
# hardware counters it brings): it is checked on its cases alone, which are
# what its line states. The examples with speed=measured still time.
set(no_speed "")
if(class STREQUAL "ok" AND NOT expect MATCHES " speed=")
  set(no_speed --no-speed)
endif()
gridstride(check "${EXAMPLE}" --backend ${BACKEND} ${device} --format json ${no_speed}
           ${check_args})

# A backend without a device is skipped, unless it is demanded: --list is
# asked only where the check ended in an error of the run (exit 2, verdict
# "error"), not before every check (one more start of the API's runtime a
# test). A demanded backend is never looked at: without a device the check
# itself fails, and the test with it.
if(code EQUAL 2 AND NOT "$ENV{GRIDSTRIDE_REQUIRE}" MATCHES "(^|,)(${BACKEND}|all)(,|$)")
  string(JSON verdict ERROR_VARIABLE jerr GET "${out}" verdict)
  if(NOT jerr AND verdict STREQUAL "error")
    execute_process(COMMAND "${GRIDSTRIDE}" --list --backend ${BACKEND}
                    RESULT_VARIABLE list_code OUTPUT_QUIET ERROR_VARIABLE list_err)
    if(NOT list_code EQUAL 0)
      message("SKIPPED: ${list_err}")
      return()
    endif()
  endif()
endif()

if(class STREQUAL "compile-error")
  expect_compile_error(TRUE)
  return()
endif()
if(class STREQUAL "usage")
  string(REGEX MATCHALL "\n" newlines "${err}")
  list(LENGTH newlines nlines)
  string(JSON verdict ERROR_VARIABLE jerr GET "${out}" verdict)
  if(NOT code EQUAL 2 OR jerr OR NOT verdict MATCHES "^bad-(signature|usage)$" OR
     NOT nlines EQUAL 1)
    fail("expected exit 2, the JSON verdict bad-signature and one line on stderr")
  endif()
  expect_parameter_named()
  return()
endif()

# A report at all: exit 0 (all right) or 1 (a case wrong).
if(class STREQUAL "ok")
  set(want_code 0)
else()
  set(want_code 1)
endif()
if(NOT code EQUAL want_code)
  fail("expected exit ${want_code} and a report")
endif()
string(JSON verdict GET "${out}" verdict)
string(JSON backend GET "${out}" backends 0 backend)
if(NOT backend STREQUAL BACKEND)
  fail("the report is for ${backend}")
endif()
if(class STREQUAL "ok")
  if(NOT code EQUAL 0 OR NOT verdict STREQUAL "ok")
    fail("expected verdict ok and exit 0")
  endif()
  if(expect MATCHES " work=([a-z-]+)")
    set(want_work ${CMAKE_MATCH_1})
    string(JSON counted GET "${out}" backends 0 work counted)
    string(JSON work_class GET "${out}" backends 0 work class)
    string(JSON work_words GET "${out}" backends 0 work words)
    if(counted AND NOT work_class STREQUAL want_work)
      fail("expected the writes counted as ${want_work}, got ${work_class}: ${work_words}")
    endif()
    string(JSON on_host GET "${out}" backends 0 work counted_on_host)
    # A .gs text is counted on every backend where the host backend is built in.
    execute_process(COMMAND "${GRIDSTRIDE}" --list --backend host RESULT_VARIABLE host_code
                    OUTPUT_QUIET ERROR_QUIET)
    if(NOT counted AND (host_code EQUAL 0 OR NOT work_words MATCHES "^not counted: .+"))
      fail("expected the writes counted, or why not: ${work_words}")
    endif()
    if(counted AND NOT BACKEND STREQUAL "host" AND NOT on_host)
      fail("expected the writes of a .gs text on ${BACKEND} counted on the host backend")
    endif()
  endif()
  if(expect MATCHES " counters=([a-z-]+)")
    set(want_counters ${CMAKE_MATCH_1})
    string(JSON ctr_read GET "${out}" backends 0 counters read)
    string(JSON ctr_class GET "${out}" backends 0 counters class)
    string(JSON ctr_why GET "${out}" backends 0 counters why)
    if(ctr_read)
      string(JSON ctr_words GET "${out}" backends 0 counters words)
      if(NOT ctr_class STREQUAL want_counters)
        fail("expected the counters' class ${want_counters}, got ${ctr_class}: ${ctr_words}")
      endif()
    elseif("$ENV{GRIDSTRIDE_REQUIRE_COUNTERS}" STREQUAL "1" AND BACKEND STREQUAL "cuda")
      fail("expected the hardware counters read (GRIDSTRIDE_REQUIRE_COUNTERS=1): ${ctr_why}")
    elseif(NOT ctr_why MATCHES ".+")
      fail("expected the counters read, or why not")
    endif()
  endif()
  if(expect MATCHES " speed=measured")
    string(JSON measured GET "${out}" backends 0 speed measured)
    string(JSON speed_class GET "${out}" backends 0 speed class)
    string(JSON rule GET "${out}" backends 0 speed rule)
    string(JSON speed_n GET "${out}" backends 0 speed n)
    string(JSON nrows LENGTH "${out}" backends 0 speed rows)
    if(NOT measured OR NOT speed_class MATCHES "^(as-fast|slower|too-slow)$" OR
       NOT rule MATCHES "suite's grid-stride loop" OR speed_n LESS 1 OR nrows LESS 6)
      fail("expected the speed pass measured with its rule (class ${speed_class})")
    endif()
    math(EXPR last "${nrows} - 1")
    foreach(k RANGE ${last})
      string(JSON kernel GET "${out}" backends 0 speed rows ${k} kernel)
      string(JSON state GET "${out}" backends 0 speed rows ${k} state)
      string(JSON nsamples LENGTH "${out}" backends 0 speed rows ${k} samples_ms)
      string(JSON why GET "${out}" backends 0 speed rows ${k} why)
      if(state MATCHES "^(wrong|impossible)$")
        fail("the timed row ${kernel} is ${state}")
      endif()
      # The grid sized to n is left out after a kernel too slow on grid G.
      if(kernel STREQUAL "user" AND NOT state MATCHES "^(timed|too-slow)$" AND
         NOT (speed_class STREQUAL "too-slow" AND why STREQUAL "too slow on grid G already"))
        fail("the user's row is ${state}, not timed: ${why}")
      endif()
      if(state STREQUAL "timed" AND nsamples LESS 20)
        fail("the timed row ${kernel} has ${nsamples} samples, fewer than 20")
      endif()
    endforeach()
  endif()
  return()
endif()

if(NOT code EQUAL 1 OR NOT verdict STREQUAL "wrong")
  fail("expected verdict wrong and exit 1")
endif()
string(JSON got_class GET "${out}" backends 0 smallest class)
string(JSON got_n GET "${out}" backends 0 smallest n)
string(JSON got_grid GET "${out}" backends 0 smallest grid)
string(JSON got_block GET "${out}" backends 0 smallest block)
string(JSON device_grid GET "${out}" backends 0 G)
if(NOT got_class STREQUAL class)
  fail("expected the smallest failing case to be ${class}, got ${got_class}")
endif()
if(expect MATCHES " n=([0-9]+)" AND NOT got_n EQUAL CMAKE_MATCH_1)
  fail("expected the smallest failing n = ${CMAKE_MATCH_1}, got ${got_n}")
endif()
if(expect MATCHES " shape=([0-9G]+)x([0-9]+)")
  set(want_grid ${CMAKE_MATCH_1})
  set(want_block ${CMAKE_MATCH_2})
  if(want_grid STREQUAL "G")
    set(want_grid ${device_grid})
  endif()
  if(NOT got_grid EQUAL want_grid OR NOT got_block EQUAL want_block)
    fail("expected the smallest failing shape <<<${want_grid}, ${want_block}>>>, got <<<${got_grid}, ${got_block}>>>")
  endif()
endif()
if(expect MATCHES " first=([0-9]+)")
  string(JSON first GET "${out}" backends 0 smallest first_wrong_indices 0 index)
  if(NOT first EQUAL CMAKE_MATCH_1)
    fail("expected the first wrong index ${CMAKE_MATCH_1}, got ${first}")
  endif()
endif()
