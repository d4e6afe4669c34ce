# `cmake --install build --prefix P` installs the ohmvp executable, the library with its headers,
# the shipped configs and testbenches, and a CMake package: find_package(OhmVP) gives the target
# OhmVP::ohmvp to a host program in another project.
include(CMakePackageConfigHelpers)

install(TARGETS ohmvp_core EXPORT OhmVPTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/ohmvp)
install(TARGETS ohmvp RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
foreach(header_root modules tlm_protocols platforms)
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/${header_root}
    DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/ohmvp
    FILES_MATCHING PATTERN "*.h")
endforeach()
install(DIRECTORY ${PROJECT_SOURCE_DIR}/configs ${PROJECT_SOURCE_DIR}/testbenches
  DESTINATION ${CMAKE_INSTALL_DATADIR}/ohmvp)

install(EXPORT OhmVPTargets NAMESPACE OhmVP:: DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/OhmVP)
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/OhmVPConfig.cmake.in
  ${PROJECT_BINARY_DIR}/OhmVPConfig.cmake
  INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/OhmVP)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/OhmVPConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/OhmVPConfig.cmake ${PROJECT_BINARY_DIR}/OhmVPConfigVersion.cmake
  DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/OhmVP)
