#!/usr/bin/env bash
# What a held-out build gains from its candidate's own compiler cache
# (docs/caches.md, "A candidate's own objects"), on a generated project
# (bench/lib/generated_project.sh, N units all including include/common.hpp):
# one baseline, then two candidates that change common.hpp and the test
# (so the held-out tree, the header change with the baseline's test, is
# built). "reuse" is that change alone; "no-reuse" adds a comment to
# CMakeLists.txt, a build-system file, so its build fills no own cache: its
# held-out build compiles what the baseline's cache does not hold, as every
# held-out build did before. Reads each run's manifest: the held-out build
# step's seconds, its compilations, and how many came from the baseline's
# cache and from the candidate's own. Needs ccache and bubblewrap.
#
# Usage: bench/own_cache_reuse.sh [path/to/hydra-score] [units]   (defaults: build/hydra-score, 32)
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
tool="$(cd "$(dirname "${1:-$here/build/hydra-score}")" && pwd)/$(basename "${1:-$here/build/hydra-score}")"
units="${2:-32}"
work="$(mktemp -d /tmp/hydra-own-cache-XXXXXX)"
trap 'rm -rf "$work"' EXIT
source "$here/bench/lib/generated_project.sh"

src="$work/project"
generate_project "$src" "$units"
git -C "$src" init -q -b main
git -C "$src" add -A
git -C "$src" -c user.name=bench -c user.email=bench@example.invalid commit -qm baseline

capture() {  # capture AGENT [baseline]
  local agent="$1" extra=(--baseline-run "$work/runs/baseline")
  [[ "${2:-}" == baseline ]] && extra=()
  "$tool" capture --quiet --no-lint --source "$src" --out "$work/runs/$agent" --build-dir "$work/trees/$agent" \
    --agent "$agent" --generator Ninja "${extra[@]}" > /dev/null
}

held_out() {  # held_out RUN_DIR -> "seconds compilations baseline_hits own_hits own_role"
  python3 - "$1/manifest.json" <<'PY'
import json, sys
manifest = json.load(open(sys.argv[1]))
run = manifest["held_out"]["run"]
build = sum(s.get("seconds", 0.0) for s in run["steps"] if s.get("name") == "build")
cache = run.get("compiler_cache", {})
own = cache.get("own", {})
role = manifest["caches"]["compiler"].get("own", {}).get("role", "-")
print(f"{build:.2f} {cache.get('compilations', 0)} {cache.get('hits', 0)} {own.get('hits', 0)} {role}")
PY
}

candidate() {  # candidate AGENT [cmake]
  git -C "$src" checkout -q -- .
  printf 'namespace gen { inline int revision() { return %s; } }\n' "$RANDOM" >> "$src/include/common.hpp"
  printf '// %s\n' "$1" >> "$src/src/main_test.cpp"
  [[ "${2:-}" == cmake ]] && printf '# %s\n' "$1" >> "$src/CMakeLists.txt"
  capture "$1"
}

capture baseline baseline
candidate no-reuse cmake
candidate reuse
printf '%-9s %-13s %16s %13s %14s %9s\n' variant build_fills held_out_build_s compilations baseline_hits own_hits
read -r s0 c0 b0 o0 r0 < <(held_out "$work/runs/no-reuse")
read -r s1 c1 b1 o1 r1 < <(held_out "$work/runs/reuse")
printf '%-9s %-13s %16s %13s %14s %9s\n' no-reuse "$r0" "$s0" "$c0" "$b0" "$o0" reuse "$r1" "$s1" "$c1" "$b1" "$o1"
python3 -c "print(f'held-out build seconds, reuse / no-reuse: {$s1 / $s0:.2f}' if $s0 > 0 else 'no held-out build')"
