# SPDX-License-Identifier: MIT
# Helpers shared by every folder of the project.

# A library on the link line that nothing uses is not a dependency: a CUDA
# target may bring the driver stub (libcuda.so), and a program that needs libcuda.so.1
# cannot start, and skip CUDA, where no driver is installed. Debian's GCC
# passes --as-needed by default, but not with -fsanitize, nor do all distros.
if(CMAKE_SYSTEM_NAME STREQUAL "Linux")
  add_link_options(LINKER:--as-needed)
endif()

# Sanitizers for the C code and every executable (the ci-sanitize preset):
# a comma list as -fsanitize takes it, e.g. address,undefined. No recovery,
# so that the first report ends the process and fails the test that caused
# it. nvcc's side is left alone (its host compiler is not ours to instrument,
# and the CUDA runtime does its own checking). GS_FUZZ=ON (clang) adds
# libFuzzer's coverage instrumentation for tests/fuzz.
set(GS_SANITIZE "" CACHE STRING "Sanitizers, e.g. address,undefined (empty: none)")
option(GS_FUZZ "Build the libFuzzer target tests/fuzz (clang only)" OFF)
set(_gs_san_flags "")
if(GS_SANITIZE)
  string(REPLACE "," ";" _gs_san_list "${GS_SANITIZE}")
  foreach(_s IN LISTS _gs_san_list)
    if(NOT _s MATCHES "^(address|undefined|leak)$")
      message(FATAL_ERROR "GS_SANITIZE=${GS_SANITIZE}: '${_s}' is not one of address, "
                          "undefined, leak (comma-separated)")
    endif()
  endforeach()
  list(APPEND _gs_san_flags -fsanitize=${GS_SANITIZE} -fno-sanitize-recover=all
                            -fno-omit-frame-pointer -g)
endif()
if(GS_FUZZ)
  if(NOT CMAKE_C_COMPILER_ID MATCHES "Clang")
    message(FATAL_ERROR "GS_FUZZ=ON needs clang (libFuzzer): configure with CC=clang, "
                        "or leave GS_FUZZ off (the corpus replay needs no clang)")
  endif()
  list(APPEND _gs_san_flags -fsanitize=fuzzer-no-link)
endif()
if(_gs_san_flags)
  add_compile_options("$<$<COMPILE_LANGUAGE:C>:${_gs_san_flags}>")
  add_link_options(${_gs_san_flags})
endif()

# The environment of tests in a sanitizer build: leak checking on, the first
# report fatal, and the suppressions of driver-internal leaks (tests/lsan.supp
# says why each one is there). A test's own ENVIRONMENT wins over the ctest
# preset's.
function(gs_sanitizer_env)
  if(NOT GS_SANITIZE OR NOT ARGN)
    return()
  endif()
  # intercept_tls_get_addr=0: the known cause of LeakSanitizer's tracer dying
  # at exit ("Tracer caught signal 11") after a test that passed, which CI met
  # once: up to GCC 13 and LLVM 16 the runtime's __tls_get_addr interceptor
  # takes a dynamic TLS block (PoCL's and LLVM's, loaded with dlopen) that
  # starts at one offset of its page for a glibc 2.19 header and reads a
  # bogus range from before it. Our own code has no dynamic TLS.
  set(asan "detect_leaks=1:halt_on_error=1:detect_stack_use_after_return=1:strict_string_checks=1")
  string(APPEND asan ":intercept_tls_get_addr=0")
  get_property(_built GLOBAL PROPERTY GS_BACKEND_NAMES)
  if("cuda" IN_LIST _built)
    # The CUDA driver maps memory where ASan keeps its shadow gap.
    string(APPEND asan ":protect_shadow_gap=0")
  endif()
  set_property(TEST ${ARGN} APPEND PROPERTY ENVIRONMENT
    "ASAN_OPTIONS=${asan}"
    "LSAN_OPTIONS=suppressions=${PROJECT_SOURCE_DIR}/tests/lsan.supp:print_suppressions=0"
    "UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1")
endfunction()

# Flags for our own C code (never for third-party headers).
function(gs_c_target target)
  target_compile_definitions(${target} PRIVATE _POSIX_C_SOURCE=200809L)
  # __FILE__ relative to the project, so that API errors name
  # backend_cuda/gs_cuda.c:123 and not a build machine's path.
  target_compile_options(${target} PRIVATE
    $<$<COMPILE_LANGUAGE:C>:-fmacro-prefix-map=${PROJECT_SOURCE_DIR}/=>
    $<$<COMPILE_LANGUAGE:C>:-Wall -Wextra -Wshadow -Wstrict-prototypes -ffp-contract=off>
    $<$<AND:$<COMPILE_LANGUAGE:C>,$<BOOL:${GS_WERROR}>>:-Werror>)
endfunction()

# gs_backend_option(<name> <VAR> <doc>): VAR = AUTO | ON | OFF, a cache entry
# a user can set, for the backend that --backend calls <name>. The registry
# remembers it even when the backend is not built, so that the CLI can say
# which option builds it.
function(gs_backend_option name var doc)
  set(${var} AUTO CACHE STRING "${doc}: AUTO (build when found), ON (required), OFF")
  set_property(CACHE ${var} PROPERTY STRINGS AUTO ON OFF)
  string(TOUPPER "${${var}}" _v)
  if(NOT _v MATCHES "^(AUTO|ON|OFF)$")
    message(FATAL_ERROR "${var}=${${var}} is not AUTO, ON or OFF")
  endif()
  set_property(GLOBAL APPEND PROPERTY GS_BACKEND_DECLARED "${name}")
  set_property(GLOBAL PROPERTY GS_BACKEND_OPTION_${name} "${var}")
endfunction()

# gs_add_backend(<name> <target> <symbol> [REFERENCE] [TOOLKIT text]):
# register a backend library: `name` is the --backend name, `target` the
# library that defines `const struct gs_backend <symbol>`. REFERENCE marks
# the plain-C reference (not timed by `bandwidth` unless named); TOOLKIT is
# what it was built with ("CUDA 13.0.88"), for the results files.
function(gs_add_backend name target symbol)
  cmake_parse_arguments(ARG "REFERENCE" "TOOLKIT;NO_BANDWIDTH" "" ${ARGN})
  set_property(GLOBAL APPEND PROPERTY GS_BACKEND_NAMES ${name})
  set_property(GLOBAL APPEND PROPERTY GS_BACKEND_TARGETS ${target})
  set_property(GLOBAL APPEND PROPERTY GS_BACKEND_SYMBOLS ${symbol})
  set_property(GLOBAL PROPERTY GS_BACKEND_SYMBOL_${name} ${symbol})
  set_property(GLOBAL PROPERTY GS_BACKEND_REFERENCE_${name} ${ARG_REFERENCE})
  # Why the backend's bandwidth is not comparable with the GPU APIs': no
  # bench_<name> test (its devices also say so to `gridstride bandwidth`).
  set_property(GLOBAL PROPERTY GS_BACKEND_NO_BANDWIDTH_${name} "${ARG_NO_BANDWIDTH}")
  # What the backend was built with, for the "toolkit" of results files.
  if(ARG_TOOLKIT)
    set_property(GLOBAL APPEND PROPERTY GS_TOOLKIT "${ARG_TOOLKIT}")
  endif()
endfunction()

# The toolkit line of results files: the C compiler and each backend's.
function(gs_toolkit_string out)
  get_property(parts GLOBAL PROPERTY GS_TOOLKIT)
  list(PREPEND parts "${CMAKE_C_COMPILER_ID} C ${CMAKE_C_COMPILER_VERSION}")
  list(JOIN parts ", " joined)
  set(${out} "${joined}" PARENT_SCOPE)
endfunction()

# gs_add_backend_variant(<name> <variant> <VAR=value>...): the conformance
# body and the pitfalls run once more on backend <name>, as ctest entries
# conformance_<name>_<variant> and pitfalls_<name>_<variant>, with these
# environment variables set: a mode of the API's runtime that needs no
# device (OpenMP's host fallback). The backend must find a device there:
# the entries fail rather than skip.
function(gs_add_backend_variant name variant)
  string(REPLACE ";" "," env "${ARGN}")
  set_property(GLOBAL APPEND PROPERTY GS_BACKEND_VARIANTS "${name}|${variant}|${env}")
endfunction()

# Write the registry (core/device/gs_registry.h declares it): every backend the
# build knows, compiled in or not, with its option and whether it is the
# reference; and the gs_backends library that links the compiled-in ones.
function(gs_generate_registry)
  get_property(built GLOBAL PROPERTY GS_BACKEND_NAMES)
  get_property(declared GLOBAL PROPERTY GS_BACKEND_DECLARED)
  get_property(targets GLOBAL PROPERTY GS_BACKEND_TARGETS)
  set(known ${built} ${declared})
  list(REMOVE_DUPLICATES known)
  set(decls "")
  set(rows "")
  foreach(name IN LISTS known)
    get_property(sym GLOBAL PROPERTY GS_BACKEND_SYMBOL_${name})
    get_property(opt GLOBAL PROPERTY GS_BACKEND_OPTION_${name})
    get_property(ref GLOBAL PROPERTY GS_BACKEND_REFERENCE_${name})
    set(ptr "0")
    if(sym)
      string(APPEND decls "extern const struct gs_backend ${sym};\n")
      set(ptr "&${sym}")
    endif()
    set(optc "0")
    if(opt)
      set(optc "\"${opt}\"")
    endif()
    set(refc 0)
    if(ref)
      set(refc 1)
    endif()
    string(APPEND rows "    {\"${name}\", ${optc}, ${refc}, ${ptr}},\n")
  endforeach()
  set(out "${CMAKE_BINARY_DIR}/generated/gs_registry_table.c")
  file(CONFIGURE OUTPUT "${out}" CONTENT
"/* Generated by CMake from the gs_backend_option() and gs_add_backend()
 * calls: do not edit. */
#include \"gs_registry.h\"

@decls@
const struct gs_registry_entry gs_registry_known[] = {
@rows@    {0, 0, 0, 0}
};
" @ONLY)
  add_library(gs_backends STATIC "${out}" "${PROJECT_SOURCE_DIR}/core/device/gs_registry.c")
  target_link_libraries(gs_backends PUBLIC gs_core ${targets})
  gs_c_target(gs_backends)
endfunction()

# Generate `out_c` defining `const char <name>[]`: the text of the files that
# follow, each after a #line directive naming kernels/<file> (gs_embed.cmake).
function(gs_embed name out_c)
  add_custom_command(
    OUTPUT ${out_c}
    COMMAND ${CMAKE_COMMAND} -DOUTPUT=${out_c} "-DSOURCES=${ARGN}" -DNAME=${name}
            -P ${PROJECT_SOURCE_DIR}/cmake/gs_embed.cmake
    DEPENDS ${ARGN} ${PROJECT_SOURCE_DIR}/cmake/gs_embed.cmake
    COMMENT "Embedding ${name}"
    VERBATIM)
endfunction()
