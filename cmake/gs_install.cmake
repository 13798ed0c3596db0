# SPDX-License-Identifier: MIT
# Installation (cmake --install <build> [--prefix DIR]): the program, its
# man page, its bash completion, and under share/gridstride what its commands
# need outside a checkout: the examples (`lecture` checks
# examples/grid_stride.gs; `check` takes any of them), the JSON Schemas of its
# outputs and the reference results that `gridstride compare` can read. The
# program finds them relative to itself (gs_data_file, cli/gs_driver.h), so
# an install under any prefix works as it is.
include(GNUInstallDirs)
install(TARGETS gridstride RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(FILES ${PROJECT_SOURCE_DIR}/docs/gridstride.1 DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/docs/reference/
        DESTINATION ${CMAKE_INSTALL_DATADIR}/gridstride/reference)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/docs/schema/
        DESTINATION ${CMAKE_INSTALL_DATADIR}/gridstride/schema)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/examples/
        DESTINATION ${CMAKE_INSTALL_DATADIR}/gridstride/examples USE_SOURCE_PERMISSIONS)
install(FILES ${PROJECT_SOURCE_DIR}/LICENSE DESTINATION ${CMAKE_INSTALL_DOCDIR})
install(FILES ${PROJECT_SOURCE_DIR}/scripts/gridstride.bash
        DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions RENAME gridstride)

# The man page is generated from --help, committed, and checked by a test.
set(_gs_man_args -DGRIDSTRIDE=$<TARGET_FILE:gridstride>
                 -DPAGE=${PROJECT_SOURCE_DIR}/docs/gridstride.1)
add_custom_target(man
  COMMAND ${CMAKE_COMMAND} ${_gs_man_args} -DMODE=write -P ${PROJECT_SOURCE_DIR}/cmake/man-page.cmake
  DEPENDS gridstride
  COMMENT "Regenerating docs/gridstride.1 from gridstride --help"
  VERBATIM)
if(BUILD_TESTING)
  add_test(NAME man_page
    COMMAND ${CMAKE_COMMAND} ${_gs_man_args} -DMODE=check -P ${PROJECT_SOURCE_DIR}/cmake/man-page.cmake)
  set_tests_properties(man_page PROPERTIES LABELS "cli;docs" SKIP_REGULAR_EXPRESSION "SKIP: help2man")
endif()
