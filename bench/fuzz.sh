#!/usr/bin/env bash
# Fuzzes every parser: builds the libFuzzer targets (Clang, ASan + UBSan) in
# build-fuzz/, then runs each for SECONDS, starting from its seeds (the
# recorded fixtures) and past crashes (tests/fuzz/crashes/), and prints the
# executions per target and whether it found anything.
#
#   bench/fuzz.sh SECONDS [TARGET...]      (default: every target)
#
# Work corpora and crash inputs go to build-fuzz/fuzz-runs/<target>/ (never
# committed). A crash input belongs in tests/fuzz/crashes/<target>/, with a
# regression test in the parser's tests.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:?usage: bench/fuzz.sh SECONDS [TARGET...]}"
shift
build=build-fuzz
if [ ! -f "$build/CMakeCache.txt" ]; then
  cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER=clang++ \
    -DHYDRA_FUZZ=ON > /dev/null
fi
cmake --build "$build" --target hydra_fuzzers > /dev/null
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  targets=(junit ctest_json clang_tidy_log compiler_warnings diff metrics task_set hydra_toml
    libtest cargo_diagnostics eslint_json flake8)
fi

status=0
printf '%-20s %12s %10s  %s\n' target executions "exec/s" result
for target in "${targets[@]}"; do
  work="$build/fuzz-runs/$target"
  mkdir -p "$work/corpus" "$work/artifacts"
  corpora=("$work/corpus" "$build/tests/fuzz-seeds/$target")
  [ -d "tests/fuzz/crashes/$target" ] && corpora+=("tests/fuzz/crashes/$target")
  set +e
  ASAN_OPTIONS=detect_leaks=1 "$build/tests/hydra_fuzz_$target" -max_total_time="$seconds" \
    -print_final_stats=1 -timeout=20 -rss_limit_mb=2048 -artifact_prefix="$work/artifacts/" \
    "${corpora[@]}" > "$work/log" 2>&1
  code=$?
  set -e
  executions="$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$work/log" | grep -o '[0-9]*$' || echo '?')"
  rate="$(grep -o 'stat::average_exec_per_sec: *[0-9]*' "$work/log" | grep -o '[0-9]*$' || echo '?')"
  if [ "$code" -eq 0 ]; then
    result="ok"
  else
    result="FAILED (exit $code): $(ls "$work/artifacts" | tr '\n' ' ')see $work/log"
    status=1
  fi
  printf '%-20s %12s %10s  %s\n' "$target" "$executions" "$rate" "$result"
done
exit "$status"
