#!/usr/bin/env bash
# What a candidate capture costs with the caches (docs/run-directory.md,
# "Caches"): on example-project and on a generated project of N translation
# units (each with clang-tidy findings), a candidate that changes one .cpp is
# captured twice in fresh build trees: cold (--no-cache) and incremental
# (after the baseline filled the lint and compiler caches). Prints both wall
# times, their ratio (incremental / cold), the units linted and taken from
# the cache, the ccache hits, and checks that both lint logs are byte-identical.
#
# Usage: bench/incremental_capture.sh [path/to/hydra-score] [units]
#        (defaults: build/hydra-score, 24 units; --jobs 2 for every capture)
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
tool="${1:-$here/build/hydra-score}"
units="${2:-24}"
jobs="${HYDRA_BENCH_JOBS:-2}"
work="$(mktemp -d /tmp/hydra-incremental-XXXXXX)"
# shellcheck source=bench/lib/generated_project.sh
source "$here/bench/lib/generated_project.sh"
trap 'rm -rf "$work"' EXIT

commit() {  # commit DIR
  git -C "$1" init -q -b main
  git -C "$1" add -A
  git -C "$1" -c user.name=bench -c user.email=bench@example.invalid commit -qm baseline
}

timed_capture() {  # timed_capture SOURCE NAME [args...] -> seconds
  local source="$1" name="$2"
  shift 2
  local start end
  start="$(date +%s.%N)"
  "$tool" capture --quiet --source "$source" --out "$work/runs/$name" --build-dir "$work/trees/$name" \
    --agent "$name" --generator Ninja --jobs "$jobs" "$@" > /dev/null
  end="$(date +%s.%N)"
  python3 -c "print(f'{$end - $start:.2f}')"
}

figures() {  # figures RUN -> "linted cached ccache_hits/ccache_lookups"
  python3 - "$work/runs/$1/manifest.json" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
lint = next((s for s in m["steps"] if s["name"] == "lint"), {})
cc = m.get("caches", {}).get("compiler", {})
hits = f"{cc.get('hits', 0)}/{cc.get('hits', 0) + cc.get('misses', 0)}" if cc.get("used") else "off"
print(lint.get("units_linted", "-"), lint.get("units_from_cache", "-"), hits)
PY
}

bench() {  # bench LABEL SOURCE FILE_TO_CHANGE
  local label="$1" source="$2" file="$3"
  rm -rf "$work/runs" "$work/trees"
  local baseline_s cold_s warm_s
  baseline_s="$(timed_capture "$source" baseline)"
  # The candidate: one .cpp changed (a new function with a finding).
  printf '\nint bench_added(int x) {\n  int* p = 0;\n  if (x) return 1;\n  return p ? 2 : 0;\n}\n' >> "$source/$file"
  cold_s="$(timed_capture "$source" cold --baseline-run "$work/runs/baseline" --no-cache)"
  warm_s="$(timed_capture "$source" candidate --baseline-run "$work/runs/baseline")"
  local identical=no
  cmp -s "$work/runs/cold/lint/0.log" "$work/runs/candidate/lint/0.log" && identical=yes
  read -r cold_linted cold_cached cold_cc < <(figures cold)
  read -r linted cached cc < <(figures candidate)
  local ratio
  ratio="$(python3 -c "print(f'{$warm_s / $cold_s:.3f}')")"
  printf '%-22s %10s %8s %13s %7s %14s %14s %10s %s\n' "$label" "$baseline_s" "$cold_s" "$warm_s" "$ratio" \
    "$cold_linted/$cold_cached" "$linted/$cached" "$cc" "$identical"
  [[ "$identical" == yes ]] || { echo "lint logs differ: $work/runs/cold vs candidate" >&2; trap - EXIT; exit 1; }
}

printf '%-22s %10s %8s %13s %7s %14s %14s %10s %s\n' project baseline_s cold_s incremental_s ratio \
  "cold lint/hit" "incr lint/hit" ccache "lint logs identical"

example="$work/example-project"
mkdir -p "$example"
(cd "$here/example-project" && tar --exclude=candidates -cf - .) | tar -xf - -C "$example"
commit "$example"
bench example-project "$example" src/count.cpp

generated="$work/generated"
generate_project "$generated" "$units"
commit "$generated"
bench "generated-$units-units" "$generated" src/unit2.cpp
