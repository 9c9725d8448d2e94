// The results store and the leaderboard end to end: three agents over five
// tasks of example-project (one agent with two attempts at two tasks),
// recorded from the raw artifacts of real cmake/ctest/clang-tidy runs
// (tests/fixtures/runs/raw/) and ranked with `score --store`; the
// leaderboard's numbers against arithmetic written out here; the same
// rankings imported from their score JSON files (the CI merge path) give the
// same leaderboard; `compare` reads the store.
#include "cli/cli_support.hpp"

#include <string>
#include <vector>

using cli_test::run_tool;
using nlohmann::json;

namespace {

/// Which raw run each agent's attempt comes from. Outcomes (example-project's
/// hydra.toml, no agent durations: speed inactive):
///   clean-fix       total 100,   mergeable
///   breaks-test     total 91.11, not mergeable (2 regressions)
///   protected-lint  total 87.67, mergeable
/// Costs per attempt: alpha $0.50, beta $0.20, gamma $0.30.
struct Attempt {
  std::string agent;
  std::string task;
  int number;
  std::string raw;
};

const std::vector<std::string> kTasks = {"t1", "t2", "t3", "t4", "t5"};

std::string raw_of(const std::string& agent, const std::string& task) {
  if (agent == "alpha") return task == "t5" ? "breaks-test" : "clean-fix";
  if (agent == "beta") return task == "t4" || task == "t5" ? "clean-fix" : "breaks-test";
  return "protected-lint";
}

std::string cost_of(const std::string& agent) {
  if (agent == "alpha") return "0.5";
  if (agent == "beta") return "0.2";
  return "0.3";
}

class Flow {
 public:
  Flow() {
    auto baseline = cli_test::record_arguments("baseline", "baseline");
    baseline.insert(baseline.end(), {"--config", cli_test::example_config.string()});
    check(run_tool(baseline, dir.path()));
    for (std::size_t day = 0; day < kTasks.size(); ++day) {
      const std::string& task = kTasks[day];
      std::vector<std::string> score = {"score", "--baseline", "baseline", "--store", "results.db",
                                        "--recorded-at", "2026-03-0" + std::to_string(day + 1), "--quiet",
                                        "--no-gate-exit", "--json", task + ".json"};
      for (const std::string agent : {"alpha", "beta", "gamma"}) {
        const std::string run = record(agent, task, 1, raw_of(agent, task));
        score.insert(score.end(), {"--candidate", run});
      }
      check(run_tool(score, dir.path()));
    }
    // alpha's second attempts: t1 again clean, t2 breaks a test.
    for (const auto& [task, raw] : {std::pair<std::string, std::string>{"t1", "clean-fix"}, {"t2", "breaks-test"}}) {
      const std::string run = record("alpha", task, 2, raw);
      check(run_tool({"score", "--baseline", "baseline", "--candidate", run, "--store", "results.db", "--attempt", "2",
                      "--recorded-at", "2026-03-06", "--quiet", "--no-gate-exit", "--json", task + "-2.json"},
                     dir.path()));
    }
  }

  json leaderboard(const std::string& store, const std::vector<std::string>& extra = {}) const {
    std::vector<std::string> arguments = {"leaderboard", "--store", store, "--json", "board.json", "--quiet"};
    arguments.insert(arguments.end(), extra.begin(), extra.end());
    check(run_tool(arguments, dir.path()));
    return cli_test::read_json(dir.path() / "board.json");
  }

  static void check(const cli_test::ToolResult& result) {
    INFO(result.output);
    REQUIRE(result.exit_code == 0);
  }

  hydra::util::TempDir dir{"hydra-cli-leaderboard"};

 private:
  /// Records the raw run `raw` as `agent`'s attempt at `task`, with its metrics file.
  std::string record(const std::string& agent, const std::string& task, int attempt, const std::string& raw) {
    const std::string name = agent + "-" + task + "-" + std::to_string(attempt);
    cli_test::write_bytes(dir.path() / (name + ".metrics.json"),
                          R"({"cost_usd": )" + cost_of(agent) +
                              R"(, "input_tokens": 1000, "output_tokens": 200, "tool_calls": 12, "steps": 7})");
    auto arguments = cli_test::record_arguments(raw, name);
    for (std::size_t index = 0; index + 1 < arguments.size(); ++index)
      if (arguments[index] == "--agent") arguments[index + 1] = agent;
    arguments.insert(arguments.end(), {"--task", task, "--metrics", name + ".metrics.json"});
    check(run_tool(arguments, dir.path()));
    return name;
  }
};

const json& agent_of(const json& board, const std::string& agent) {
  for (const auto& entry : board.at("agents"))
    if (entry.at("agent") == agent) return entry;
  FAIL("no agent " << agent);
  throw std::logic_error("unreachable");
}

const json& pair_of(const json& board, const std::string& first, const std::string& second) {
  for (const auto& entry : board.at("pairwise").at("pairs"))
    if (entry.at("first") == first && entry.at("second") == second) return entry;
  FAIL("no pair " << first << " " << second);
  throw std::logic_error("unreachable");
}

}  // namespace

TEST_CASE("three agents over five tasks: the leaderboard's numbers by hand", "[cli][leaderboard]") {
  Flow flow;
  const json board = flow.leaderboard("results.db");
  CHECK(board["schema"] == "hydra-score/leaderboard/1");
  // 5 rankings of 3 candidates + 2 of alpha alone.
  CHECK(board["rows"] == 17);
  CHECK(board["tasks"] == 5);
  // Order by mergeable rate: gamma 5/5, alpha 0.7, beta 0.4.
  REQUIRE(board["agents"].size() == 3);
  CHECK(board["agents"][0]["agent"] == "gamma");
  CHECK(board["agents"][1]["agent"] == "alpha");
  CHECK(board["agents"][2]["agent"] == "beta");

  const json& alpha = agent_of(board, "alpha");
  CHECK(alpha["tasks"] == 5);
  CHECK(alpha["attempts"] == 7);
  // Per task, the share of attempts mergeable: t1 2/2, t2 1/2, t3 1, t4 1, t5 0 (breaks-test):
  // (1 + 0.5 + 1 + 1 + 0) / 5 = 0.7.
  CHECK(alpha["mergeable_rate"]["estimate"].get<double>() == Approx(0.7));
  CHECK(alpha["mergeable_rate"]["low"].get<double>() <= 0.7);
  CHECK(alpha["mergeable_rate"]["high"].get<double>() >= 0.7);
  CHECK(alpha["mergeable_attempts"] == 5);
  // Mean composite: t1 100, t2 (100 + 91.11) / 2 = 95.555, t3 100, t4 100, t5 91.11:
  // 486.665 / 5 = 97.333.
  CHECK(alpha["mean_composite"]["estimate"].get<double>() == Approx(97.333));
  // No private test patch: no resolved rate.
  CHECK(alpha["resolved_rate"].is_null());
  // pass@k: k = 1 over 5 tasks is the mergeable rate; k = 2 over t1 (2 of 2)
  // and t2 (1 of 2): pass@2 = (1 + (1 - C(1,2)/C(2,2))) / 2 = 1,
  // pass^2 = (C(2,2)/C(2,2) + C(1,2)/C(2,2)) / 2 = 0.5.
  REQUIRE(alpha["pass"].size() == 2);
  CHECK(alpha["pass"][0]["pass_at_k"].get<double>() == Approx(0.7));
  CHECK(alpha["pass"][1]["tasks"] == 2);
  CHECK(alpha["pass"][1]["pass_at_k"].get<double>() == Approx(1.0));
  CHECK(alpha["pass"][1]["pass_hat_k"].get<double>() == Approx(0.5));
  // Cost: 7 attempts at $0.50 = $3.50; 5 mergeable: $0.70 each.
  CHECK(alpha["cost_usd"]["total"].get<double>() == Approx(3.5));
  CHECK(alpha["cost_usd"]["per_mergeable"].get<double>() == Approx(0.7));
  CHECK(alpha["cost_usd"]["per_resolved"].is_null());

  const json& beta = agent_of(board, "beta");
  // breaks-test on t1..t3, clean-fix on t4, t5: 2/5; composite (3 * 91.11 + 2 * 100) / 5 = 94.666.
  CHECK(beta["mergeable_rate"]["estimate"].get<double>() == Approx(0.4));
  CHECK(beta["mean_composite"]["estimate"].get<double>() == Approx(94.666));
  // $0.20 * 5 = $1.00 over 2 mergeable changes.
  CHECK(beta["cost_usd"]["per_mergeable"].get<double>() == Approx(0.5));
  CHECK(beta["pass"].size() == 1);

  const json& gamma = agent_of(board, "gamma");
  CHECK(gamma["mergeable_rate"]["estimate"].get<double>() == Approx(1.0));
  CHECK(gamma["mergeable_rate"]["low"].get<double>() == Approx(1.0));  // every resample is 5 of 5
  CHECK(gamma["mean_composite"]["estimate"].get<double>() == Approx(87.67));
  CHECK(gamma["cost_usd"]["per_mergeable"].get<double>() == Approx(0.3));

  // Frontier (mergeable rate against cost per attempt): beta (0.4 at $0.20)
  // and gamma (1.0 at $0.30); alpha (0.7 at $0.50) is dominated by gamma.
  CHECK(board["frontier"]["rate"] == "mergeable");
  CHECK(board["frontier"]["agents"] == json::array({"beta", "gamma"}));

  // Pairwise on mean composites per task. alpha vs beta: t1 100 > 91.11,
  // t2 95.555 > 91.11, t3 100 > 91.11, t4 100 = 100, t5 91.11 < 100:
  // 3 wins, 1 tie, 1 loss; sign test p = 2 * (C(4,0) + C(4,1)) / 2^4 = 0.625.
  const json& alpha_beta = pair_of(board, "alpha", "beta");
  CHECK(alpha_beta["common_tasks"] == 5);
  CHECK(alpha_beta["wins"] == 3);
  CHECK(alpha_beta["ties"] == 1);
  CHECK(alpha_beta["losses"] == 1);
  CHECK(alpha_beta["p_value"].get<double>() == Approx(0.625));
  CHECK(alpha_beta["significant"] == false);
  // beta beats gamma (87.67) on all 5 tasks: p = 2 / 2^5 = 0.0625, not significant at 0.05.
  const json& beta_gamma = pair_of(board, "beta", "gamma");
  CHECK(beta_gamma["wins"] == 5);
  CHECK(beta_gamma["p_value"].get<double>() == Approx(0.0625));
  CHECK(beta_gamma["significant"] == false);

  // Trends: alpha on six days (t1..t5, then the second attempts on 2026-03-06:
  // (100 + 91.11) / 2 = 95.555, one of two mergeable).
  const json& alpha_trend = board["trends"][0];
  REQUIRE(alpha_trend["agent"] == "alpha");
  REQUIRE(alpha_trend["points"].size() == 6);
  CHECK(alpha_trend["points"][5]["day"] == "2026-03-06");
  CHECK(alpha_trend["points"][5]["mean_composite"].get<double>() == Approx(95.555));
  CHECK(alpha_trend["points"][5]["mergeable_rate"].get<double>() == Approx(0.5));

  SECTION("the same seed gives the same output; filters narrow it") {
    CHECK(flow.leaderboard("results.db") == board);
    const json two = flow.leaderboard("results.db", {"--task", "t1", "--task", "t2", "--agent", "alpha"});
    CHECK(two["rows"] == 4);
    CHECK(two["agents"][0]["mergeable_rate"]["estimate"].get<double>() == Approx(0.75));  // (1 + 0.5) / 2
    const json late = flow.leaderboard("results.db", {"--since", "2026-03-05", "--until", "2026-03-06"});
    CHECK(late["rows"] == 3);  // t5
    CHECK(flow.leaderboard("results.db", {"--config-digest", "none"})["rows"] == 0);
  }
  SECTION("score JSON files imported into another store give the same leaderboard") {
    for (std::size_t day = 0; day < kTasks.size(); ++day)
      Flow::check(run_tool({"record-results", "--store", "merged.db", "--recorded-at",
                            "2026-03-0" + std::to_string(day + 1), kTasks[day] + ".json"},
                           flow.dir.path()));
    Flow::check(run_tool({"record-results", "--store", "merged.db", "--attempt", "2", "--recorded-at", "2026-03-06",
                          "t1-2.json", "t2-2.json"},
                         flow.dir.path()));
    json merged = flow.leaderboard("merged.db");
    CHECK(merged == board);
    // Imported again: nothing new.
    const auto again = run_tool({"record-results", "--store", "merged.db", "t1.json", "t2.json"}, flow.dir.path());
    CHECK(again.exit_code == 0);
    CHECK(again.output.find("recorded 0 of 6 candidates from 2 score files") != std::string::npos);
    CHECK(flow.leaderboard("merged.db")["rows"] == 17);
  }
  SECTION("terminal, Markdown and HTML outputs") {
    const auto shown = run_tool({"leaderboard", "--store", "results.db", "--markdown", "board.md", "--html", "board.html"},
                                flow.dir.path());
    REQUIRE(shown.exit_code == 0);
    CHECK(shown.output.find("HydraScore leaderboard  (17 recorded candidates, 5 tasks, 3 agents") != std::string::npos);
    CHECK(shown.output.find("alpha vs beta: 5 common tasks: 3 wins, 1 ties, 1 losses; p = 0.625") != std::string::npos);
    const std::string markdown = cli_test::read_bytes(flow.dir.path() / "board.md");
    CHECK(markdown.find("| alpha | 5 | 7 | 70% [") != std::string::npos);
    CHECK(markdown.find("pass@2 100%, pass^2 50%") != std::string::npos);
    const std::string html = cli_test::read_bytes(flow.dir.path() / "board.html");
    CHECK(html.find("<svg") != std::string::npos);
    CHECK(html.find("<script") == std::string::npos);
    CHECK(html.find("http://") == html.find("http://www.w3.org/2000/svg"));  // only the SVG namespace
  }
  SECTION("compare reads the store: alpha against beta, the seed's verdict") {
    // Latest attempt per task: alpha t1 clean (12/12), t2 breaks-test (8/10), t3, t4 clean, t5 breaks-test;
    // beta t1..t3 breaks-test, t4, t5 clean. alpha's t2 objective drops 1.0 -> 0.8: a hard regression.
    const auto compared = run_tool({"compare", "--store", "results.db", "--reference-agent", "beta",
                                    "--candidate-agent", "alpha", "--json", "compare.json"},
                                   flow.dir.path());
    INFO(compared.output);
    CHECK(compared.exit_code == 4);
    const json verdict = cli_test::read_json(flow.dir.path() / "compare.json");
    CHECK(verdict["verdict"] == "regressed");
    CHECK(verdict["promote"] == false);
    CHECK(verdict["tasks"].size() == 5);
    const auto none = run_tool({"compare", "--store", "results.db", "--reference-agent", "beta",
                                "--candidate-agent", "nobody"},
                               flow.dir.path());
    CHECK(none.exit_code == 2);
    CHECK(none.output.find("holds no recorded candidate") != std::string::npos);
    const auto mixed = run_tool({"compare", "--store", "results.db", "--reference", "x"}, flow.dir.path());
    CHECK(mixed.exit_code == 2);
  }
}
