#!/usr/bin/env bash
# SPDX-License-Identifier: Zlib
# Command 3: install what is missing, build the benchmarks in Release (float Bullet) and run every one, each
# with Bullet's path and ours side by side in one process; then one table of the ratios (> 1: ours faster)
# from the rows they record, printed and written as ratios.md, ratios.json and a bar chart, ratios.png.
# Each benchmark's own output goes to logs/. About 5 minutes on a 2-core machine, the build done.
# Usage: scripts/bench.sh [output folder (default ./bench-output)]
set -euo pipefail
cd "$(dirname "$0")/.."
output="${1:-bench-output}"
scripts/install-deps.sh
cmake --preset release-float > /dev/null
cmake --build --preset release-float --target benchmarks -j "$(nproc)"

bin=build/release-float/bench
mkdir -p "$output/logs"
rows="$(cd "$output" && pwd)/rows.jsonl"
rm -f "$rows"
export ANALYTIC_BENCH_RESULTS="$rows"
start=$SECONDS
# run NAME COMMAND...: one benchmark, its output into logs/NAME.txt.
run() {
  local name="$1"
  shift
  echo "=== $name: $*"
  local began=$SECONDS
  "$@" > "$output/logs/$name.txt" 2>&1 || {
    echo "$name failed; its output: $output/logs/$name.txt" >&2
    exit 1
  }
  echo "    $((SECONDS - began)) s"
}
# In the table's order: the rows are appended as each benchmark ends.
short=(--benchmark_repetitions=5 --benchmark_min_time=0.1 --benchmark_enable_random_interleaving=true)
run ray_box "$bin/geometry_ray_box_bench" "${short[@]}"
run ray_triangle "$bin/geometry_ray_triangle_bench" "${short[@]}"
run closest_point "$bin/geometry_closest_point_bench" "${short[@]}"
run ray_shapes "$bin/raycast_ray_bench" --part=shapes "${short[@]}"
run pairs "$bin/narrowphase_pairs_bench" --benchmark_repetitions=10 --benchmark_min_time=0.1
run ray_scenes "$bin/raycast_ray_bench" --part=scenes --repetitions=5
run simulation "$bin/narrowphase_simulation_bench" --repetitions=3
run sweeps "$bin/raycast_sweep_bench" --repetitions=5
run ccd "$bin/raycast_ccd_bench"
run character "$bin/character_character_bench" --benchmark_repetitions=3
# Ours only, or ours against another library than Bullet: their logs, no ratios.
unset ANALYTIC_BENCH_RESULTS
for kernel in plane_tests ray_round sphere_sweep; do
  run "geometry_$kernel" "$bin/geometry_${kernel}_bench" --benchmark_min_time=0.1
done
run hull_faces "$bin/raycast_hull_faces_bench" --benchmark_min_time=0.1
run ray_batch_threads "$bin/raycast_ray_batch_threads_bench" --repetitions=5
run character_compare "$bin/character_compare"

benchmarks_end=$SECONDS
"$bin/bench_report" "$rows" "$output"
echo "each benchmark's own tables: $(cd "$output" && pwd)/logs"
echo "the whole command: $SECONDS s (the benchmarks $((benchmarks_end - start)) s)"
