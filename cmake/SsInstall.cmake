# SsInstall.cmake: what `cmake --install` puts under the prefix, and the .deb (CPack).
#
#   bin/syncscope                                  the command
#   lib/syncscope/libsyncscope.so                  capture library (interpose/), and its
#   lib/syncscope/libsyncscope_finish.so           exit-time finisher, found beside it;
#                                                  `syncscope run` finds both as
#                                                  ../lib/syncscope from its own folder
#   lib/cmake/syncscope/                           find_package(syncscope)
#   share/doc/syncscope/rules/                     the rule pages, generated from the catalog
#   share/man/man1/syncscope.1                     generated from the catalog and the
#   share/man/man7/syncscope-rules.7               commands' --help (report/gen_man.c)
#   share/bash-completion/completions/syncscope
#   lib/python3/dist-packages/syncscope/           the Python module (syncscope.scope()),
#                                                  where Debian's python3 looks under /usr
#
# The layout is fixed (no GNUInstallDirs): the command finds its libraries by it.
include(CMakePackageConfigHelpers)

set(SS_INSTALL_BINDIR bin)
set(SS_INSTALL_CMAKEDIR lib/cmake/syncscope)
set(SS_INSTALL_DOCDIR share/doc/syncscope)
set(SS_GENERATED_DOCS ${PROJECT_BINARY_DIR}/install-docs)

install(TARGETS syncscope RUNTIME DESTINATION ${SS_INSTALL_BINDIR})

# The rule pages, written by syncscope-gen-docs into the build folder (the same generator
# that keeps docs/rules/ in the sources, so both are the catalog's).
set(ss_rules_stamp ${SS_GENERATED_DOCS}/rules.stamp)
add_custom_command(OUTPUT ${ss_rules_stamp}
  COMMAND ${CMAKE_COMMAND} -E rm -rf ${SS_GENERATED_DOCS}/rules
  COMMAND ${CMAKE_COMMAND} -E make_directory ${SS_GENERATED_DOCS}/rules
  COMMAND syncscope-gen-docs ${SS_GENERATED_DOCS}/rules
  COMMAND ${CMAKE_COMMAND} -E touch ${ss_rules_stamp}
  DEPENDS syncscope-gen-docs ${PROJECT_SOURCE_DIR}/rules/rules.def
  COMMENT "Generating the rule pages for installation"
  VERBATIM)

# The manual pages: the catalog, and each command's --help as the built command prints it.
set(ss_man_pages ${SS_GENERATED_DOCS}/man/syncscope.1 ${SS_GENERATED_DOCS}/man/syncscope-rules.7)
add_custom_command(OUTPUT ${ss_man_pages}
  COMMAND ${CMAKE_COMMAND} -DSYNCSCOPE=$<TARGET_FILE:syncscope> -DOUT=${SS_GENERATED_DOCS}/help
          -P ${PROJECT_SOURCE_DIR}/cmake/SsHelpTexts.cmake
  COMMAND ${CMAKE_COMMAND} -E make_directory ${SS_GENERATED_DOCS}/man
  COMMAND syncscope-gen-man ${SS_GENERATED_DOCS}/man ${SS_GENERATED_DOCS}/help
  DEPENDS syncscope syncscope-gen-man ${PROJECT_SOURCE_DIR}/cmake/SsHelpTexts.cmake
          ${PROJECT_SOURCE_DIR}/rules/rules.def
  COMMENT "Generating the manual pages"
  VERBATIM)
add_custom_target(ss_install_docs ALL DEPENDS ${ss_rules_stamp} ${ss_man_pages})

install(DIRECTORY ${SS_GENERATED_DOCS}/rules/ DESTINATION ${SS_INSTALL_DOCDIR}/rules
        FILES_MATCHING PATTERN "*.md")
install(FILES ${SS_GENERATED_DOCS}/man/syncscope.1 DESTINATION share/man/man1)
install(FILES ${SS_GENERATED_DOCS}/man/syncscope-rules.7 DESTINATION share/man/man7)
install(FILES ${PROJECT_SOURCE_DIR}/cmake/syncscope.bash
        DESTINATION share/bash-completion/completions RENAME syncscope)
# The pure-Python module (docs/python.md): on Debian's sys.path when the prefix is /usr (the
# .deb); under another prefix, PYTHONPATH=PREFIX/lib/python3/dist-packages.
install(DIRECTORY ${PROJECT_SOURCE_DIR}/python/syncscope DESTINATION lib/python3/dist-packages
        FILES_MATCHING PATTERN "*.py")

# find_package(syncscope): syncscope::syncscope and syncscope_lint(TARGET ...).
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/syncscopeConfig.cmake.in
  ${PROJECT_BINARY_DIR}/cmake/syncscopeConfig.cmake
  INSTALL_DESTINATION ${SS_INSTALL_CMAKEDIR}
  PATH_VARS SS_INSTALL_BINDIR)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/cmake/syncscopeConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion ARCH_INDEPENDENT)
install(FILES ${PROJECT_BINARY_DIR}/cmake/syncscopeConfig.cmake
              ${PROJECT_BINARY_DIR}/cmake/syncscopeConfigVersion.cmake
              ${PROJECT_SOURCE_DIR}/cmake/syncscopeLint.cmake
        DESTINATION ${SS_INSTALL_CMAKEDIR})

# The .deb: `cpack -G DEB` in the build folder (docs/install.md). dpkg-shlibdeps derives
# Depends from the installed binaries (libclang1-16, libcjson1, libyaml-0-2, libdw1, libc6);
# python3 is added for the Python module. The binaries are stripped, and cmake/deb/package.cmake
# compresses the manual pages and adds the copyright file and the changelog, so that lintian
# finds no error (tests/install/lintian.sh).
set(SYNCSCOPE_PACKAGE_MAINTAINER "syncscope developers <syncscope@example.org>"
    CACHE STRING "Maintainer field of the .deb built by CPack")
# The default before 0.1.0's packaging fixes had a domain lintian refuses; a build folder
# configured then is moved on.
if(SYNCSCOPE_PACKAGE_MAINTAINER STREQUAL "syncscope developers <syncscope@invalid>")
  set(SYNCSCOPE_PACKAGE_MAINTAINER "syncscope developers <syncscope@example.org>"
      CACHE STRING "Maintainer field of the .deb built by CPack" FORCE)
endif()
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME syncscope)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "${PROJECT_DESCRIPTION}")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "${SYNCSCOPE_PACKAGE_MAINTAINER}")
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_DEPENDS python3)
set(CPACK_STRIP_FILES ON)
configure_file(${PROJECT_SOURCE_DIR}/cmake/deb/changelog.in ${PROJECT_BINARY_DIR}/deb/changelog
               @ONLY)
configure_file(${PROJECT_SOURCE_DIR}/cmake/deb/package.cmake.in
               ${PROJECT_BINARY_DIR}/deb/package.cmake @ONLY)
set(CPACK_PRE_BUILD_SCRIPTS ${PROJECT_BINARY_DIR}/deb/package.cmake)
string(CONCAT CPACK_DEBIAN_PACKAGE_DESCRIPTION
  "finds implicit synchronization in CUDA programs\n"
  "syncscope lint predicts, from the sources, where a CUDA program loses\n"
  "concurrency to synchronization nobody asked for (legacy default stream,\n"
  "pageable asynchronous copies, readbacks, allocation and synchronization in\n"
  "loops); syncscope run observes it in an unmodified program through CUPTI.\n"
  "Output as text, JSON, SARIF, GitHub annotations, GitLab Code Quality and\n"
  "HTML.")
include(CPack)
