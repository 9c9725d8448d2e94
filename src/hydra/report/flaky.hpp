// The flaky tests of a ranking in every report (docs/reports.md, "Flaky
// tests"): the contract's `flaky_tests` (docs/output-contract.md) read
// tolerantly and rendered as a section of the terminal output, Markdown and
// HTML, as SARIF notifications and as properties of the gates' JUnit. Pure.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace hydra::report {

/// What one run's attempts of a flaky test were.
struct FlakyRunView {
  std::string run;                    ///< "baseline", an agent
  std::vector<std::string> attempts;  ///< statuses in order ("failed", "passed")
  std::string message;                ///< the first failure's message; empty when none failed
};

/// One flaky test of the ranking.
struct FlakyTestView {
  std::string id;
  std::vector<std::string> seen_in;  ///< the runs that saw it fail and pass on the same code
  std::vector<FlakyRunView> runs;
};

/// The contract's `flaky_tests` (absent or malformed parts: left out).
std::vector<FlakyTestView> read_flaky_tests(const nlohmann::json& contract);

/// The flaky tests of one ranking entry (`rankings[].tests.flaky`).
std::vector<FlakyTestView> read_candidate_flaky_tests(const nlohmann::json& ranking);

/// "baseline: failed, passed; agent-a: passed".
std::string attempts_text(const FlakyTestView& test);

/// The terminal section (empty when no test was flaky); `color` for its title.
std::string flaky_tests_terminal(const nlohmann::json& contract, bool color);

/// The Markdown section (empty when no test was flaky).
std::string flaky_tests_markdown(const nlohmann::json& contract);

/// The HTML section (empty when no test was flaky).
std::string flaky_tests_html(const nlohmann::json& contract);

/// The SARIF log's `properties.hydraFlakyTests`: one object per flaky test
/// (`id`, `flakyIn`, `attempts` per run, a sentence in `text`). A flaky test
/// is a fact about the runs, not about a line of code: no result, no alert.
/// Empty when no test was flaky.
nlohmann::json flaky_tests_sarif_properties(const nlohmann::json& contract);

/// One line per flaky test of a ranking entry, for the gates' JUnit
/// properties: "ctest::x (flaky in baseline; baseline: failed, passed; a: passed)".
std::vector<std::string> flaky_test_lines(const nlohmann::json& ranking);

}  // namespace hydra::report
