#!/usr/bin/env bash
# A real upstream bug with three agents' branches: fmt before PR 3729
# (b87ea22e "Add native and generic representation for filesystem::path
# format spec"), its fix on agent/upstream (include/fmt/std.h of that
# commit), a second, independent fix on agent/second, a no-op on agent/no-op
# (one comment line in src/format.cc), and the commit's test change as the
# private test patch: the two fixes rank resolved, mergeable and first, the
# no-op unresolved and not mergeable. `hydra_score` with
# HYDRA_SCORE_CANDIDATES='agent/*' and HYDRA_SCORE_JOBS (default 2) captures
# the baseline at HEAD, then the refs side by side with one job each, and
# ranks them. Prints each run's build seconds, time budget, timeout,
# compilations from ccache / looked up, and the held-out build's.
#
# Usage: bench/fmt_refs.sh FMT_REPOSITORY [path/to/hydra-score] [BUILD_TIMEOUT]
#        FMT_REPOSITORY: a clone of github.com/fmtlib/fmt holding b87ea22e
#        (never committed here); BUILD_TIMEOUT: [scoring.timeouts] build
#        (default 300, HydraScore's default). Lint is off (HYDRA_SCORE_LINT=OFF: clang-tidy on
#        fmt's tests takes longer than the builds on a 2-core machine).
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
upstream="$(cd "$1" && pwd)"
tool="$(cd "$(dirname "${2:-$here/build/hydra-score}")" && pwd)/$(basename "${2:-$here/build/hydra-score}")"
build_timeout="${3:-300}"
jobs="${HYDRA_BENCH_JOBS:-2}"
fix=b87ea22e29913b5a71c02b772f303b9bf441c14b
work="$(mktemp -d /tmp/hydra-fmt-refs-XXXXXX)"
trap 'rm -rf "$work"' EXIT

git clone -q "$upstream" "$work/fmt"
g() { git -C "$work/fmt" -c user.name=bench -c user.email=bench@example.invalid "$@"; }
g checkout -q -B main "$fix^"
g show "$fix" -- test/std-test.cc > "$work/private-tests.patch"
g checkout -q -b agent/upstream main
g show "$fix" -- include/fmt/std.h | g apply --whitespace=nowarn
g commit -qam "the upstream fix"
g checkout -q -b agent/second main
python3 - "$work/fmt/include/fmt/std.h" <<'PY'
import sys
path = sys.argv[1]
text = open(path).read()
edits = [
    ("  bool debug_ = false;\n\n public:",
     "  bool debug_ = false;\n  bool generic_ = false;  // 'g': the generic format (separators '/'), 'n': native\n\n public:"),
    ("      debug_ = true;\n      ++it;\n    }\n    return it;",
     "      debug_ = true;\n      ++it;\n    }\n    if (it != end && (*it == 'g' || *it == 'n')) generic_ = *it++ == 'g';\n    return it;"),
    ("    if (!debug_) {\n      auto s = detail::get_path_string<Char>(p, p.native());",
     "    const auto native =\n        generic_ ? p.generic_string<std::filesystem::path::value_type>() : p.native();\n"
     "    if (!debug_) {\n      auto s = detail::get_path_string<Char>(p, native);"),
    ("detail::write_escaped_path(quoted, p, p.native());", "detail::write_escaped_path(quoted, p, native);"),
]
for old, new in edits:
    assert old in text, old
    text = text.replace(old, new, 1)
open(path, "w").write(text)
PY
g commit -qam "a second agent's fix"
# A no-op: one comment line in src/format.cc, a library source that fmt's
# posix-mock-test also compiles (code, judged with the baseline's tests).
g checkout -q -b agent/no-op main
sed -i '1i // Reviewed.' "$work/fmt/src/format.cc"
g commit -qam "a comment"
g checkout -q main
printf '[anti_gaming]\nprivate_test_patch = "%s"\n\n[scoring.timeouts]\nbuild = %s\n' \
  "$work/private-tests.patch" "$build_timeout" > "$work/hydra.toml"

cmake -S "$work/fmt" -B "$work/build" -G Ninja "-DCMAKE_PROJECT_TOP_LEVEL_INCLUDES=$here/cmake/HydraScore.cmake" \
  "-DHYDRA_SCORE_EXECUTABLE=$tool" "-DHYDRA_SCORE_CANDIDATES=agent/*" "-DHYDRA_SCORE_JOBS=$jobs" \
  "-DHYDRA_SCORE_CONFIG=$work/hydra.toml" -DHYDRA_SCORE_LINT=OFF > "$work/configure.log"
echo "tool $tool; build timeout $build_timeout s; --jobs $jobs; nproc $(nproc); load $(cut -d' ' -f1-3 /proc/loadavg)"
start="$(date +%s.%N)"
cmake --build "$work/build" --target hydra_score > "$work/score.log" 2>&1 || true
end="$(date +%s.%N)"
sed -n '/^HydraScore ranking/,/^$/p;/^#  Agent/,/^$/p' "$work/score.log" | grep .  || tail -n 20 "$work/score.log"

python3 - "$work/build/hydra" "$start" "$end" <<'PY'
import json, os, sys
hydra, start, end = sys.argv[1], float(sys.argv[2]), float(sys.argv[3])
def build_of(record):
    step = next((s for s in record.get("steps", []) if s["name"] == "build"), {})
    cc = step.get("compile_cache", {})
    hits = "%d/%d" % (cc.get("hits", 0), cc.get("hits", 0) + cc.get("misses", 0)) if cc.get("used") else "-"
    return step, hits
print("%-15s %4s %8s %9s %9s %8s %16s %9s" % ("run", "jobs", "build_s", "budget_s", "timed_out", "ccache",
                                              "held-out build_s", "held-out ccache"))
for run in ("baseline", "agent-upstream", "agent-second", "agent-no-op"):
    path = os.path.join(hydra, run, "manifest.json")
    if not os.path.exists(path):
        print("%-15s not captured" % run); continue
    m = json.load(open(path))
    step, hits = build_of(m)
    held, held_hits = build_of(m.get("held_out", {}).get("run", {}))
    print("%-15s %4s %8.1f %9.0f %9s %8s %16s %9s" % (
        run, m["capture"]["jobs"], step.get("seconds", 0), step.get("timeout_seconds", 0),
        "YES" if step.get("timed_out") else "no", hits,
        "%.1f" % held["seconds"] if held else "-", held_hits))
print("hydra_score wall: %.1f s" % (end - start))
PY
