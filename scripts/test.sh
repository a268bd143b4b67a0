#!/usr/bin/env bash
# SPDX-License-Identifier: Zlib
# Command 2: install what is missing, then build and run every test in float, double and the
# sanitizer build (ASan + UBSan), the ray casts from many threads under ThreadSanitizer, and each fuzz
# target on its corpus (libFuzzer, ASan + UBSan). Stops at the first build whose tests fail.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
for preset in release-float release-double debug-sanitize thread-sanitize fuzz; do
  echo "=== $preset"
  cmake --preset "$preset" > /dev/null
  cmake --build --preset "$preset" -j "$(nproc)"
  ctest --preset "$preset"
done
