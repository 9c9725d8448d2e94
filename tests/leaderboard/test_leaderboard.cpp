// The leaderboard over rows: per-agent numbers, pass@k over repeated
// attempts, cost per success, the frontier, pairings and trends, each
// against arithmetic written out here.
#include <catch2/catch.hpp>

#include <hydra/leaderboard/leaderboard.hpp>

namespace lb = hydra::leaderboard;
using hydra::store::CandidateRow;

namespace {

CandidateRow attempt(const std::string& agent, const std::string& task, std::int64_t number, double total,
                     bool mergeable, std::optional<double> cost, std::int64_t day = 0) {
  CandidateRow row;
  row.agent = agent;
  row.task = task;
  row.attempt = number;
  row.total = total;
  row.mergeable = mergeable;
  row.metrics.cost_usd = cost;
  row.recorded_at = day * 86400;
  return row;
}

const lb::AgentStanding& standing(const lb::Leaderboard& board, const std::string& agent) {
  for (const auto& entry : board.agents)
    if (entry.agent == agent) return entry;
  FAIL("no agent " << agent);
  throw std::logic_error("unreachable");
}

}  // namespace

TEST_CASE("the leaderboard's numbers follow from the rows", "[leaderboard]") {
  // a: t1 twice (mergeable both), t2 twice (one of two), t3 once (not); $1 per attempt.
  // b: t1, t2, t3 once each, mergeable on t1 only; $0.5 per attempt.
  // c: t1 only, not mergeable, no cost reported.
  const std::vector<CandidateRow> rows = {
      attempt("a", "t1", 1, 100, true, 1.0, 0),  attempt("a", "t1", 2, 90, true, 1.0, 1),
      attempt("a", "t2", 1, 100, true, 1.0, 0),  attempt("a", "t2", 2, 60, false, 1.0, 1),
      attempt("a", "t3", 1, 50, false, 1.0, 1),  attempt("b", "t1", 1, 95, true, 0.5, 0),
      attempt("b", "t2", 1, 80, false, 0.5, 0),  attempt("b", "t3", 1, 50, false, 0.5, 0),
      attempt("c", "t1", 1, 30, false, std::nullopt, 0),
  };
  const lb::Leaderboard board = lb::compute(rows, {});
  CHECK(board.rows == 9);
  CHECK(board.tasks == 3);
  REQUIRE(board.agents.size() == 3);
  // Order: mergeable rate a (1 + 0.5 + 0) / 3 = 0.5, b 1/3, c 0.
  CHECK(board.agents[0].agent == "a");
  CHECK(board.agents[1].agent == "b");
  CHECK(board.agents[2].agent == "c");

  const auto& a = standing(board, "a");
  CHECK(a.tasks == 3);
  CHECK(a.attempts == 5);
  CHECK(a.mergeable_rate->estimate == Approx(0.5));
  // mean composite: t1 (100+90)/2 = 95, t2 (100+60)/2 = 80, t3 50: 225 / 3 = 75.
  CHECK(a.mean_composite->estimate == Approx(75));
  CHECK(a.mean_composite->low <= 75);
  CHECK(a.mean_composite->high >= 75);
  CHECK_FALSE(a.resolved_rate.has_value());
  REQUIRE(a.pass.size() == 2);
  // pass@1 over 3 tasks: (2/2 + 1/2 + 0/1) / 3 = 0.5. k = 2 over t1 and t2:
  // pass@2 = (1 + (1 - C(1,2)/C(2,2))) / 2 = 1; pass^2 = (C(2,2)/C(2,2) + C(1,2)/C(2,2)) / 2 = 0.5.
  CHECK(a.pass[0].tasks == 3);
  CHECK(a.pass[0].pass_at_k == Approx(0.5));
  CHECK(a.pass[1].tasks == 2);
  CHECK(a.pass[1].pass_at_k == Approx(1.0));
  CHECK(a.pass[1].pass_hat_k == Approx(0.5));
  // Cost: $5 over 5 attempts, 3 of them mergeable: $5/3 per mergeable change.
  CHECK(a.total_cost_usd == Approx(5));
  CHECK(a.cost_per_attempt == Approx(1));
  CHECK(a.cost_per_mergeable == Approx(5.0 / 3));
  CHECK_FALSE(a.cost_per_resolved.has_value());

  const auto& b = standing(board, "b");
  CHECK(b.cost_per_mergeable == Approx(1.5));
  CHECK(b.cost_per_attempt == Approx(0.5));
  const auto& c = standing(board, "c");
  CHECK_FALSE(c.total_cost_usd.has_value());
  CHECK_FALSE(c.cost_per_mergeable.has_value());

  // Frontier of mergeable rate against cost per attempt: a (0.5 at $1) and
  // b (0.33 at $0.5) trade off; c has no cost.
  CHECK(board.frontier_rate == "mergeable");
  CHECK(a.on_frontier);
  CHECK(b.on_frontier);
  CHECK_FALSE(c.on_frontier);

  // Pairings by name: a-b on t1..t3: 95 > 95? tie; 80 = 80 tie; 50 = 50 tie.
  REQUIRE(board.pairings.size() == 3);
  CHECK(board.pairings[0].first == "a");
  CHECK(board.pairings[0].second == "b");
  CHECK(board.pairings[0].common_tasks == 3);
  CHECK(board.pairings[0].ties == 3);
  CHECK(board.pairings[0].p_value == 1.0);
  // a-c on t1: 95 > 30.
  CHECK(board.pairings[1].second == "c");
  CHECK(board.pairings[1].common_tasks == 1);
  CHECK(board.pairings[1].wins == 1);
  CHECK_FALSE(board.pairings[1].significant);

  // Trends: a on day 0 (100, 100: both mergeable) and day 1 (90, 60, 50: one of three).
  REQUIRE(board.trends[0].points.size() == 2);
  CHECK(board.trends[0].points[0].day == "1970-01-01");
  CHECK(board.trends[0].points[0].mean_composite == Approx(100));
  CHECK(board.trends[0].points[1].day == "1970-01-02");
  CHECK(board.trends[0].points[1].mean_composite == Approx(200.0 / 3));
  CHECK(board.trends[0].points[1].mergeable_rate == Approx(1.0 / 3));
}

TEST_CASE("resolved rates and a dominated agent", "[leaderboard]") {
  auto r1 = attempt("cheap-good", "t1", 1, 100, true, 0.1);
  r1.resolved = true;
  auto r2 = attempt("dear-bad", "t1", 1, 40, false, 2.0);
  r2.resolved = false;
  const auto board = lb::compute({r1, r2}, {});
  CHECK(board.frontier_rate == "resolved");
  CHECK(standing(board, "cheap-good").on_frontier);
  CHECK_FALSE(standing(board, "dear-bad").on_frontier);
  CHECK(standing(board, "cheap-good").cost_per_resolved == Approx(0.1));
  CHECK(standing(board, "cheap-good").resolved_rate->estimate == 1.0);
  CHECK(lb::compute({}, {}).agents.empty());
}
