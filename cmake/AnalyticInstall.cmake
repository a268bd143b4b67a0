# SPDX-License-Identifier: Zlib
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

install(TARGETS analytic_geometry analytic EXPORT BulletAnalyticTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/geometry/include/ ${PROJECT_SOURCE_DIR}/plugin/include/
                  ${PROJECT_SOURCE_DIR}/adapters/include/
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})

set(config_dir ${CMAKE_INSTALL_LIBDIR}/cmake/BulletAnalytic)
install(EXPORT BulletAnalyticTargets NAMESPACE BulletAnalytic:: DESTINATION ${config_dir})
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/BulletAnalyticConfig.cmake.in
                              ${PROJECT_BINARY_DIR}/BulletAnalyticConfig.cmake INSTALL_DESTINATION ${config_dir})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/BulletAnalyticConfigVersion.cmake
                                 COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/BulletAnalyticConfig.cmake
              ${PROJECT_BINARY_DIR}/BulletAnalyticConfigVersion.cmake
              ${PROJECT_SOURCE_DIR}/cmake/AnalyticDependencies.cmake
        DESTINATION ${config_dir})
