#!/usr/bin/env bash
# Flaky tests, measured: a small CMake project whose suite has a test that
# fails in 40% of its runs, really at random (it waits a random 0-9.9 ms, drawn
# from std::random_device, and fails when it waited 6 ms or more), and
# CANDIDATES no-op candidates (a comment line appended to a source file each),
# captured one after another against one baseline with HydraScore's defaults
# ([scoring.tests] attempts = 3).
#
#  1. The first six candidates scored together: their verdicts and totals
#     (the same code: all mergeable, one total, the flaky test named).
#  2. The false-alarm rate over every candidate: how often a capture saw the
#     test fail in all of its attempts (expected p^N = 0.4^3 = 0.064; without
#     reruns it would be p = 0.4), and how many candidates are not mergeable
#     when each is scored alone against the baseline and when all are scored
#     together (docs/formulas.md, "Flaky tests").
#
# Usage: bench/flaky.sh [CANDIDATES] [path/to/hydra-score]
#        (defaults: 24 candidates, build/hydra-score). Needs cmake, ctest, a
#        C++ compiler, git and python3; clang-tidy and ccache when installed.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
candidates="${1:-24}"
tool="$(cd "$(dirname "${2:-$here/build/hydra-score}")" && pwd)/$(basename "${2:-$here/build/hydra-score}")"
(( candidates >= 6 )) || { echo "need at least 6 candidates" >&2; exit 2; }
work="$(mktemp -d /tmp/hydra-flaky-XXXXXX)"
trap 'rm -rf "$work"' EXIT
src="$work/src"
mkdir -p "$src/src" "$src/tests"

cat > "$src/CMakeLists.txt" <<'EOF'
cmake_minimum_required(VERSION 3.16)
project(job_queue CXX)
set(CMAKE_CXX_STANDARD 17)
enable_testing()
add_library(job_queue src/job_queue.cpp)
target_include_directories(job_queue PUBLIC src)
add_executable(job_queue_test tests/job_queue_test.cpp)
target_link_libraries(job_queue_test PRIVATE job_queue)
foreach(name IN ITEMS push pop size drains_in_time)
  add_test(NAME queue.${name} COMMAND job_queue_test ${name})
endforeach()
EOF
cat > "$src/src/job_queue.hpp" <<'EOF'
#pragma once
#include <deque>

/// A first-in first-out queue of job ids.
class JobQueue {
 public:
  void push(int job) { jobs_.push_back(job); }
  int pop();
  bool empty() const { return jobs_.empty(); }
  int size() const { return static_cast<int>(jobs_.size()); }

 private:
  std::deque<int> jobs_;
};
EOF
cat > "$src/src/job_queue.cpp" <<'EOF'
#include "job_queue.hpp"

int JobQueue::pop() {
  const int job = jobs_.front();
  jobs_.pop_front();
  return job;
}
EOF
cat > "$src/tests/job_queue_test.cpp" <<'EOF'
// The queue's tests. drains_in_time is flaky, as timing tests are: the worker
// it waits for takes a random 0-9.9 ms (std::random_device) and the test
// allows 6 ms, so it fails in 40% of its runs.
#include <chrono>
#include <cstdio>
#include <cstring>
#include <random>
#include <thread>

#include "job_queue.hpp"

int main(int argc, char** argv) {
  if (argc != 2) return 2;
  JobQueue queue;
  for (int job = 1; job <= 3; ++job) queue.push(job);
  if (std::strcmp(argv[1], "push") == 0) return queue.empty() ? 1 : 0;
  if (std::strcmp(argv[1], "pop") == 0) return queue.pop() == 1 ? 0 : 1;
  if (std::strcmp(argv[1], "size") == 0) return queue.size() == 3 ? 0 : 1;
  if (std::strcmp(argv[1], "drains_in_time") == 0) {
    std::random_device device;
    const int tenths = std::uniform_int_distribution<int>(0, 99)(device);  // the worker's time, 0.1 ms units
    std::this_thread::sleep_for(std::chrono::microseconds(tenths * 100));
    while (!queue.empty()) queue.pop();
    if (tenths >= 60) {
      std::printf("queue drained after %d.%d ms, allowed 6 ms\n", tenths / 10, tenths % 10);
      return 1;
    }
    return 0;
  }
  return 2;
}
EOF
git -C "$src" init --quiet --initial-branch=main
git -C "$src" add --all
git -C "$src" -c user.name=bench -c user.email=bench@example.invalid commit --quiet -m baseline

capture() {
  "$tool" capture --quiet --source "$src" --out "$work/runs/$1" --build-dir "$work/trees/$1" --agent "$1" "${@:2}"
}
echo "capturing the baseline and $candidates no-op candidates in $work ..." >&2
capture baseline
agents=()
for i in $(seq 1 "$candidates"); do
  git -C "$src" checkout --quiet -- .
  echo "// no-op change $i" >> "$src/src/job_queue.cpp"
  capture "no-op-$i" --baseline-run "$work/runs/baseline"
  agents+=("no-op-$i")
done
git -C "$src" checkout --quiet -- .

score() {  # score JSON AGENT...: the contract of the agents against the baseline
  local json="$1"; shift
  local argv=("$tool" score --quiet --no-gate-exit --baseline "$work/runs/baseline" --json "$json")
  for agent in "$@"; do argv+=(--candidate "$work/runs/$agent"); done
  "${argv[@]}"
}

echo
echo "== 1. six no-op candidates, scored together"
six=("${agents[@]:0:6}")
argv=("$tool" score --no-gate-exit --baseline "$work/runs/baseline" --json "$work/six.json")
for agent in "${six[@]}"; do argv+=(--candidate "$work/runs/$agent"); done
"${argv[@]}"

score "$work/all.json" "${agents[@]}"
for agent in "${agents[@]}"; do score "$work/alone-$agent.json" "$agent"; done

python3 - "$work" "${agents[@]}" <<'EOF'
import json, os, sys, xml.etree.ElementTree as ET
work, agents = sys.argv[1], sys.argv[2:]
TEST = "queue.drains_in_time"

def attempts(run):
    """The test's status in each attempt of a run directory, in order."""
    manifest = json.load(open(os.path.join(work, "runs", run, "manifest.json")))
    files = [a["path"] for a in manifest["artifacts"] if a["role"] == "junit" and a["path"] == "junit/0.xml"]
    reruns = [a["path"] for a in manifest["artifacts"] if a["role"] == "rerun_junit" and a["path"].startswith("attempts/")]
    files += sorted(reruns, key=lambda p: int(p.split("/")[1]))
    statuses = []
    for path in files:
        for case in ET.parse(os.path.join(work, "runs", run, path)).getroot().iter("testcase"):
            if case.get("name") == TEST:
                statuses.append("passed" if case.get("status") == "run" else "failed")
    return statuses

six = json.load(open(os.path.join(work, "six.json")))
verdicts = [(r["agent"], r["mergeable"], r["total"]) for r in six["rankings"]]
totals = sorted({total for _, _, total in verdicts})
named = [t["id"] for t in six.get("flaky_tests", [])]
print()
print("six no-op candidates: %d of 6 mergeable, totals %s, flaky tests named: %s" %
      (sum(1 for _, m, _ in verdicts if m), totals, named or "none"))
for agent, mergeable, total in sorted(verdicts):
    print("  %-10s %-4s %6.2f  attempts of %s: %s" % (agent, "yes" if mergeable else "NO", total, TEST,
                                                    ", ".join(attempts(agent))))
print("  %-10s %-4s %6s  attempts of %s: %s" % ("baseline", "", "", TEST, ", ".join(attempts("baseline"))))

runs = ["baseline"] + agents
seen = {run: attempts(run) for run in runs}
first_failed = sum(1 for run in runs if seen[run][0] == "failed")
all_failed = sum(1 for run in agents if all(s == "failed" for s in seen[run]))
flaky = sum(1 for run in runs if "failed" in seen[run] and "passed" in seen[run])
attempts_n = 3
p = first_failed / len(runs)
alone = [json.load(open(os.path.join(work, "alone-%s.json" % a)))["rankings"][0] for a in agents]
alone_blamed = sum(1 for r in alone if not r["mergeable"])
together = json.load(open(os.path.join(work, "all.json")))["rankings"]
together_blamed = sum(1 for r in together if not r["mergeable"])
print()
print("== 2. false alarms over %d candidate captures (N = %d attempts)" % (len(agents), attempts_n))
print("first attempt failed (p, without reruns a false alarm): %d of %d captures = %.3f (the test's design: 0.4)"
      % (first_failed, len(runs), p))
trials = [status for run in runs for status in seen[run]]
print("every attempt of every capture:                        %d of %d failed = %.3f"
      % (trials.count("failed"), len(trials), trials.count("failed") / len(trials)))
print("failed every attempt (a capture's false alarm):        %d of %d candidates = %.3f (p^N = 0.4^3 = 0.064; p_measured^N = %.3f)"
      % (all_failed, len(agents), all_failed / len(agents), p ** attempts_n))
print("seen flaky (failed, then passed):                      %d of %d captures" % (flaky, len(runs)))
print("baseline's attempts: %s" % ", ".join(seen["baseline"]))
print("not mergeable, each scored alone against the baseline: %d of %d = %.3f" % (alone_blamed, len(agents), alone_blamed / len(agents)))
print("not mergeable, all scored in one ranking:              %d of %d; distinct totals: %s"
      % (together_blamed, len(together), sorted({r["total"] for r in together})))
EOF
