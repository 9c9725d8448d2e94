#!/usr/bin/env bash
# What held-out evaluation costs (docs/threat-model.md, "Held-out
# evaluation"), on example-project's candidate patches: each candidate is
# captured twice into its own build tree against one baseline (a first, cold
# capture, then an incremental one, as a later hydra_score would run), and
# the time of the capture's own steps is set against the time of its
# held-out and on-baseline runs, all read from the run's manifest (the sum
# of each step's seconds). The reference, the candidate's own steps, is
# measured in the same capture.
#
# Usage: bench/held_out_cost.sh [path/to/hydra-score]   (default: build/hydra-score)
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
tool="${1:-$here/build/hydra-score}"
work="$(mktemp -d /tmp/hydra-held-out-cost-XXXXXX)"
trap 'rm -rf "$work"' EXIT

source="$work/example-project"
mkdir -p "$source"
(cd "$here/example-project" && tar --exclude=candidates -cf - .) | tar -xf - -C "$source"
git -C "$source" init -q -b main
git -C "$source" add -A
git -C "$source" -c user.name=bench -c user.email=bench@example.invalid commit -qm baseline

capture() {  # capture AGENT [baseline]
  local agent="$1"
  local extra=(--baseline-run "$work/runs/baseline")
  [[ "${2:-}" == baseline ]] && extra=()
  "$tool" capture --quiet --source "$source" --out "$work/runs/$agent" --build-dir "$work/trees/$agent" \
    --agent "$agent" --generator Ninja "${extra[@]}" > /dev/null
}

seconds() {  # seconds RUN_DIR -> "own held_out on_baseline"
  python3 - "$1/manifest.json" <<'PY'
import json, sys
manifest = json.load(open(sys.argv[1]))
def total(steps):
    return sum(step.get("seconds", 0.0) for step in steps)
held = manifest.get("held_out", {})
own = total(manifest.get("steps", []))
held_out = total(held.get("run", {}).get("steps", []))
on_baseline = total(held.get("new_tests", {}).get("run", {}).get("steps", []))
print(f"{own:.2f} {held_out:.2f} {on_baseline:.2f} {held.get('mode', 'none')} {held.get('new_tests', {}).get('mode', 'none')}")
PY
}

capture baseline baseline
printf '%-16s %-11s %8s %9s %12s %7s  %s\n' candidate capture own_s held_out_s on_baseline_s extra held-out/new-tests
for patch in "$here"/example-project/candidates/*.patch; do
  name="$(basename "$patch" .patch)"
  [[ "$name" == hang ]] && continue  # waits for its test timeout: measures the timeout, not held-out runs
  git -C "$source" checkout -q -- . && git -C "$source" clean -fdq
  git -C "$source" apply --whitespace=nowarn "$patch"
  for pass in cold incremental; do
    capture "$name" || true  # a candidate that does not build still has a run
    read -r own held on modes new_modes < <(seconds "$work/runs/$name")
    extra="$(python3 -c "print(f'{($held + $on) / $own * 100:.0f}%' if $own > 0 else '-')")"
    printf '%-16s %-11s %8s %9s %12s %7s  %s/%s\n' "$name" "$pass" "$own" "$held" "$on" "$extra" "$modes" "$new_modes"
  done
done
