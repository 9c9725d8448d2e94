#!/usr/bin/env bash
# The end-to-end resolution fixture (tests/fixtures/resolution: a library
# source that a second GoogleTest program compiles too, a private test patch
# that changes one case, adds one and uses a function the fix adds) scored
# by a given hydra-score: each candidate's total, mergeable and resolution,
# whether src/calc.cpp counts as a test file, and the no-op's held-out mode.
# Usage: bench/resolution_fixture.sh path/to/hydra-score
set -euo pipefail
tool="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"; root="$(mktemp -d)"; fx="$(cd "$(dirname "$0")/.." && pwd)/tests/fixtures/resolution"
cp -r "$fx/project" "$root/repo"; cd "$root/repo"
g() { git -c user.name=e -c user.email=e@x "$@"; }
g init -q -b main; g add -A; g commit -qm base
for n in fix incomplete no-op; do g checkout -q -b agent/$n main; g apply "$fx/candidates/$n.patch"; g commit -qam $n; g checkout -q main; done
printf '[anti_gaming]\nprivate_test_patch = "%s"\n' "$fx/private.patch" > "$root/hydra.toml"
"$tool" capture --source "$root/repo" --out "$root/runs/baseline" --build-dir "$root/trees/baseline" --agent baseline --generator Ninja --config "$root/hydra.toml" --quiet > /dev/null
"$tool" capture --source "$root/repo" --ref 'agent/*' --out "$root/runs" --baseline-run "$root/runs/baseline" --generator Ninja --jobs 2 --quiet > /dev/null
"$tool" score --baseline "$root/runs/baseline" --candidate "$root/runs/agent-fix" --candidate "$root/runs/agent-incomplete" --candidate "$root/runs/agent-no-op" --json "$root/score.json" --quiet > /dev/null || true
python3 - "$root" <<'PY'
import json, sys
root = sys.argv[1]
c = json.load(open(root + "/score.json"))
for r in c["rankings"]:
    print(r["agent"], r["total"], "mergeable" if r["mergeable"] else "not mergeable", json.dumps(r.get("resolution", {}).get("resolved", "no resolution")))
f = json.load(open(root + "/runs/baseline/test-files.json"))
print("src/calc.cpp is a test file:", "src/calc.cpp" in f["files"])
print("no-op held-out mode:", json.load(open(root + "/runs/agent-no-op/manifest.json"))["held_out"]["mode"])
PY
rm -rf "$root"
