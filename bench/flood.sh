#!/usr/bin/env bash
# A flood of lint findings: what a candidate gets by generating code that
# floods clang-tidy. Generates a clang-tidy log of N distinct findings
# (default 1,662,977, ~200 MB), records a baseline (no findings) and the
# flooded candidate, scores them with every report, and prints the time and
# peak memory (/usr/bin/time -v) of `record` and `score`, and the report sizes.
#
#   bench/flood.sh [BUILD_DIR] [FINDINGS]      (default build, 1662977)
#
# Everything goes to BUILD_DIR/bench-flood/ (never committed).
set -euo pipefail
cd "$(dirname "$0")/.."
build="${1:-build}"
findings="${2:-1662977}"
tool="$build/hydra-score"
[ -x "$tool" ] || { echo "no $tool: build first (cmake --build $build)" >&2; exit 2; }
out="$build/bench-flood"
rm -rf "$out"
mkdir -p "$out"

# The shape of a real clang-tidy finding (tests/fixtures/parse/clang_tidy.log):
# one location, message and check per finding, each distinct (file, line).
python3 - "$out/flood.log" "$findings" <<'PY'
import sys
path, count = sys.argv[1], int(sys.argv[2])
checks = ["readability-magic-numbers", "modernize-use-auto", "bugprone-narrowing-conversions",
          "performance-unnecessary-value-param", "misc-unused-parameters"]
with open(path, "w") as log:
    for i in range(count):
        file_index, line = divmod(i, 5000)
        check = checks[i % len(checks)]
        log.write(f"/src/generated/gen_{file_index:04d}.cpp:{line + 1}:{(i % 70) + 1}: warning: "
                  f"{i} is a magic number; consider replacing it with a named constant [{check}]\n"
                  f"  int value_{i} = {i};\n                ^\n")
    log.write(f"{count} warnings generated.\n")
PY
: > "$out/empty.log"
echo "log: $(du -m "$out/flood.log" | cut -f1) MB, $findings findings"

measure() {  # measure NAME COMMAND...: prints seconds and peak RSS of COMMAND
  local name="$1"
  shift
  /usr/bin/time -v "$@" > "$out/$name.out" 2> "$out/$name.time" || {
    local code=$?
    cat "$out/$name.out" "$out/$name.time" >&2
    [ "$name" = score ] && [ "$code" = 3 ] || exit "$code"   # score: 3 = not mergeable, expected
  }
  local wall rss
  wall="$(grep 'Elapsed (wall clock)' "$out/$name.time" | awk '{print $NF}')"
  rss="$(grep 'Maximum resident set size' "$out/$name.time" | awk '{print $NF}')"
  printf '%-22s wall %-10s peak RSS %6d MB\n' "$name" "$wall" $((rss / 1024))
}

"$tool" record --out "$out/baseline" --agent baseline --build-exit 0 --lint-log "$out/empty.log" > /dev/null
measure record "$tool" record --out "$out/flooded" --agent flooded --build-exit 0 --lint-log "$out/flood.log"
measure score "$tool" score --baseline "$out/baseline" --candidate "$out/flooded" --quiet \
  --json "$out/score.json" --sarif "$out/score.sarif" --markdown "$out/score.md" --html "$out/score.html" \
  --junit "$out/gates.xml"
for report in score.json score.sarif score.md score.html gates.xml; do
  printf '%-22s %8d KB\n' "$report" $(( $(stat -c %s "$out/$report") / 1024 ))
done
