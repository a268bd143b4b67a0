#!/usr/bin/env bash
# SPDX-License-Identifier: Zlib
# Runs the fuzz targets for longer than the tests do: scripts/fuzz.sh SECONDS [TARGET...] (targets as
# named in tests/fuzz without _fuzz.cpp; all of them by default), one after another, each from its
# corpus in the repository. New inputs go to build/fuzz/found/<target>; a failing input is written to
# build/fuzz/found/<target>-crashes and the script goes on to the next target. At the end: each
# target's executions and what it found. Add useful inputs to the corpus with
#   build/fuzz/tests/fuzz/fuzz_<target> -merge=1 tests/fuzz/corpus/<target> build/fuzz/found/<target>
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:?usage: scripts/fuzz.sh SECONDS [TARGET...]}
shift
scripts/install-deps.sh
cmake --preset fuzz > /dev/null
cmake --build --preset fuzz -j "$(nproc)"
targets=("$@")
if ((${#targets[@]} == 0)); then
  for source in tests/fuzz/*_fuzz.cpp; do
    name=$(basename "$source" _fuzz.cpp)
    targets+=("$name")
  done
fi
summary=()
for target in "${targets[@]}"; do
  found=build/fuzz/found/$target
  crashes=$found-crashes
  mkdir -p "$found" "$crashes"
  log=build/fuzz/found/$target.log
  echo "=== $target: $seconds s"
  status=0
  build/fuzz/tests/fuzz/fuzz_"$target" "$found" "tests/fuzz/corpus/$target" -max_total_time="$seconds" \
    -timeout=10 -rss_limit_mb=4096 -print_final_stats=1 -artifact_prefix="$crashes/" > "$log" 2>&1 || status=$?
  runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo "?")
  if ((status == 0)); then
    summary+=("$target: $runs inputs, nothing found")
  else
    summary+=("$target: FAILED after $runs inputs (exit $status): see $log and $crashes")
  fi
done
printf '%s\n' "${summary[@]}"
