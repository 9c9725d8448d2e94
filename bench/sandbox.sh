#!/usr/bin/env bash
# The sandbox, measured (docs/threat-model.md, "What candidate code can reach").
#
#  1. What confining costs: example-project captured from scratch (a fresh
#     build tree, --no-cache, so every compilation and every clang-tidy run
#     happens) ROUNDS times with the sandbox and ROUNDS times with
#     --no-sandbox, alternating; the median wall time of each and their ratio.
#     Both run every step under the step reaper and the limits; the difference
#     is bubblewrap (mounts, namespaces).
#  2. A spinning candidate: a test program that forks four children which call
#     setsid() and spin forever (holding ctest's output pipe open), captured
#     with `capture --ref` in parallel with an honest candidate; the wall time
#     of capturing and ranking both, against capturing and ranking the honest
#     candidate alone, in the same run. Without the step reaper ctest would
#     wait for the children until the test's timeout (540 s by default).
#
# Usage: bench/sandbox.sh [ROUNDS] [path/to/hydra-score]
#        (defaults: 3 rounds, build/hydra-score). Needs cmake, ninja, ctest, a
#        C++ compiler, git, bwrap; clang-tidy when installed.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
rounds="${1:-3}"
tool="$(cd "$(dirname "${2:-$here/build/hydra-score}")" && pwd)/$(basename "${2:-$here/build/hydra-score}")"
work="$(mktemp -d /tmp/hydra-sandbox-bench-XXXXXX)"
trap 'rm -rf "$work"' EXIT

seconds() { python3 -c 'import time; print(f"{time.monotonic():.3f}")'; }
median() { sort -n | awk '{ a[NR] = $1 } END { print (NR % 2 ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2) }'; }

# 1. Overhead on example-project.
src="$work/example"
mkdir -p "$src"
(cd "$here/example-project" && tar --exclude=candidates -cf - .) | (cd "$src" && tar -xf -)
git -C "$src" init --quiet --initial-branch=main
git -C "$src" add --all
git -C "$src" -c user.name=bench -c user.email=bench@example.invalid commit --quiet -m baseline
: > "$work/confined.txt"
: > "$work/unconfined.txt"
for round in $(seq "$rounds"); do
  for mode in confined unconfined; do
    flags=(--no-cache)
    [[ $mode == unconfined ]] && flags+=(--no-sandbox)
    rm -rf "$work/run" "$work/tree"
    start=$(seconds)
    "$tool" capture --source "$src" --out "$work/run" --build-dir "$work/tree" --generator Ninja --jobs 2 --quiet \
      "${flags[@]}" > /dev/null
    end=$(seconds)
    python3 -c "print(f'{$end - $start:.3f}')" >> "$work/$mode.txt"
    [[ $mode == confined ]] &&
      sandbox_description=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["sandbox"])' "$work/run/manifest.json")
  done
done
confined=$(median < "$work/confined.txt")
unconfined=$(median < "$work/unconfined.txt")

# 2. A spinning candidate beside an honest one.
repo="$work/spin"
mkdir -p "$repo/tests"
cat > "$repo/CMakeLists.txt" <<'EOF'
cmake_minimum_required(VERSION 3.16)
project(spin CXX)
enable_testing()
add_library(calc calc.cpp)
target_include_directories(calc PUBLIC ${CMAKE_CURRENT_SOURCE_DIR})
add_subdirectory(tests)
EOF
printf 'int add(int a, int b);\n' > "$repo/calc.hpp"
printf '#include "calc.hpp"\nint add(int a, int b) { return a + b; }\n' > "$repo/calc.cpp"
cat > "$repo/tests/CMakeLists.txt" <<'EOF'
add_executable(calc_test calc_test.cpp)
target_link_libraries(calc_test calc)
add_test(NAME calc.adds COMMAND calc_test)
EOF
printf '#include "calc.hpp"\nint main() { return add(2, 2) == 4 ? 0 : 1; }\n' > "$repo/tests/calc_test.cpp"
git_in() { git -C "$repo" -c user.name=bench -c user.email=bench@example.invalid "$@"; }
git_in init --quiet --initial-branch=main
git_in add --all
git_in commit --quiet -m baseline
git_in checkout --quiet -b agent/honest
printf '#include "calc.hpp"\nint add(int a, int b) { return b + a; }\n' > "$repo/calc.cpp"
git_in commit --quiet -am "honest"
git_in checkout --quiet -b agent/spinner main
cat > "$repo/tests/spinner_test.cpp" <<'EOF'
#include <unistd.h>
int main() {
  for (int child = 0; child < 4; ++child) {
    if (::fork() == 0) {
      ::setsid();
      volatile unsigned long spins = 0;
      for (;;) ++spins;
    }
  }
  return 0;
}
EOF
printf 'add_executable(spinner_test spinner_test.cpp)\nadd_test(NAME spin.leaves_children COMMAND spinner_test)\n' \
  >> "$repo/tests/CMakeLists.txt"
git_in add --all
git_in commit --quiet -m "spinner"
git_in checkout --quiet main
"$tool" capture --source "$repo" --out "$work/runs/baseline" --build-dir "$work/runs/trees/baseline" \
  --generator Ninja --jobs 2 --quiet > /dev/null
rank() {  # $1: the output folder, $2...: ref patterns
  local out="$1"
  shift
  local refs=()
  for ref in "$@"; do refs+=(--ref "$ref"); done
  "$tool" capture --source "$repo" "${refs[@]}" --out "$out" --baseline-run "$work/runs/baseline" --generator Ninja \
    --jobs 2 --quiet > /dev/null
  local candidates=()
  for run in "$out"/agent-*; do candidates+=(--candidate "$run"); done
  "$tool" score --baseline "$work/runs/baseline" "${candidates[@]}" --json "$out/score.json" > /dev/null || true
}
start=$(seconds); rank "$work/alone" agent/honest; end=$(seconds)
alone=$(python3 -c "print(f'{$end - $start:.1f}')")
start=$(seconds); rank "$work/both" 'agent/*'; end=$(seconds)
both=$(python3 -c "print(f'{$end - $start:.1f}')")
left=$(pgrep -f "$work/both/trees/agent-spinner" | wc -l || true)
same=$(python3 - "$work/alone/score.json" "$work/both/score.json" <<'EOF'
import json, sys
def honest(path):
    entry = next(e for e in json.load(open(path))["rankings"] if e["agent"] == "agent-honest")
    return entry["total"], entry["breakdown"], entry["mergeable"]
print("yes" if honest(sys.argv[1]) == honest(sys.argv[2]) else "NO")
EOF
)
spin_test=$(python3 -c '
import json, sys
steps = json.load(open(sys.argv[1]))["steps"]
test = next(s for s in steps if s["name"] == "test")
print("%.2f s, timed out: %s" % (test["seconds"], test["timed_out"]))' "$work/both/agent-spinner/manifest.json")

cat <<EOF
sandbox: $sandbox_description

1. example-project captured from scratch (--no-cache), median of $rounds rounds:
   with the sandbox   ${confined} s
   --no-sandbox       ${unconfined} s
   ratio              $(python3 -c "print(f'{$confined / $unconfined:.2f}')")

2. a spinning candidate (four setsid children) beside an honest one, capture --ref --jobs 2 and score:
   honest alone       ${alone} s
   honest + spinner   ${both} s   (ratio $(python3 -c "print(f'{$both / $alone:.2f}')"))
   the spinner's test step: ${spin_test}
   spinner processes left: ${left}
   the honest candidate's total, breakdown and verdict unchanged: ${same}
EOF
