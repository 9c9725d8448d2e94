#!/usr/bin/env bash
# Applies every candidate patch to a fresh copy of the baseline project and
# reports, for the baseline and each candidate: whether `git apply` succeeded,
# the build result, CTest's pass/fail counts and clang-tidy's finding counts.
# The "observed" table in README.md comes from this script.
#
# usage: candidates/verify.sh [candidate-name...]   (default: all *.patch)
# Environment: WORK_DIR (default: a new directory under /tmp), JOBS (default 2),
#              TEST_TIMEOUT seconds per test (default 10; hang.patch needs it).
set -euo pipefail

candidates_dir=$(cd "$(dirname "$0")" && pwd)
project_dir=$(dirname "$candidates_dir")
work_dir=${WORK_DIR:-$(mktemp -d /tmp/example-verify.XXXXXX)}
jobs=${JOBS:-2}
test_timeout=${TEST_TIMEOUT:-10}

if [[ $# -gt 0 ]]; then
  names=("$@")
else
  names=()
  for patch in "$candidates_dir"/*.patch; do
    names+=("$(basename "$patch" .patch)")
  done
fi

# Copies the baseline project (without candidates/) to `$1`.
copy_baseline() {
  mkdir -p "$1"
  tar -C "$project_dir" --exclude=./candidates -cf - . | tar -C "$1" -xf -
}

# Configures, builds, tests and lints the project in `$1`; prints one table row
# named `$2`.
check_tree() {
  local source=$1 name=$2 build=$1-build
  local configure=ok build_result=ok tests="-" lint="-"
  if ! cmake -S "$source" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Debug >"$build.configure.log" 2>&1; then
    configure=failed
    build_result="configure failed"
    touch "$build.build.log"
  fi
  if [[ $configure == ok ]] && ! cmake --build "$build" -j"$jobs" >"$build.build.log" 2>&1; then
    build_result=failed
  fi
  local compiler_warnings
  compiler_warnings=$(grep -c ': warning:' "$build.build.log" || true)
  if [[ $configure == ok && $build_result == ok ]]; then
    ctest --test-dir "$build" --timeout "$test_timeout" --output-junit "$build/junit.xml" \
      >"$build.ctest.log" 2>&1 || true
    # "90% tests passed, 1 tests failed out of 10"
    local summary total failed timed_out
    summary=$(grep -E 'tests passed, [0-9]+ tests failed out of' "$build.ctest.log" || echo "0 tests failed out of 0")
    failed=$(sed -E 's/.* ([0-9]+) tests failed out of ([0-9]+).*/\1/' <<<"$summary")
    total=$(sed -E 's/.* ([0-9]+) tests failed out of ([0-9]+).*/\2/' <<<"$summary")
    timed_out=$(grep -c '\*\*\*Timeout' "$build.ctest.log" || true)
    tests="$((total - failed))/$total passed"
    if [[ $timed_out -gt 0 ]]; then
      tests+=" ($timed_out timed out)"
    fi
  fi
  if [[ -f $build/compile_commands.json ]]; then
    (cd "$source" && clang-tidy -p "$build" \
       $(python3 -c 'import json,sys; print(" ".join(sorted(e["file"] for e in json.load(open(sys.argv[1])))))' \
           "$build/compile_commands.json")) >"$build.clang-tidy.log" 2>/dev/null || true
    # A finding in a header shows once per translation unit: count it once.
    local warnings errors
    warnings=$({ grep -E '^/.*: warning: ' "$build.clang-tidy.log" || true; } | sort -u | wc -l)
    errors=$({ grep -E '^/.*: error: ' "$build.clang-tidy.log" || true; } | sort -u | wc -l)
    lint="$warnings warnings, $errors errors"
    if [[ $errors == 1 ]]; then
      lint="$warnings warnings, 1 error"
    fi
  fi
  printf '| %-15s | %-6s | %-17s | %-26s | %-22s |\n' \
    "$name" "$build_result" "$compiler_warnings" "$tests" "$lint"
}

echo "work directory: $work_dir"
printf '| %-15s | %-6s | %-17s | %-26s | %-22s |\n' \
  candidate build "compiler warnings" "ctest" "clang-tidy"
printf '|%s|%s|%s|%s|%s|\n' "-----------------" "--------" "-------------------" "----------------------------" "------------------------"
copy_baseline "$work_dir/baseline"
check_tree "$work_dir/baseline" baseline
for name in "${names[@]}"; do
  tree=$work_dir/$name
  copy_baseline "$tree"
  if ! git -C "$tree" apply --whitespace=nowarn "$candidates_dir/$name.patch" 2>"$tree.apply.log"; then
    # Outside a git repository `git apply` still works on plain files.
    printf '| %-15s | git apply failed: %s |\n' "$name" "$(head -1 "$tree.apply.log")"
    continue
  fi
  check_tree "$tree" "$name"
done
