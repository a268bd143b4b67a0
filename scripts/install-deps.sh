#!/usr/bin/env bash
# SPDX-License-Identifier: Zlib
# Installs, from Debian's packages, whatever the build needs and this machine lacks; quick when nothing is missing.
set -euo pipefail
packages=(cmake make g++ pkg-config libbullet-dev libglm-dev libstb-dev googletest libgtest-dev libbenchmark-dev libtbb-dev clang-format
          clang libclang-rt-14-dev doxygen)
missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
if ((${#missing[@]})); then
  echo "installing: ${missing[*]}"
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo=sudo
  $sudo apt-get update
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y --no-install-recommends "${missing[@]}"
fi
