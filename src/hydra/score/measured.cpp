#include <hydra/score/measured.hpp>

#include <hydra/score/dimension_support.hpp>
#include <hydra/score/test_comparison.hpp>

#include <algorithm>

namespace hydra::score {

namespace {

constexpr const char* kPrefix = "nothing measured: ";

}  // namespace

std::string no_test_ran(const model::Run& run) {
  if (!run.tests) return "no test results recorded";
  const TestCounts counts = count_tests(run.tests);
  if (counts.total > 0) return {};
  if (counts.skipped == 0) return "0 tests recorded";
  if (counts.skipped == 1) return "its only recorded test skipped or disabled";
  return "all " + std::to_string(counts.skipped) + " recorded tests skipped or disabled";
}

std::string tests_measured_nothing(const model::Run& baseline, const std::vector<model::Run>& candidates) {
  for (const auto& candidate : candidates)
    if (no_test_ran(candidate).empty()) return {};
  const std::string baseline_why = no_test_ran(baseline);
  if (baseline_why.empty()) return {};
  return "no test ran in the baseline (" + baseline_why + ") or any candidate";
}

std::string candidate_tests_measured_nothing(const model::Run& candidate) {
  if (candidate.build.known && !candidate.build.passed) return {};
  const std::string why = no_test_ran(candidate);
  return why.empty() ? why : "no test of the candidate ran (" + why + ")";
}

std::string lint_measured_nothing(const model::Run& run) {
  if (!run.lint || !run.lint_units || *run.lint_units > 0) return {};
  return "the lint step linted no translation unit";
}

void settle_measured_nothing(Dimension& dimension, const std::string& for_ranking, const std::string& for_candidate) {
  if (dimension.weight <= 0) return;  // disabled stays disabled
  if (!for_ranking.empty()) {
    deactivate(dimension, kPrefix + for_ranking);
    dimension.evidence = nlohmann::json::object();
    dimension.nothing_measured = true;
  } else if (!for_candidate.empty() && dimension.active) {
    dimension.score = 0;
    dimension.inactive_reason = kPrefix + for_candidate;
    dimension.evidence["unmeasured"] = dimension.inactive_reason;
    dimension.nothing_measured = true;
  }
}

std::vector<std::string> nothing_measured(const model::Run& baseline, const Ranking& ranking) {
  std::vector<std::string> lines;
  // Dimensions that measured nothing for the whole ranking read the same on
  // every candidate: said once.
  std::vector<std::string> ranking_wide;
  if (!ranking.candidates.empty()) {
    for (const auto& dimension : ranking.candidates.front().dimensions)
      if (dimension.nothing_measured && !dimension.active) {
        ranking_wide.push_back(dimension.name);
        lines.push_back(dimension.name + ": " + dimension.inactive_reason +
                        " (inactive: left out of every total)");
      }
  }
  const auto said = [&](const std::string& name) {
    return std::find(ranking_wide.begin(), ranking_wide.end(), name) != ranking_wide.end();
  };
  if (const std::string why = no_test_ran(baseline); !why.empty() && !said("tests"))
    lines.push_back("baseline: no test ran (" + why + ")");
  if (const std::string why = lint_measured_nothing(baseline); !why.empty() && !said("lint"))
    lines.push_back("baseline: " + why);
  for (const auto& candidate : ranking.candidates)
    for (const auto& dimension : candidate.dimensions)
      if (dimension.nothing_measured && dimension.active)
        lines.push_back(candidate.agent + ": " + dimension.name + " scored 0: " + dimension.inactive_reason);
  return lines;
}

}  // namespace hydra::score
