#!/usr/bin/env bash
# Parser benchmark: HydraScore's JUnit and clang-tidy parsers against a Python
# reference, on generated inputs (a 200,000-testcase CTest JUnit file, ~45 MB,
# and a 1,000,000-diagnostic clang-tidy log, ~150 MB). Prints the best of 3
# runs (read + parse) in seconds, the ratio, and each process's peak memory.
#
# Usage: bench/bench_parsers.sh [BUILD_DIR]   (default: build-bench, a Release build)
set -euo pipefail

source_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build_dir="${1:-$source_dir/build-bench}"
inputs="$build_dir/bench-inputs"
python=/usr/bin/python3

cmake -S "$source_dir" -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DHYDRA_SCORE_BUILD_TESTS=ON > /dev/null
cmake --build "$build_dir" --target hydra_parse_bench -j2 > /dev/null

if [[ ! -f "$inputs/ctest_junit_200k.xml" || ! -f "$inputs/clang_tidy_1000k.log" ]]; then
  echo "generating inputs in $inputs ..."
  "$python" "$source_dir/bench/generate_inputs.py" "$inputs"
fi

# run_measured COMMAND...: prints "<items> <best seconds> <peak RSS in MB>".
run_measured() {
  local time_log
  time_log="$(mktemp)"
  local result
  result="$(/usr/bin/time -v "$@" 2> "$time_log")"
  local rss_kb
  rss_kb="$(awk -F': ' '/Maximum resident set size/ {print $2}' "$time_log")"
  rm -f "$time_log"
  echo "$(echo "$result" | awk '{print $2, $3}') $((rss_kb / 1024))"
}

printf '%-34s %10s %10s %12s %8s %9s %9s\n' input items "ours (s)" "python (s)" ratio "ours MB" "py MB"
for job in "junit ctest_junit_200k.xml" "tidy clang_tidy_1000k.log"; do
  read -r parser file <<< "$job"
  path="$inputs/$file"
  read -r items ours ours_mb <<< "$(run_measured "$build_dir/bench/hydra_parse_bench" "$parser" "$path" 3)"
  read -r py_items python_seconds python_mb <<< "$(run_measured "$python" "$source_dir/bench/reference_parsers.py" "$parser" "$path" 3)"
  size_mb=$(( $(stat -c %s "$path") / 1000000 ))
  ratio="$(awk -v a="$python_seconds" -v b="$ours" 'BEGIN { printf "%.1fx", a / b }')"
  printf '%-34s %10s %10s %12s %8s %9s %9s\n' "$file (${size_mb} MB)" "$items" "$ours" "$python_seconds" "$ratio" "$ours_mb" "$python_mb"
  if [[ "$items" != "$py_items" ]]; then
    echo "  note: the Python reference counted $py_items items" >&2
  fi
done
