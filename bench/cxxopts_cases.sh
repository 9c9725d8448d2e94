#!/usr/bin/env bash
# Test cases of a real project: a cxxopts checkout (its tests are Catch2 v2
# programs registered with the old `add_test(name program)` signature)
# scored through the CMake drop-in with no edit of the project:
#  1. `cmake -DCMAKE_PROJECT_TOP_LEVEL_INCLUDES=cmake/HydraScore.cmake`, then
#     the hydra_baseline and hydra_score targets (granularity "case", the
#     default); the same two run directories scored again with a hydra.toml
#     that says granularity = "program". Prints the baseline's test counts at
#     both granularities (the contract's baseline summary). clang-tidy gets
#     LINT_TIMEOUT seconds (default 30: cxxopts' Catch2 tests take minutes to
#     lint on a loaded machine, and lint is not measured here), so the
#     target's gates are not enforced (FAIL_ON_GATE OFF).
#  2. The cost of the per-case run against the program-level run, measured
#     here in the same run: the median wall time of RUNS (default 3) ctest
#     runs in the capture's tree, its programs writing their framework
#     reports through hydra-score's test launcher (what a capture runs), over
#     the median of RUNS plain ctest runs in a tree of the same source
#     configured without HydraScore (what ctest alone runs: program level).
#
# Usage: bench/cxxopts_cases.sh CXXOPTS_CHECKOUT [path/to/hydra-score]
#   CXXOPTS_CHECKOUT: a git checkout of https://github.com/jarro2783/cxxopts
# Any other CMake project whose tests are framework programs works the same
# way; PROJECT_CMAKE_ARGS gives the options its tests need, e.g. uriparser
# (GoogleTest): PROJECT_CMAKE_ARGS="-DURIPARSER_BUILD_TESTS=ON
# -DURIPARSER_BUILD_DOCS=OFF" bench/cxxopts_cases.sh URIPARSER_CHECKOUT
# Works in a temporary folder (removed at the end); the checkout is copied
# there, never written to. GTEST-free: Catch2 comes with cxxopts' tests.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
checkout="$(cd "${1:?usage: $0 CXXOPTS_CHECKOUT [hydra-score]}" && pwd)"
tool="$(realpath "${2:-$here/build/hydra-score}")"
runs="${RUNS:-3}"
lint_timeout="${LINT_TIMEOUT:-30}"
read -r -a project_args <<<"${PROJECT_CMAKE_ARGS:-}"
work="$(mktemp -d /tmp/hydra-cxxopts-cases-XXXXXX)"
[[ -n "${KEEP:-}" ]] || trap 'rm -rf "$work"' EXIT   # KEEP=1 keeps it

git clone -q "$checkout" "$work/src"
now() { date +%s.%N; }
median() { sort -n | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }

# 1. The drop-in: baseline and the unchanged tree, granularity "case".
printf '[scoring.timeouts]\nlint = %s\n' "$lint_timeout" >"$work/case.toml"
cmake -S "$work/src" -B "$work/build" -G Ninja -DCMAKE_BUILD_TYPE=Debug "${project_args[@]}" \
  -DCMAKE_PROJECT_TOP_LEVEL_INCLUDES="$here/cmake/HydraScore.cmake" \
  -DHYDRA_SCORE_EXECUTABLE="$tool" -DHYDRA_SCORE_CONFIG="$work/case.toml" -DHYDRA_SCORE_FAIL_ON_GATE=OFF >/dev/null
cmake --build "$work/build" --target hydra_baseline >"$work/baseline.log" 2>&1 || { cat "$work/baseline.log"; exit 1; }
cmake --build "$work/build" --target hydra_score >"$work/score.log" 2>&1 || { cat "$work/score.log"; exit 1; }
printf '[scoring.tests]\ngranularity = "program"\n[scoring.timeouts]\nlint = %s\n' "$lint_timeout" >"$work/program.toml"
"$tool" score --quiet --no-gate-exit --baseline "$work/build/hydra/baseline" --candidate "$work/build/hydra/current" \
  --config "$work/program.toml" --json "$work/program.json" >/dev/null

counts() {  # contract.json label
  python3 - "$1" "$2" <<'EOF'
import json, sys
contract = json.load(open(sys.argv[1]))
tests = contract["baseline"]["summary"]["tests"]
evidence = contract["rankings"][0]["dimensions"]["tests"]["evidence"]
print(f'{sys.argv[2]:<8} granularity={evidence["granularity"]:<8} tests={tests["total"]:>4} '
      f'passed={tests["passed"]:>4} failed={tests["failed"]:>3}')
EOF
}
echo "$(basename "$checkout") $(git -C "$work/src" rev-parse --short HEAD): baseline test counts"
counts "$work/build/hydra/score.json" case
counts "$work/program.json" program

# 2. Per-case run (the capture's tree, reports written) against plain ctest.
tree="$work/build/hydra/trees/baseline"
plain="$work/plain"
cmake -S "$work/src" -B "$plain" -G Ninja -DCMAKE_BUILD_TYPE=Debug "${project_args[@]}" >/dev/null
cmake --build "$plain" >/dev/null
case_times=(); program_times=()
for index in $(seq "$runs"); do
  rm -rf "$work/reports" && mkdir -p "$work/reports"
  t0=$(now)
  HYDRA_SCORE_TEST_PROGRAMS="$work/build/hydra/baseline/test-programs.json" \
  HYDRA_SCORE_TEST_REPORTS="$work/reports" ctest --test-dir "$tree" >/dev/null 2>&1 || true
  t1=$(now); case_times+=("$(echo "$t1 - $t0" | bc)")
  t0=$(now); ctest --test-dir "$plain" >/dev/null 2>&1 || true; t1=$(now)
  program_times+=("$(echo "$t1 - $t0" | bc)")
done
reports=$(find "$work/reports" -name '*.xml' | wc -l)
case_median=$(printf '%s\n' "${case_times[@]}" | median)
program_median=$(printf '%s\n' "${program_times[@]}" | median)
printf 'ctest, per case (launcher, %s framework reports): %6.3f s   runs: %s\n' "$reports" "$case_median" "${case_times[*]}"
printf 'ctest, program level (plain tree):                %6.3f s   runs: %s\n' "$program_median" "${program_times[*]}"
printf 'ratio case/program: %.2f\n' "$(echo "$case_median / $program_median" | bc -l)"
