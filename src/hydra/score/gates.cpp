// The merge gates: pass/fail checks of one candidate against the baseline,
// each with a detail a reviewer can check by hand (docs/formulas.md, "Gates").
// Values and limits compare exactly (util::Exact: the limit as the decimal it
// was written as); printed numbers keep the printed comparison true.
#include <hydra/score/score.hpp>
#include <hydra/score/test_comparison.hpp>

#include <cmath>
#include <cstdint>
#include <string>
#include <utility>

#include <nlohmann/json.hpp>

namespace hydra::score {

namespace {

using nlohmann::json;

/// Shortest text of a number for gate details ("20", "33.33", "0.8").
std::string number_text(double value) {
  json number = value;
  if (std::isfinite(value) && value == std::floor(value) && std::fabs(value) < 1e15) {
    number = static_cast<std::int64_t>(value);
  }
  return number.dump();
}

/// numerator/denominator with `decimals` decimals, as shortest text ("22.22",
/// "7", "0.003"); rounded half up, or up/down when `direction` is +1/-1.
std::string fraction_text(std::uint64_t numerator, std::uint64_t denominator, int decimals, int direction = 0) {
  std::uint64_t scale = 1;
  for (int i = 0; i < decimals; ++i) scale *= 10;
  const std::uint64_t scaled_numerator = numerator * scale;
  std::uint64_t scaled = scaled_numerator / denominator;
  const std::uint64_t remainder = scaled_numerator % denominator;
  if ((direction == 0 && remainder * 2 >= denominator) || (direction > 0 && remainder > 0)) ++scaled;
  std::string text = std::to_string(scaled / scale);
  std::string fraction = std::to_string(scaled % scale);
  fraction.insert(0, static_cast<std::size_t>(decimals) - fraction.size(), '0');
  while (!fraction.empty() && fraction.back() == '0') fraction.pop_back();
  return fraction.empty() ? text : text + "." + fraction;
}

/// The value a gate prints for numerator/denominator next to `limit`, so that
/// the printed comparison `relation` ("<=", ">", ">=", "<") holds for the
/// printed numbers: 2 decimals (half up), more (up to 6) when 2 would show
/// it false, then rounded toward the side that keeps it true.
std::string shown_value(std::uint64_t numerator, std::uint64_t denominator, const util::Exact& limit,
                        const std::string& relation) {
  auto holds = [&](const std::string& text) {
    const util::Exact value = *util::Exact::parse(text);
    if (relation == "<=") return value <= limit;
    if (relation == ">") return value > limit;
    if (relation == ">=") return value >= limit;
    return value < limit;
  };
  for (int decimals = 2; decimals <= 6; ++decimals) {
    const std::string text = fraction_text(numerator, denominator, decimals);
    if (holds(text)) return text;
  }
  const int direction = relation == ">" || relation == ">=" ? +1 : -1;
  return fraction_text(numerator, denominator, 6, direction);
}

Gate make_gate(std::string name, bool passed, std::string detail) {
  return Gate{std::move(name), passed, std::move(detail)};
}

}  // namespace

std::vector<Gate> evaluate_gates(const config::Config& config, const model::Run& baseline,
                                 const model::Run& candidate,
                                 const std::vector<Dimension>& dimensions, const TestComparison& tests) {
  std::vector<Gate> gates;

  // integrity: a score built from corrupt data (candidate or baseline) is never mergeable.
  // A baseline step that could not finish in its budget is no candidate's
  // fault: its dimension is unmeasurable for all (score.cpp), not a gate.
  std::string problems;
  for (const auto& problem : baseline.integrity_problems) {
    bool incomplete = false;
    for (const auto& step : baseline.incomplete_steps) incomplete = incomplete || step.second == problem;
    if (incomplete) continue;
    problems += (problems.empty() ? "baseline: " : "; baseline: ") + problem;
  }
  for (const auto& problem : candidate.integrity_problems) {
    problems += (problems.empty() ? "" : "; ") + problem;
  }
  gates.push_back(make_gate("integrity", problems.empty(),
                            problems.empty() ? "no integrity problems" : problems));

  // active_dimensions
  std::size_t active = 0;
  for (const auto& dimension : dimensions) active += dimension.active ? 1 : 0;
  gates.push_back(make_gate("active_dimensions", active > 0,
                            std::to_string(active) + " of " + std::to_string(dimensions.size()) +
                                " dimensions active"));

  // require_build_pass: an unknown build fails it (closed).
  const auto& build = candidate.build;
  if (!config.gates.require_build_pass) {
    gates.push_back(make_gate("require_build_pass", true,
                              "not required (scoring.gates.require_build_pass = false)"));
  } else if (!build.known && !build.no_step.empty()) {
    gates.push_back(make_gate("require_build_pass", true, "nothing to build: " + build.no_step));
  } else if (!build.known) {
    gates.push_back(make_gate("require_build_pass", false, "no build result recorded"));
  } else if (build.passed) {
    gates.push_back(make_gate("require_build_pass", true,
                              "build exit code " + std::to_string(build.exit_code)));
  } else {
    gates.push_back(make_gate("require_build_pass", false,
                              "build failed: " + (build.reason.empty()
                                                      ? "exit code " + std::to_string(build.exit_code)
                                                      : build.reason)));
  }

  // max_test_regression_percent: counts tests by identity in every mode
  // (baseline-passing tests that do not pass in the candidate), so breaking a
  // test is never bought back with new ones. Compared exactly (integers).
  const double limit_text = config.gates.max_test_regression_percent;
  const util::Exact limit = limit_text;
  if (!tests.baseline_has_tests && !tests.candidate_has_tests) {
    gates.push_back(make_gate("max_test_regression_percent", true,
                              "no tests recorded for the baseline or the candidate"));
  } else {
    const std::uint64_t b_pass = tests.baseline.passed;
    // percent = R*100/B <= limit, exactly (0% when B_pass = 0): a value at the limit passes.
    const std::uint64_t numerator = b_pass == 0 ? 0 : tests.gate_regression * 100;
    const std::uint64_t denominator = b_pass == 0 ? 1 : b_pass;
    const bool passed = util::Exact::ratio(numerator, denominator) <= limit;
    gates.push_back(make_gate(
        "max_test_regression_percent", passed,
        std::to_string(tests.gate_regression) +
            (tests.gate_regression == 1 ? " regression" : " regressions") +
            " (regressed or dropped tests) against " + std::to_string(b_pass) +
            " baseline-passing tests (" + shown_value(numerator, denominator, limit, passed ? "<=" : ">") + "% " +
            (passed ? "<= " : "> ") + number_text(limit_text) + "%)"));
  }

  // min_test_count_ratio: only when the baseline has tests. Compared exactly:
  // A/B >= ratio; a ratio at the limit passes.
  const double ratio_text = config.gates.min_test_count_ratio;
  const util::Exact ratio = ratio_text;
  if (tests.baseline.total == 0) {
    gates.push_back(make_gate("min_test_count_ratio", true, "the baseline ran no tests"));
  } else {
    const bool passed = util::Exact::ratio(tests.candidate.total, tests.baseline.total) >= ratio;
    gates.push_back(make_gate(
        "min_test_count_ratio", passed,
        "candidate ran " + std::to_string(tests.candidate.total) + " tests, baseline " +
            std::to_string(tests.baseline.total) + " (ratio " +
            shown_value(tests.candidate.total, tests.baseline.total, ratio, passed ? ">=" : "<") +
            (passed ? " >= " : " < ") + number_text(ratio_text) + ")"));
  }

  // security: configured but not run fails closed.
  const auto& security = candidate.security;
  if (security.ran) {
    const std::string detail = security.detail.empty() ? "security check" : security.detail;
    gates.push_back(make_gate("security", security.passed,
                              (security.passed ? "passed: " : "failed: ") + detail));
  } else if (config.gates.security_command.empty()) {
    gates.push_back(make_gate("security", true, "not configured"));
  } else {
    gates.push_back(make_gate(
        "security", false,
        "scoring.gates.security_command is set but the check did not run" +
            (security.detail.empty() ? std::string() : ": " + security.detail)));
  }

  // anti_gaming: edits of the scoring/lint configuration, tests switched off
  // or modified, tests no longer built (docs/threat-model.md).
  const auto& tampering = candidate.tampering;
  if (!tampering.analyzed) {
    gates.push_back(make_gate("anti_gaming", true, "no diff recorded to analyze"));
  } else if (tampering.gate_reasons.empty()) {
    gates.push_back(make_gate("anti_gaming", true, "no tampering found"));
  } else {
    std::string detail = tampering.gate_reasons.front();
    if (tampering.gate_reasons.size() > 1)
      detail += " (and " + std::to_string(tampering.gate_reasons.size() - 1) + " more)";
    gates.push_back(make_gate("anti_gaming", false, detail));
  }

  // resolved: the task's acceptance tests (the private tests the baseline
  // fails) all pass; only when there are some.
  const Resolution resolution = resolve(baseline, candidate);
  if (resolution.applies) {
    const std::size_t total = resolution.acceptance_tests.size();
    const std::size_t passing = total - resolution.still_failing.size();
    std::string detail = std::to_string(passing) + " of " + std::to_string(total) +
                         " acceptance tests (private tests the baseline fails) pass";
    if (!resolution.still_failing.empty()) {
      detail += "; unresolved: ";
      for (std::size_t index = 0; index < resolution.still_failing.size(); ++index)
        detail += (index ? ", " : "") + resolution.still_failing[index];
    }
    if (!config.gates.require_resolved) detail += " (not required: scoring.gates.require_resolved = false)";
    gates.push_back(make_gate("resolved", resolution.resolved() || !config.gates.require_resolved, detail));
  }
  return gates;
}

}  // namespace hydra::score
