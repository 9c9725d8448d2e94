// The leaderboard's statistics against an independent computation: a Python
// program written from the formulas in docs/leaderboard.md (exact binomial
// coefficients with math.comb, its own SplitMix64 and percentile indices).
#include <catch2/catch.hpp>

#include <cmath>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <hydra/leaderboard/statistics.hpp>
#include <hydra/util/process.hpp>

using nlohmann::json;
namespace lb = hydra::leaderboard;

namespace {

/// The independent side: reads {"pass": [[n, c, k]...], "sign": [[w, l]...],
/// "bootstrap": {"tasks": [[mergeable, composite, resolved|null]...], "seed", "resamples"}}
/// on stdin, prints the same quantities as JSON.
const char* const kPython = R"PY(
import json, math, sys
data = json.load(sys.stdin)
MASK = (1 << 64) - 1
class SplitMix64:
    def __init__(self, seed): self.state = seed & MASK
    def next(self):
        self.state = (self.state + 0x9E3779B97F4A7C15) & MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        return z ^ (z >> 31)
out = {"pass": [], "sign": []}
for n, c, k in data["pass"]:
    out["pass"].append([1 - math.comb(n - c, k) / math.comb(n, k), math.comb(c, k) / math.comb(n, k)])
for w, l in data["sign"]:
    n = w + l
    p = 1.0 if n == 0 else min(1.0, 2 * sum(math.comb(n, i) for i in range(min(w, l) + 1)) / 2 ** n)
    out["sign"].append(p)
b = data["bootstrap"]
tasks = b["tasks"]
n = len(tasks)
rng = SplitMix64(b["seed"])
stats = {"mergeable": [], "composite": [], "resolved": []}
for _ in range(b["resamples"]):
    drawn = [tasks[(rng.next() * n) >> 64] for _ in range(n)]
    stats["mergeable"].append(sum(t[0] for t in drawn) / n)
    stats["composite"].append(sum(t[1] for t in drawn) / n)
    known = [t[2] for t in drawn if t[2] is not None]
    if known: stats["resolved"].append(sum(known) / len(known))
def interval(values):
    values = sorted(values)
    B = len(values)
    return [values[math.floor(0.025 * B)], values[math.ceil(0.975 * B) - 1]]
out["bootstrap"] = {name: interval(values) for name, values in stats.items()}
print(json.dumps(out))
)PY";

json independent(const json& input) {
  hydra::util::ProcessRequest request;
  request.argv = {"python3", "-c", kPython};
  request.stdin_text = input.dump();
  request.timeout = std::chrono::minutes(2);
  request.separate_stderr = true;
  const auto result = hydra::util::run_process(request);
  INFO(result.error_output);
  REQUIRE(result.exit_code == 0);
  return json::parse(result.output);
}

}  // namespace

TEST_CASE("pass@k, pass^k, the sign test and the bootstrap agree with an independent computation", "[leaderboard]") {
  json input;
  input["pass"] = json::array();
  for (std::uint64_t n = 1; n <= 12; ++n)
    for (std::uint64_t c = 0; c <= n; ++c)
      for (std::uint64_t k = 1; k <= n; ++k) input["pass"].push_back({n, c, k});
  input["sign"] = json::array({json{0, 0}, json{5, 0}, json{9, 1}, json{3, 7}, json{30, 12}, json{400, 360}});
  // Twelve tasks: mergeable shares, composites and (for some) resolved shares.
  std::vector<lb::TaskValues> tasks;
  json task_rows = json::array();
  for (int index = 0; index < 12; ++index) {
    lb::TaskValues task;
    task.mergeable = index % 3 == 0 ? 0.5 : (index % 2 ? 1.0 : 0.0);
    task.composite = 40.0 + 5.25 * index;
    if (index % 4 != 1) task.resolved = index % 5 == 0 ? 0.0 : 1.0;
    tasks.push_back(task);
    task_rows.push_back({task.mergeable, task.composite, task.resolved ? json(*task.resolved) : json(nullptr)});
  }
  input["bootstrap"] = {{"tasks", task_rows}, {"seed", 20240601}, {"resamples", 2000}};
  const json expected = independent(input);

  for (std::size_t index = 0; index < input["pass"].size(); ++index) {
    const auto n = input["pass"][index][0].get<std::uint64_t>();
    const auto c = input["pass"][index][1].get<std::uint64_t>();
    const auto k = input["pass"][index][2].get<std::uint64_t>();
    INFO("n=" << n << " c=" << c << " k=" << k);
    CHECK(lb::pass_at_k(n, c, k) == Approx(expected["pass"][index][0].get<double>()).margin(1e-12));
    CHECK(lb::pass_hat_k(n, c, k) == Approx(expected["pass"][index][1].get<double>()).margin(1e-12));
  }
  for (std::size_t index = 0; index < input["sign"].size(); ++index) {
    const auto wins = input["sign"][index][0].get<std::uint64_t>();
    const auto losses = input["sign"][index][1].get<std::uint64_t>();
    INFO("wins=" << wins << " losses=" << losses);
    CHECK(lb::sign_test_p(wins, losses) == Approx(expected["sign"][index].get<double>()).epsilon(1e-9));
  }
  const lb::BootstrapResult result = lb::bootstrap(tasks, 20240601, 2000);
  REQUIRE(result.mergeable_rate);
  REQUIRE(result.mean_composite);
  REQUIRE(result.resolved_rate);
  const auto& intervals = expected["bootstrap"];
  CHECK(result.mergeable_rate->low == Approx(intervals["mergeable"][0].get<double>()).margin(1e-12));
  CHECK(result.mergeable_rate->high == Approx(intervals["mergeable"][1].get<double>()).margin(1e-12));
  CHECK(result.mean_composite->low == Approx(intervals["composite"][0].get<double>()).margin(1e-9));
  CHECK(result.mean_composite->high == Approx(intervals["composite"][1].get<double>()).margin(1e-9));
  CHECK(result.resolved_rate->low == Approx(intervals["resolved"][0].get<double>()).margin(1e-12));
  CHECK(result.resolved_rate->high == Approx(intervals["resolved"][1].get<double>()).margin(1e-12));
  // The estimates are the plain means over tasks: mergeable
  // (0.5*4 [0,3,6,9] + 1*4 [1,5,7,11] + 0*4 [2,4,8,10]) / 12 = 0.5.
  CHECK(result.mergeable_rate->estimate == Approx(0.5));
  CHECK(result.mean_composite->estimate == Approx(40.0 + 5.25 * 5.5));
  CHECK(result.mergeable_rate->low <= 0.5);
  CHECK(result.mergeable_rate->high >= 0.5);
}

TEST_CASE("hand-worked values of the estimators", "[leaderboard]") {
  // 5 attempts, 2 successes, k = 2: 1 - C(3,2)/C(5,2) = 1 - 3/10; pass^2 = C(2,2)/C(5,2) = 1/10.
  CHECK(lb::pass_at_k(5, 2, 2) == Approx(0.7));
  CHECK(lb::pass_hat_k(5, 2, 2) == Approx(0.1));
  CHECK(lb::pass_at_k(2, 1, 1) == Approx(0.5));
  CHECK(lb::pass_at_k(2, 0, 2) == 0);
  CHECK(lb::pass_hat_k(2, 2, 2) == 1);
  // Sign test: 5 wins, 0 losses: 2 * 1/32; 9 vs 1: 2 * (1 + 9... C(10,0)+C(10,1) = 11) / 1024.
  CHECK(lb::sign_test_p(5, 0) == Approx(0.0625));
  CHECK(lb::sign_test_p(9, 1) == Approx(22.0 / 1024));
  CHECK(lb::sign_test_p(2, 1) == 1.0);
  CHECK(lb::sign_test_p(0, 0) == 1.0);
  // The same seed gives the same interval; no tasks, no interval.
  const std::vector<lb::TaskValues> tasks = {{1, 100, std::nullopt}, {0, 50, std::nullopt}, {1, 90, std::nullopt}};
  const auto first = lb::bootstrap(tasks, 7, 500);
  const auto second = lb::bootstrap(tasks, 7, 500);
  CHECK(first.mergeable_rate->low == second.mergeable_rate->low);
  CHECK(first.mean_composite->high == second.mean_composite->high);
  CHECK_FALSE(first.resolved_rate.has_value());
  CHECK_FALSE(lb::bootstrap({}, 7, 500).mergeable_rate.has_value());
}
