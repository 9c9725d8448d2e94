#!/usr/bin/env bash
# What a candidate costs on a CI runner of its own with the shared cache
# (docs/caches.md). On a generated project of U translation units (each with
# clang-tidy findings, bench/lib/generated_project.sh), a baseline is captured
# on runner 0 with a real Redis (Debian's redis-server, on a Unix socket), then
# each of N candidates (candidate k changes one header, include/unitK.hpp, or
# one source, src/unitK.cpp, alternately) is captured three ways, each in a
# fresh clone at its own path with its own run and cache folders:
#   shared : its own runner, the shared cache (what the CI templates do);
#   cold   : its own runner, no shared cache (what they did before);
#   local  : beside the baseline on runner 0, with its local caches (the
#            one-machine flow, the reference).
# Prints each candidate's wall times, the ratios shared/local (target <= 1.3)
# and shared/cold (target <= 0.2), the lint and ccache hits, and checks that
# the three captures measured the same signals.
#
# Usage: bench/shared_cache.sh [path/to/hydra-score] [units] [candidates]
#        (defaults: build/hydra-score, 40 units, 4 candidates; --jobs 2)
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
tool="$(realpath "${1:-$here/build/hydra-score}")"
units="${2:-40}"
candidates="${3:-4}"
jobs="${HYDRA_BENCH_JOBS:-2}"
work="$(mktemp -d /tmp/hydra-shared-bench-XXXXXX)"
# shellcheck source=bench/lib/generated_project.sh
source "$here/bench/lib/generated_project.sh"
redis_pid=""
cleanup() { [[ -n "$redis_pid" ]] && kill "$redis_pid" 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT

redis-server --port 0 --unixsocket "$work/redis.sock" --save "" --appendonly no > "$work/redis.log" 2>&1 &
redis_pid=$!
for _ in $(seq 100); do [[ -S "$work/redis.sock" ]] && break; sleep 0.05; done
remote="redis+unix:$work/redis.sock"

git_commit() {  # git_commit DIR MESSAGE
  git -C "$1" add -A
  git -C "$1" -c user.name=bench -c user.email=bench@example.invalid commit -qm "$2"
}

origin="$work/origin"
generate_project "$origin" "$units"
git -C "$origin" init -q -b main
git_commit "$origin" baseline
for k in $(seq 1 "$candidates"); do
  git -C "$origin" checkout -q -b "cand$k" main
  unit=$(( (k * 7) % units + 1 ))
  if (( k % 2 )); then
    printf '\nnamespace gen {\ninline int bench_added%s(int x) { int* p = 0; if (x) return 1; return p ? 2 : 0; }\n}\n' \
      "$k" >> "$origin/include/unit$unit.hpp"
  else
    printf '\nint bench_added%s(int x) {\n  int* p = 0;\n  if (x) return 1;\n  return p ? 2 : 0;\n}\n' \
      "$k" >> "$origin/src/unit$unit.cpp"
  fi
  git_commit "$origin" "candidate $k"
done
git -C "$origin" checkout -q main

timed_capture() {  # timed_capture RUNNER BRANCH NAME REMOTE [args...] -> seconds
  local runner="$1" branch="$2" name="$3" url="$4"
  shift 4
  [[ -d "$runner/checkout" ]] || git clone -q --branch "$branch" "$origin" "$runner/checkout"
  git -C "$runner/checkout" checkout -q "$branch"
  local start end
  start="$(date +%s.%N)"
  HYDRA_SCORE_CACHE_REMOTE="$url" "$tool" capture --quiet --source "$runner/checkout" --out "$runner/runs/$name" \
    --build-dir "$runner/build/$name" --agent "$name" --generator Ninja --jobs "$jobs" "$@" > /dev/null
  end="$(date +%s.%N)"
  python3 -c "print(f'{$end - $start:.2f}')"
}

figures() {  # figures RUN -> "lint_hits/lint_units ccache_hits/ccache_lookups"
  python3 - "$1/manifest.json" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
lint = next((s for s in m["steps"] if s["name"] == "lint"), {})
cc = m.get("caches", {}).get("compiler", {})
print(f"{lint.get('units_from_cache', 0)}/{lint.get('units_linted', 0) + lint.get('units_from_cache', 0)}",
      f"{cc.get('hits', 0)}/{cc.get('hits', 0) + cc.get('misses', 0)}")
PY
}

signals() {  # signals RUN -> what the capture measured (no times, caches or paths)
  python3 - "$1/signals.json" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
t = dict(s.get("tests") or {}); t.pop("seconds", None)
print(json.dumps([s["build"]["passed"], t, s.get("lint")], sort_keys=True))
PY
}

baseline_s="$(timed_capture "$work/runner0" main baseline "$remote")"
echo "generated project: $units units; baseline captured on runner 0 in $baseline_s s (sent to Redis)"
printf '%-6s %-8s %9s %8s %8s %13s %11s %18s %18s %s\n' cand changes shared_s cold_s local_s shared/local \
  shared/cold "lint hits shared" "ccache hits shared" "same signals"
sum_local=0; sum_shared=0; sum_cold=0
for k in $(seq 1 "$candidates"); do
  kind=source; (( k % 2 )) && kind=header
  shared_s="$(timed_capture "$work/runner$k" "cand$k" "cand$k" "$remote" --baseline-run "$work/runner0/runs/baseline")"
  cold_s="$(timed_capture "$work/cold$k" "cand$k" "cand$k" "" --baseline-run "$work/runner0/runs/baseline")"
  local_s="$(timed_capture "$work/runner0" "cand$k" "cand$k" "" --baseline-run "$work/runner0/runs/baseline")"
  read -r lint_hits cc_hits < <(figures "$work/runner$k/runs/cand$k")
  same=yes
  [[ "$(signals "$work/runner$k/runs/cand$k")" == "$(signals "$work/cold$k/runs/cand$k")" ]] || same=no
  [[ "$(signals "$work/runner$k/runs/cand$k")" == "$(signals "$work/runner0/runs/cand$k")" ]] || same=no
  printf '%-6s %-8s %9s %8s %8s %13s %11s %18s %18s %s\n' "cand$k" "$kind" "$shared_s" "$cold_s" "$local_s" \
    "$(python3 -c "print(f'{$shared_s / $local_s:.2f}')")" "$(python3 -c "print(f'{$shared_s / $cold_s:.2f}')")" \
    "$lint_hits" "$cc_hits" "$same"
  [[ "$same" == yes ]] || { echo "cand$k: the captures measured different signals" >&2; exit 1; }
  sum_local="$(python3 -c "print($sum_local + $local_s)")"
  sum_shared="$(python3 -c "print($sum_shared + $shared_s)")"
  sum_cold="$(python3 -c "print($sum_cold + $cold_s)")"
done
python3 -c "print(f'all candidates: shared/local {$sum_shared / $sum_local:.2f} (target <= 1.3), shared/cold {$sum_shared / $sum_cold:.2f} (target <= 0.2)')"
