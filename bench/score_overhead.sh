#!/usr/bin/env bash
# What an incremental `hydra_score` costs over the same work done by hand.
#
# A generated project of U translation units (bench/lib/generated_project.sh)
# is configured with the CMake module as a top-level include (as
# bench/cmake_overhead.sh does) and `hydra_baseline` is captured once. A
# by-hand tree (Ninja, compile_commands.json) is configured and built once
# beside it, and `hydra_score` run once (untimed) so that the candidate's
# capture tree is built as the by-hand tree is. Then, RUNS times (default 3),
# one .cpp (src/unit2.cpp) gets a new function and, in alternating order:
#   hydra : `cmake --build build --target hydra_score` (the candidate's
#           capture, incremental in its capture tree, and scoring with reports);
#   hand  : the same work by hand in the by-hand tree: incremental
#           `cmake --build`, `ctest`, and `clang-tidy` of the changed unit with
#           the project's .clang-tidy.
# Prints each run, both medians and their ratio (hydra / hand; target <= 1.5),
# and where hydra_score's time went: `hydra-score capture` and `hydra-score
# score` (timed by a wrapper the module runs as its tool), the capture's steps
# (manifest.json) and the rest of the capture.
#
# With REFERENCE=path/to/other/hydra-score, each run's candidate is captured
# once more with that tool (into its own output folder, from the same tree)
# and its signals.json (but the build's wall time), lint/0.log and diff.patch
# must be byte-identical to hydra_score's: the optimisations change no result.
#
# Usage: bench/score_overhead.sh [path/to/hydra-score] [units]
#        (defaults: build/hydra-score, 24 units; HYDRA_BENCH_JOBS jobs, default 2)
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
tool="$(realpath "${1:-$here/build/hydra-score}")"
units="${2:-24}"
runs="${RUNS:-3}"
jobs="${HYDRA_BENCH_JOBS:-2}"
reference="${REFERENCE:-}"
[[ -n "$reference" ]] && reference="$(realpath "$reference")"
work="$(mktemp -d /tmp/hydra-score-overhead-XXXXXX)"
# shellcheck source=bench/lib/generated_project.sh
source "$here/bench/lib/generated_project.sh"
[[ -n "${KEEP:-}" ]] || trap 'rm -rf "$work"' EXIT
echo "work: $work" >&2

now() { date +%s.%N; }
median() { sort -n | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }

# The module runs this wrapper as its tool: it logs how long each
# subcommand took (capture, score) into $work/tool-times.
cat > "$work/hydra-score" <<EOF
#!/usr/bin/env bash
start=\$(date +%s.%N)
status=0
"$tool" "\$@" || status=\$?
echo "\$1 \$(echo "\$(date +%s.%N) - \$start" | bc)" >> "$work/tool-times"
exit \$status
EOF
chmod +x "$work/hydra-score"

src="$work/src"
generate_project "$src" "$units"
git -C "$src" init -q -b main
git -C "$src" add -A
git -C "$src" -c user.name=bench -c user.email=bench@example.invalid commit -qm baseline
# The user's tree and its capture trees live outside the source tree (as a
# by-hand tree does).
cmake -S "$src" -B "$work/build" -G Ninja -DCMAKE_BUILD_TYPE=Debug \
  -DCMAKE_PROJECT_TOP_LEVEL_INCLUDES="$here/cmake/HydraScore.cmake" \
  -DHYDRA_SCORE_EXECUTABLE="$work/hydra-score" -DHYDRA_SCORE_JOBS="$jobs" >/dev/null
cmake --build "$work/build" --target hydra_baseline >/dev/null 2>&1
hand_tree="$work/by-hand"
cmake -S "$src" -B "$hand_tree" -G Ninja -DCMAKE_BUILD_TYPE=Debug -DCMAKE_EXPORT_COMPILE_COMMANDS=ON >/dev/null
cmake --build "$hand_tree" --parallel "$jobs" >/dev/null
ctest --test-dir "$hand_tree" --parallel "$jobs" >/dev/null
clang_tidy="$(grep -E '^HYDRA_SCORE_CLANG_TIDY:' "$work/build/CMakeCache.txt" | cut -d= -f2-)"
# The candidate's capture tree is built once too (a first `hydra_score`,
# not timed), as the by-hand tree is: every timed run is incremental.
cmake --build "$work/build" --target hydra_score >/dev/null 2>&1

by_hand() {
  cmake --build "$hand_tree" --parallel "$jobs" >/dev/null
  ctest --test-dir "$hand_tree" --parallel "$jobs" >/dev/null || true
  "$clang_tidy" -p "$hand_tree" --quiet "$src/src/unit2.cpp" >/dev/null 2>&1 || true
}

with_hydra() {
  : > "$work/tool-times"
  cmake --build "$work/build" --target hydra_score > "$work/score.out" 2>&1 || {
    cat "$work/score.out" >&2
    echo "hydra_score failed" >&2
    trap - EXIT
    exit 1
  }
}

breakdown() {  # breakdown RUN -> one line: capture, score, each step, the rest of the capture
  python3 - "$work/build/hydra/current/manifest.json" "$work/tool-times" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
times = {}
for line in open(sys.argv[2]):
    name, seconds = line.split()
    times[name] = times.get(name, 0.0) + float(seconds)
steps = {}
for step in m["steps"]:
    steps[step["name"]] = steps.get(step["name"], 0.0) + step["seconds"]
held = 0.0
def walk(record):
    global held
    if isinstance(record, dict):
        for key, value in record.items():
            if key == "steps" and isinstance(value, list):
                held += sum(s.get("seconds", 0.0) for s in value if isinstance(s, dict))
            else:
                walk(value)
walk(m.get("held_out", {}))
parts = " ".join(f"{k}={v:.2f}" for k, v in steps.items())
rest = times.get("capture", 0.0) - sum(steps.values()) - held
phases = m.get("capture", {}).get("phases", {})
extra = " ".join(f"{k}={v:.2f}" for k, v in phases.items())
print(f"capture={times.get('capture', 0):.2f} score={times.get('score', 0):.2f} | {parts} held-out={held:.2f}"
      f" other={rest:.2f}" + (f" | phases: {extra}" if extra else ""))
PY
}

check_reference() {  # check_reference K: the same candidate captured with $reference has the same signals
  [[ -n "$reference" ]] || return 0
  local out="$work/reference/runs/current"
  mkdir -p "$work/reference"
  HYDRA_SCORE_CLANG_TIDY="$clang_tidy" "$reference" capture --quiet --source "$src" --generator Ninja \
    --initial-cache "$work/build/hydra/initial-cache.cmake" --exclude "$work/build" --jobs "$jobs" \
    --out "$out" --build-dir "$work/reference/trees/current" --agent current \
    --baseline-run "$work/build/hydra/baseline" >/dev/null 2>&1 || true
  # The signals without the build's wall time (the one measured figure),
  # and the lint log and diff in full.
  local strip='import json,sys; d=json.load(open(sys.argv[1])); d["build"].pop("seconds",None); print(json.dumps(d,indent=1,sort_keys=True))'
  local mine="$work/build/hydra/current"
  if ! diff <(python3 -c "$strip" "$out/signals.json") <(python3 -c "$strip" "$mine/signals.json") >&2 ||
     ! cmp "$out/lint/0.log" "$mine/lint/0.log" >&2 || ! cmp "$out/diff.patch" "$mine/diff.patch" >&2; then
    echo "results differ from $reference's capture (run $1)" >&2
    trap - EXIT
    exit 1
  fi
  echo "  run $1: signals (but the build seconds), lint/0.log and diff.patch identical to $reference's"
}

hand=(); hydra=()
for k in $(seq "$runs"); do
  printf '\nint bench_added_%s(int x) {\n  int* p = 0;\n  if (x) return %s;\n  return p ? 2 : 0;\n}\n' "$k" "$k" \
    >> "$src/src/unit2.cpp"
  if (( k % 2 )); then
    t0=$(now); with_hydra; t1=$(now); hydra+=("$(echo "$t1 - $t0" | bc)")
    t0=$(now); by_hand; t1=$(now); hand+=("$(echo "$t1 - $t0" | bc)")
  else
    t0=$(now); by_hand; t1=$(now); hand+=("$(echo "$t1 - $t0" | bc)")
    t0=$(now); with_hydra; t1=$(now); hydra+=("$(echo "$t1 - $t0" | bc)")
  fi
  printf 'run %s: hydra_score %6.2f s, by hand %6.2f s; %s\n' "$k" "${hydra[-1]}" "${hand[-1]}" "$(breakdown)"
  check_reference "$k"
done
hand_median=$(printf '%s\n' "${hand[@]}" | median)
hydra_median=$(printf '%s\n' "${hydra[@]}" | median)
printf 'by hand (build + ctest + clang-tidy of the unit): %6.2f s   runs: %s\n' "$hand_median" "${hand[*]}"
printf 'hydra_score (incremental):                        %6.2f s   runs: %s\n' "$hydra_median" "${hydra[*]}"
printf 'ratio hydra_score / by hand: %.2f   (%s units, %s jobs, load %s)\n' \
  "$(echo "$hydra_median / $hand_median" | bc -l)" "$units" "$jobs" "$(cut -d' ' -f1-3 /proc/loadavg)"
