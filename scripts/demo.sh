#!/usr/bin/env bash
# SPDX-License-Identifier: Zlib
# Command 1: install what is missing, build in Release (float Bullet) and run the main demo.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
cmake --preset release-float > /dev/null
cmake --build --preset release-float --target demo -j "$(nproc)"
build/release-float/demos/demo
