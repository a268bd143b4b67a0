#!/usr/bin/env bash
# SPDX-License-Identifier: Zlib
# Command 1: install what is missing, build in Release (float Bullet) and run the main demo, the shooting
# range. Usage: scripts/demo.sh [output folder (default ./demo-output)] [demo options, see --help]
set -euo pipefail
cd "$(dirname "$0")/.."
output=demo-output
if [ $# -gt 0 ] && [ "${1#-}" = "$1" ]; then
  output="$1"
  shift
fi
scripts/install-deps.sh
cmake --preset release-float > /dev/null
cmake --build --preset release-float --target demo -j "$(nproc)"
build/release-float/demos/demo --output "$output" "$@"
if [ -f "$output/run.gif" ]; then
  where="$(cd "$output" && pwd)"
  echo "pictures: $where/frame_*.png; the animation: $where/run.gif; Bullet's run: $where/builtin"
fi
