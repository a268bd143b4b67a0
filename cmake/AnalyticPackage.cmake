# SPDX-License-Identifier: Zlib
# Debian packages of the build (cpack, in the build directory), installable beside Debian's Bullet and
# beside each other:
# - libbullet-analytic-headers (all architectures): the headers, identical from either build;
# - libbullet-analytic-dev (float build) or libbullet-analytic-float64-dev (double build): the archive
#   and the CMake package, whose file names differ between the precisions (AnalyticInstall.cmake).
# Both libraries depend on Debian's libbullet-dev, which holds the float and the float64 Bullet, of the
# minor version they were built against (the archive is compiled against its headers).
# cpack packages what is built (build first): its install step builds nothing, where it would otherwise
# build every target of the tree, tests and benchmarks included, on one core.
set(CMAKE_SKIP_INSTALL_ALL_DEPENDENCY ON)
set(CPACK_GENERATOR DEB)
set(CPACK_VERBATIM_VARIABLES ON)
set(CPACK_PACKAGE_NAME bullet-analytic)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_VENDOR "the bullet-analytic authors")
set(ANALYTIC_PACKAGE_MAINTAINER "bullet-analytic maintainers <maintainers@users.noreply.a-seed-771c61d5.example>"
    CACHE STRING "Maintainer field of the Debian packages")
set(CPACK_PACKAGE_CONTACT ${ANALYTIC_PACKAGE_MAINTAINER})
set(CPACK_RESOURCE_FILE_LICENSE ${PROJECT_SOURCE_DIR}/LICENSE)
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_COMPONENTS_ALL headers library)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_RELEASE 1)
set(CPACK_DEBIAN_PACKAGE_SECTION libdevel)
set(deb_version ${PROJECT_VERSION}-${CPACK_DEBIAN_PACKAGE_RELEASE})

set(CPACK_DEBIAN_HEADERS_PACKAGE_NAME libbullet-analytic-headers)
set(CPACK_DEBIAN_HEADERS_PACKAGE_ARCHITECTURE all)
set(CPACK_DEBIAN_HEADERS_PACKAGE_DEPENDS "libglm-dev")
set(CPACK_DEBIAN_HEADERS_DESCRIPTION
    "exact closed-form collision for Bullet Physics -- headers
The headers of bullet-analytic: the engine-free geometry core (GLM only, header-only) and the
Bullet plugin's interface, the same for the float and the double (float64) library.")

if(NOT BULLET_VERSION MATCHES "^([0-9]+)\\.([0-9]+)")
  message(FATAL_ERROR "Bullet's version \"${BULLET_VERSION}\" (pkg-config) is not major.minor")
endif()
math(EXPR bullet_next_minor "${CMAKE_MATCH_2} + 1")
set(bullet_depends
    "libbullet-dev (>= ${CMAKE_MATCH_1}.${CMAKE_MATCH_2}), libbullet-dev (<< ${CMAKE_MATCH_1}.${bullet_next_minor})")
if(ANALYTIC_DOUBLE_PRECISION)
  set(CPACK_DEBIAN_LIBRARY_PACKAGE_NAME libbullet-analytic-float64-dev)
  set(precision "double-precision Bullet (bullet-float64, BT_USE_DOUBLE_PRECISION)")
  set(usage "find_package(BulletAnalytic CONFIGS BulletAnalyticConfig-float64.cmake)")
else()
  set(CPACK_DEBIAN_LIBRARY_PACKAGE_NAME libbullet-analytic-dev)
  set(precision "single-precision Bullet (bullet)")
  set(usage "find_package(BulletAnalytic)")
endif()
set(CPACK_DEBIAN_LIBRARY_PACKAGE_DEPENDS
    "libbullet-analytic-headers (= ${deb_version}), ${bullet_depends}, libglm-dev, pkg-config")
set(CPACK_DEBIAN_LIBRARY_DESCRIPTION
    "exact closed-form collision for Bullet Physics -- ${precision}
Narrow-phase algorithms for Bullet's dispatcher, exact ray casts, ray batches and sphere sweeps,
for the ${precision}: the static library and its CMake package, used with
${usage}.")
# package_source: the sources alone, without build trees or the repository.
set(CPACK_SOURCE_GENERATOR TGZ)
set(CPACK_SOURCE_IGNORE_FILES "/build/" "/\\.git(/|$)" "/\\.cache/")
include(CPack)
