// A score contract with flaky tests for the report tests, written by the real
// scoring code (score::rank, score::to_contract) from runs built in memory:
// the baseline saw the test "timing|<slow>&co" fail and pass, candidate
// "unlucky" saw it fail three times, candidate "lucky" passed it once.
#pragma once

#include <nlohmann/json.hpp>

#include <hydra/score/contract.hpp>
#include <hydra/score/score.hpp>

namespace report_test {

/// The flaky test's name: a Markdown table separator, an HTML tag and an entity start.
inline const std::string flaky_test_name = "timing|<slow>&co";

inline nlohmann::json flaky_contract() {
  using hydra::model::TestCase;
  using hydra::model::TestStatus;
  const auto make_run = [](const std::string& agent, std::vector<TestStatus> timing) {
    hydra::model::Run run;
    run.agent = agent;
    run.path = "runs/" + agent;
    run.digest = "digest-" + agent;
    run.build.known = true;
    run.build.passed = true;
    TestCase stable;
    stable.suite = "ctest";
    stable.name = "stable";
    TestCase flaky = stable;
    flaky.name = flaky_test_name;
    flaky.status = timing.front();
    for (const auto status : timing) {
      if (timing.size() > 1) flaky.attempts.push_back({status, 0.5, status == TestStatus::passed ? "" : "too slow"});
      if (status == TestStatus::passed) flaky.status = TestStatus::passed;
    }
    if (flaky.status == TestStatus::failed) flaky.message = "too slow";
    run.tests = std::vector<TestCase>{stable, flaky};
    run.lint_inactive_reason = "clang-tidy not found";
    run.tools = {{"clang-tidy", "Debian LLVM version 14.0.6"}, {"compiler", "GNU 12.2.0"}};
    return run;
  };
  const hydra::config::Config config;
  const auto baseline = make_run("baseline", {TestStatus::failed, TestStatus::passed});
  const auto ranking = hydra::score::rank(
      config, baseline,
      {make_run("unlucky", {TestStatus::failed, TestStatus::failed, TestStatus::failed}),
       make_run("lucky", {TestStatus::passed})});
  return hydra::score::to_contract(config, baseline, ranking);
}

}  // namespace report_test
