#!/usr/bin/env bash
# SPDX-License-Identifier: Zlib
# The soak, not part of the tests: scripts/soak.sh [steps] [bodies] [report interval] [seed] [preset].
# Builds the soak in Release (release-float unless a preset is given: release-double) and runs it: bodies
# of every replaced pair on a plane and a mesh with the plugin, random impulses, rays and batches with
# NaN-poisoned ends mixed in; prints the time per step, the resident memory and what went wrong at every
# report; exits 1 if anything did.
set -euo pipefail
cd "$(dirname "$0")/.."
preset=${5:-release-float}
scripts/install-deps.sh
cmake --preset "$preset" > /dev/null
cmake --build --preset "$preset" -j "$(nproc)" --target soak
exec "build/$preset/tests/soak" "${1:-100000}" "${2:-2000}" "${3:-1000}" "${4:-1}"
