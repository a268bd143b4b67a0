# SPDX-License-Identifier: Zlib
# Install rules, in two components (the Debian packages of AnalyticPackage.cmake): headers, the same for
# both precisions, and library, the archive and the CMake package. The double build's library, config and
# targets files carry "float64" in their names, as Debian's Bullet's do, so both builds install side by
# side: find_package(BulletAnalytic) finds the float build, find_package(BulletAnalytic CONFIGS
# BulletAnalyticConfig-float64.cmake) the double one.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

if(ANALYTIC_DOUBLE_PRECISION)
  set(analytic_config_name BulletAnalyticConfig-float64)
  set(analytic_targets_name BulletAnalyticFloat64Targets)
else()
  set(analytic_config_name BulletAnalyticConfig)
  set(analytic_targets_name BulletAnalyticTargets)
endif()

install(TARGETS analytic_geometry analytic EXPORT BulletAnalyticTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT library
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT library
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/geometry/include/ ${PROJECT_SOURCE_DIR}/plugin/include/
                  ${PROJECT_SOURCE_DIR}/adapters/include/
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} COMPONENT headers)

set(config_dir ${CMAKE_INSTALL_LIBDIR}/cmake/BulletAnalytic)
# A targets file loads its per-configuration files as <name>-*.cmake: neither precision's name may
# extend the other's.
install(EXPORT BulletAnalyticTargets FILE ${analytic_targets_name}.cmake NAMESPACE BulletAnalytic::
        DESTINATION ${config_dir} COMPONENT library)
# The dependencies are written into the config, so that it shares no file with the other precision's.
file(READ ${PROJECT_SOURCE_DIR}/cmake/AnalyticDependencies.cmake analytic_dependencies)
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/BulletAnalyticConfig.cmake.in
                              ${PROJECT_BINARY_DIR}/${analytic_config_name}.cmake INSTALL_DESTINATION ${config_dir})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/${analytic_config_name}Version.cmake
                                 COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/${analytic_config_name}.cmake
              ${PROJECT_BINARY_DIR}/${analytic_config_name}Version.cmake
        DESTINATION ${config_dir} COMPONENT library)
