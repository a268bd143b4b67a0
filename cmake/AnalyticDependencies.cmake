# SPDX-License-Identifier: Zlib
# Bullet comes from Debian's pkg-config files: bullet (float) or bullet-float64, whose flags carry
# -DBT_USE_DOUBLE_PRECISION. Shared with the installed package config so consumers link the same build.
find_package(PkgConfig REQUIRED)
if(ANALYTIC_DOUBLE_PRECISION)
  pkg_check_modules(BULLET REQUIRED IMPORTED_TARGET bullet-float64)
else()
  pkg_check_modules(BULLET REQUIRED IMPORTED_TARGET bullet)
endif()
find_package(glm REQUIRED)
