#!/usr/bin/env bash
# The results store and the leaderboard at a team's scale (bench/README.md,
# "Results store and leaderboard"):
#   1. hydra_store_bench: 100,000 generated candidates recorded one ranking
#      (5 candidates) per transaction, then the leaderboard computed and
#      rendered from them (best of 3 runs is what to quote);
#   2. `hydra-score leaderboard` over that store, as a user runs it (wall time
#      and peak memory from /usr/bin/time);
#   3. `hydra-score record-results` importing 500 score JSON files (the CI merge
#      path: copies of tests/fixtures/report/contract.json, 4 candidates each).
# Usage: bench/store_bench.sh [BUILD_DIR]   (default build/, with hydra-score and
# hydra_store_bench built: cmake --build build --target hydra-score hydra_store_bench)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
build="${1:-$here/../build}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

for run in 1 2 3; do
  echo "--- hydra_store_bench, run $run"
  "$build/bench/hydra_store_bench" --rows 100000 --agents 10 --per-ranking 5 --keep "$work/bench.db"
done

echo "--- hydra-score leaderboard over the 100,000 rows (JSON, Markdown, HTML)"
for run in 1 2 3; do
  /usr/bin/time -f "wall %e s, peak RSS %M KB" "$build/hydra-score" leaderboard --store "$work/bench.db" --quiet \
    --json "$work/board.json" --markdown "$work/board.md" --html "$work/board.html"
done

echo "--- hydra-score record-results: 500 score files of 4 candidates"
python3 - "$here/../tests/fixtures/report/contract.json" "$work/scores" <<'PY'
import json, os, sys
contract = json.load(open(sys.argv[1]))
os.makedirs(sys.argv[2], exist_ok=True)
for index in range(500):
    contract["run_id"] = "bench%011d" % index
    json.dump(contract, open(os.path.join(sys.argv[2], "score-%03d.json" % index), "w"))
PY
start=$(date +%s.%N)
"$build/hydra-score" record-results --store "$work/import.db" "$work"/scores/*.json
end=$(date +%s.%N)
python3 -c "import sys; s=float(sys.argv[2])-float(sys.argv[1]); print('import: %.2f s, %.0f rows/s' % (s, 2000/s))" "$start" "$end"
