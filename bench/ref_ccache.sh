#!/usr/bin/env bash
# Candidates from refs share the baseline's compiled objects (docs/run-directory.md,
# "Caches"). On a generated project of UNITS translation units (default 40,
# plus one test), through the CMake module as a user runs it, with JOBS jobs
# (default 2):
#
#  - the work-tree flow: `hydra_baseline`, then one header (include/unit2.hpp)
#    changed in the work tree and `hydra_score`;
#  - the branches flow: two branches agent/one (include/unit2.hpp changed as
#    above) and agent/two (include/unit3.hpp changed), scored by `hydra_score`
#    with HYDRA_SCORE_CANDIDATES='agent/*' (the baseline at HEAD through a
#    worktree, then both refs in parallel, each with JOBS/2 jobs).
#
# For each run it prints the build step's seconds, its time budget (scaled to
# the jobs it had, docs/config.md "Time budgets"), whether it timed out, the
# compilations served from ccache / looked up, the lint units linted, whether
# it was captured again alone, and the wall time of each target. A one-header
# change should hit every unit but the one including that header, in both
# flows. Exits non-zero when a ref's hit rate differs from the work tree's.
#
# Usage: bench/ref_ccache.sh [path/to/hydra-score] [UNITS]
#        (HYDRA_BENCH_JOBS sets JOBS). Needs cmake, ninja, a C++ compiler,
#        ccache, git, python3; clang-tidy when installed.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
tool="$(cd "$(dirname "${1:-$here/build/hydra-score}")" && pwd)/$(basename "${1:-$here/build/hydra-score}")"
units="${2:-40}"
jobs="${HYDRA_BENCH_JOBS:-2}"
work="$(mktemp -d /tmp/hydra-ref-ccache-XXXXXX)"
trap 'rm -rf "$work"' EXIT
# shellcheck source=bench/lib/generated_project.sh
source "$here/bench/lib/generated_project.sh"
command -v ccache > /dev/null || { echo "ccache is not installed" >&2; exit 2; }

project="$work/project"
generate_project "$project" "$units"
git_() { git -C "$project" -c user.name=bench -c user.email=bench@example.invalid "$@"; }
git_ init -q -b main
git_ add -A
git_ commit -qm baseline

change_header() {  # change_header K: one declaration more in include/unitK.hpp
  printf 'namespace gen {\nint unit%s_extra(int value);\n}  // namespace gen\n' "$1" >> "$project/include/unit$1.hpp"
}
for branch in one:2 two:3; do
  git_ checkout -q -b "agent/${branch%%:*}" main
  change_header "${branch##*:}"
  git_ commit -qam "change include/unit${branch##*:}.hpp"
done
git_ checkout -q main

configure() {  # configure BUILD [cache entries...]
  local build="$1"
  shift
  cmake -S "$project" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Debug \
    "-DCMAKE_PROJECT_TOP_LEVEL_INCLUDES=$here/cmake/HydraScore.cmake" "-DHYDRA_SCORE_EXECUTABLE=$tool" \
    "-DHYDRA_SCORE_JOBS=$jobs" "$@" > "$work/configure.log"
}
timed_target() {  # timed_target BUILD TARGET -> seconds (a failed gate is not a failure here)
  local start end
  start="$(date +%s.%N)"
  cmake --build "$1" --target "$2" > "$work/$2-$(basename "$1").log" 2>&1 || true
  end="$(date +%s.%N)"
  python3 -c "print(f'{$end - $start:.1f}')"
}

echo "tool $tool; $units units + 1 test; --jobs $jobs; nproc $(nproc); load $(cut -d' ' -f1-3 /proc/loadavg)" >&2

# The work-tree flow.
configure "$work/tree"
tree_baseline_s="$(timed_target "$work/tree" hydra_baseline)"
change_header 2
tree_score_s="$(timed_target "$work/tree" hydra_score)"
git_ checkout -q -- .

# The branches flow.
configure "$work/refs" "-DHYDRA_SCORE_CANDIDATES=agent/*"
refs_score_s="$(timed_target "$work/refs" hydra_score)"

python3 - "$work" "$tree_baseline_s" "$tree_score_s" "$refs_score_s" <<'PY'
import json, os, sys
work, tree_baseline_s, tree_score_s, refs_score_s = sys.argv[1:]
rows = [("work tree", "baseline", "tree/hydra/baseline"), ("work tree", "current", "tree/hydra/current"),
        ("branches", "baseline", "refs/hydra/baseline"), ("branches", "agent-one", "refs/hydra/agent-one"),
        ("branches", "agent-two", "refs/hydra/agent-two")]
print("%-10s %-10s %4s %8s %9s %9s %12s %8s %10s %s" % ("flow", "run", "jobs", "build_s", "budget_s", "timed_out",
                                                       "ccache", "hit_rate", "lint_units", "retried alone"))
rates = {}
for flow, run, path in rows:
    manifest_file = os.path.join(work, path, "manifest.json")
    if not os.path.exists(manifest_file):
        print("%-10s %-10s not captured (see %s)" % (flow, run, work)); rates[(flow, run)] = None; continue
    m = json.load(open(manifest_file))
    build = next((s for s in m["steps"] if s["name"] == "build"), {})
    lint = next((s for s in m["steps"] if s["name"] == "lint"), {})
    cc = m.get("caches", {}).get("compiler", {})
    looked = cc.get("hits", 0) + cc.get("misses", 0)
    rate = cc["hits"] / looked if cc.get("used") and looked else None
    rates[(flow, run)] = rate
    budget = m.get("time_budget", {}).get("build_seconds", build.get("timeout_seconds", 0))
    print("%-10s %-10s %4s %8.1f %9.0f %9s %12s %8s %10s %s" % (
        flow, run, m.get("capture", {}).get("jobs", "-"), build.get("seconds", 0), budget,
        "YES" if build.get("timed_out") else "no", "%d/%d" % (cc.get("hits", 0), looked) if cc.get("used") else "off",
        "%.3f" % rate if rate is not None else "-", lint.get("translation_units", "-"),
        m.get("retried_alone", {}).get("reason", "no")))
print()
print("wall: work tree hydra_baseline %s s, hydra_score %s s; branches hydra_score (baseline + 2 refs) %s s"
      % (tree_baseline_s, tree_score_s, refs_score_s))
reference = rates.get(("work tree", "current"))
bad = [run for (flow, run), rate in rates.items() if flow == "branches" and run != "baseline" and rate != reference]
if bad:
    print("hit rate of %s differs from the work tree's (%s)" % (", ".join(bad), reference)); sys.exit(1)
print("every ref's hit rate equals the work tree's: %s" % ("%.3f" % reference if reference is not None else "-"))
PY
