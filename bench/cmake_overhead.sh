#!/usr/bin/env bash
# Measures, on example-project:
#  1. the wall time of `cmake --build build --target hydra_score` (a cold
#     capture tree: configure, build, ctest, clang-tidy, git diff, scoring and
#     reports) against the same configure + build + ctest + clang-tidy commands
#     run by hand in a fresh tree, in the same session (target: <= 5% overhead);
#  2. a second `hydra_baseline` on an unchanged base (target: under 2 s).
# Each measurement is the median of RUNS runs (default 3).
#
# Usage: bench/cmake_overhead.sh [path/to/hydra-score]
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
tool="${1:-$here/build/hydra-score}"
runs="${RUNS:-3}"
jobs="$(nproc)"
work="$(mktemp -d /tmp/hydra-overhead-XXXXXX)"
trap 'rm -rf "$work"' EXIT

cp -r "$here/example-project" "$work/src"
rm -rf "$work/src/candidates"
git -C "$work/src" init -q
git -C "$work/src" add -A
git -C "$work/src" -c user.name=bench -c user.email=bench@example.invalid commit -qm baseline
cmake -S "$work/src" -B "$work/build" -G Ninja -DCMAKE_BUILD_TYPE=Debug \
  -DCMAKE_PROJECT_TOP_LEVEL_INCLUDES="$here/cmake/HydraScore.cmake" \
  -DHYDRA_SCORE_EXECUTABLE="$tool" >/dev/null
cmake --build "$work/build" --target hydra_baseline >/dev/null 2>&1

now() { date +%s.%N; }
median() { sort -n | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }

by_hand() {
  local tree="$work/by-hand"
  rm -rf "$tree"
  cmake -S "$work/src" -B "$tree" -G Ninja -DCMAKE_BUILD_TYPE=Debug -DCMAKE_EXPORT_COMPILE_COMMANDS=ON >/dev/null
  cmake --build "$tree" --parallel "$jobs" >/dev/null
  ctest --test-dir "$tree" --parallel "$jobs" --output-junit "$tree/junit.xml" >/dev/null || true
  python3 -c 'import json,sys; print("\n".join(sorted({e["file"] for e in json.load(open(sys.argv[1]))})))' \
      "$tree/compile_commands.json" | xargs -P "$jobs" -n 1 clang-tidy -p "$tree" --quiet >/dev/null 2>&1 || true
}

with_hydra() {
  rm -rf "$work/build/hydra/trees/current" "$work/build/hydra/current"
  cmake --build "$work/build" --target hydra_score >/dev/null 2>&1
}

hand=(); hydra=(); again=()
for _ in $(seq "$runs"); do
  t0=$(now); by_hand; t1=$(now); hand+=("$(echo "$t1 - $t0" | bc)")
  t0=$(now); with_hydra; t1=$(now); hydra+=("$(echo "$t1 - $t0" | bc)")
  t0=$(now); cmake --build "$work/build" --target hydra_baseline >/dev/null 2>&1; t1=$(now)
  again+=("$(echo "$t1 - $t0" | bc)")
done
hand_median=$(printf '%s\n' "${hand[@]}" | median)
hydra_median=$(printf '%s\n' "${hydra[@]}" | median)
again_median=$(printf '%s\n' "${again[@]}" | median)
printf 'by hand (configure+build+ctest+clang-tidy): %6.2f s   runs: %s\n' "$hand_median" "${hand[*]}"
printf 'hydra_score (cold capture tree):            %6.2f s   runs: %s\n' "$hydra_median" "${hydra[*]}"
printf 'overhead: %+.1f%%\n' "$(echo "($hydra_median / $hand_median - 1) * 100" | bc -l)"
printf 'second hydra_baseline (unchanged base):     %6.2f s   runs: %s\n' "$again_median" "${again[*]}"
