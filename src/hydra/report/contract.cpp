#include <hydra/report/contract.hpp>
#include <hydra/report/measured.hpp>
#include <hydra/report/text.hpp>

#include <hydra/error.hpp>

#include <algorithm>
#include <cmath>
#include <set>

namespace hydra::report {

namespace {

/// The string values of a "tools" object (tool -> version).
std::map<std::string, std::string> read_tools(const nlohmann::json& tools) {
  std::map<std::string, std::string> versions;
  for (const auto& [tool, version] : tools.items())
    if (version.is_string()) versions[tool] = version.get<std::string>();
  return versions;
}

using nlohmann::json;

const json& empty_array() {
  static const json value = json::array();
  return value;
}

const json& empty_object() {
  static const json value = json::object();
  return value;
}

const std::vector<std::string>& known_dimensions() {
  static const std::vector<std::string> names{"build", "tests", "lint", "diff_scope", "speed", "judge"};
  return names;
}

std::optional<bool> bool_at(const json& object, const char* key) {
  if (!object.is_object()) return std::nullopt;
  const auto found = object.find(key);
  if (found == object.end() || !found->is_boolean()) return std::nullopt;
  return found->get<bool>();
}

std::uint64_t count_at(const json& object, const char* key) {
  const auto number = number_at(object, key);
  if (!number || *number < 0) return 0;
  return static_cast<std::uint64_t>(std::llround(*number));
}

std::vector<GateView> read_gates(const json& gates) {
  std::vector<GateView> out;
  for (const auto& gate : gates) {
    GateView view;
    view.gate = text_at(gate, "gate", "unnamed gate");
    view.passed = bool_at(gate, "passed").value_or(false);
    view.detail = text_at(gate, "detail");
    out.push_back(std::move(view));
  }
  return out;
}

std::vector<TestView> read_tests(const json& tests) {
  std::vector<TestView> out;
  for (const auto& test : tests) {
    TestView view;
    if (test.is_string()) {  // tolerate a bare id
      view.id = view.name = test.get<std::string>();
    } else {
      view.suite = text_at(test, "suite");
      view.name = text_at(test, "name");
      view.id = text_at(test, "id", view.suite.empty() ? view.name : view.suite + "::" + view.name);
      view.status = text_at(test, "status");
      view.message = text_at(test, "message");
    }
    out.push_back(std::move(view));
  }
  return out;
}

std::vector<FindingView> read_findings(const json& findings) {
  std::vector<FindingView> out;
  for (const auto& finding : findings) {
    FindingView view;
    view.tool = text_at(finding, "tool", "unknown");
    view.file = text_at(finding, "file");
    view.line = count_at(finding, "line");
    view.column = count_at(finding, "column");
    view.severity = text_at(finding, "severity", "warning") == "error" ? "error" : "warning";
    view.message = text_at(finding, "message");
    for (const auto& check : array_at(finding, "checks")) {
      if (check.is_string()) view.checks.push_back(check.get<std::string>());
    }
    view.fingerprint = text_at(finding, "fingerprint");
    out.push_back(std::move(view));
  }
  return out;
}

std::optional<BaselineView> read_baseline(const json& baseline) {
  if (!baseline.is_object()) return std::nullopt;
  BaselineView view;
  view.agent = text_at(baseline, "agent", "baseline");
  view.path = text_at(baseline, "path");
  view.recaptured = text_at(baseline, "recaptured");
  view.retried_alone = text_at(baseline, "retried_alone");
  view.tools = read_tools(object_at(baseline, "tools"));
  const json& summary = object_at(baseline, "summary");
  const json& build = object_at(summary, "build");
  if (bool_at(build, "known").value_or(build.contains("passed"))) {
    view.build_passed = bool_at(build, "passed");
  }
  if (const auto code = number_at(build, "exit_code")) view.build_exit_code = std::llround(*code);
  view.build_seconds = number_at(build, "seconds");
  view.build_no_step = text_at(build, "no_step");
  const json& tests = summary.is_object() && summary.contains("tests") ? summary["tests"] : json();
  if (tests.is_object()) {
    view.has_tests = true;
    view.tests_total = count_at(tests, "total");
    view.tests_passed = count_at(tests, "passed");
    view.tests_failed = count_at(tests, "failed");
    view.tests_skipped = count_at(tests, "skipped");
    view.tests_flaky = count_at(tests, "flaky");
    if (const json& programs = object_at(tests, "programs"); programs.is_object()) {
      view.programs_total = count_at(programs, "total");
      view.programs_passed = count_at(programs, "passed");
      view.programs_with_cases = count_at(programs, "with_cases");
    }
  }
  const json& lint = summary.is_object() && summary.contains("lint") ? summary["lint"] : json();
  if (lint.is_object()) {
    view.has_lint = true;
    view.lint_errors = count_at(lint, "errors");
    view.lint_warnings = count_at(lint, "warnings");
    if (lint.contains("units")) view.lint_units = count_at(lint, "units");
  }
  return view;
}

DimensionView read_dimension(const std::string& name, const json& ranking, const json& weights) {
  DimensionView view;
  view.name = name;
  const json& detail = object_at(object_at(ranking, "dimensions"), name.c_str());
  const json& breakdown = object_at(ranking, "breakdown");
  view.score = number_at(breakdown, name.c_str());
  if (!view.score) view.score = number_at(detail, "score");
  view.active = bool_at(detail, "active").value_or(view.score.has_value());
  if (!view.active) view.score.reset();
  view.weight = number_at(detail, "weight");
  if (!view.weight) view.weight = number_at(weights, name.c_str());
  if (view.active) view.effective_weight = number_at(object_at(ranking, "effective_weights"), name.c_str());
  view.reason = text_at(detail, "reason");
  view.evidence = object_at(detail, "evidence");
  return view;
}

std::vector<std::string> choose_dimensions(const json& rankings, const json& weights) {
  std::set<std::string> wanted;
  for (const auto& ranking : rankings) {
    for (const char* part : {"breakdown", "dimensions"}) {
      for (const auto& [name, value] : object_at(ranking, part).items()) {
        const bool active = part == std::string("breakdown")
                                ? value.is_number()
                                : bool_at(value, "active").value_or(number_at(value, "score").has_value());
        if (active) wanted.insert(name);
      }
    }
  }
  for (const auto& [name, value] : weights.items()) {
    if (value.is_number() && value.get<double>() > 0) wanted.insert(name);
  }
  std::vector<std::string> names;
  for (const auto& name : known_dimensions()) {
    if (wanted.erase(name) > 0) names.push_back(name);
  }
  names.insert(names.end(), wanted.begin(), wanted.end());  // std::set: sorted by name
  return names;
}

}  // namespace

std::string text_at(const json& object, const char* key, const std::string& fallback) {
  if (!object.is_object()) return fallback;
  const auto found = object.find(key);
  if (found == object.end() || found->is_null()) return fallback;
  if (found->is_string()) return found->get<std::string>();
  return found->dump();
}

std::optional<double> number_at(const json& object, const char* key) {
  if (!object.is_object()) return std::nullopt;
  const auto found = object.find(key);
  if (found == object.end() || !found->is_number()) return std::nullopt;
  const double value = found->get<double>();
  if (!std::isfinite(value)) return std::nullopt;
  return value;
}

const json& array_at(const json& object, const char* key) {
  if (!object.is_object()) return empty_array();
  const auto found = object.find(key);
  if (found == object.end() || !found->is_array()) return empty_array();
  return *found;
}

const json& object_at(const json& object, const char* key) {
  if (!object.is_object()) return empty_object();
  const auto found = object.find(key);
  if (found == object.end() || !found->is_object()) return empty_object();
  return *found;
}

std::string dimension_label(const std::string& name) {
  if (name == "diff_scope") return "Diff scope";
  std::string label = name;
  std::replace(label.begin(), label.end(), '_', ' ');
  if (!label.empty() && label[0] >= 'a' && label[0] <= 'z') label[0] = static_cast<char>(label[0] - 'a' + 'A');
  return label;
}

const DimensionView* find_dimension(const CandidateView& candidate, const std::string& name) {
  for (const auto& dimension : candidate.dimensions) {
    if (dimension.name == name) return &dimension;
  }
  return nullptr;
}

/// One readable line per anti-gaming finding of the contract's
/// `anti_gaming` object (docs/output-contract.md).
static std::vector<std::string> read_anti_gaming(const json& report) {
  std::vector<std::string> lines;
  auto location = [](const json& item) {
    std::string where = text_at(item, "path");
    const auto line = number_at(item, "line");
    if (line && *line > 0) where += ":" + std::to_string(static_cast<long long>(*line));
    return where;
  };
  for (const auto& edit : array_at(report, "config_edits"))
    lines.push_back("protected configuration edited: " + text_at(edit, "path") + " (" + text_at(edit, "change") + ")");
  for (const auto& suppression : array_at(report, "suppressions_added"))
    lines.push_back("lint suppression added: " + location(suppression) + " " + text_at(suppression, "kind") + ": " +
                    text_at(suppression, "text"));
  for (const auto& assertion : array_at(report, "assertions_removed"))
    lines.push_back("assertion removed: " + location(assertion) + ": " + text_at(assertion, "text"));
  for (const auto& test : array_at(report, "tests_tampered")) {
    const std::string detail = text_at(test, "detail");
    lines.push_back("test " + text_at(test, "name") + ": " + text_at(test, "kind") + (detail.empty() ? "" : " (" + detail + ")"));
  }
  for (const auto& line : array_at(report, "tests_not_built"))
    if (line.is_string()) lines.push_back("tests not built: " + line.get<std::string>());
  for (const auto& line : array_at(report, "harness_reach"))
    if (line.is_string()) lines.push_back("harness reach: " + line.get<std::string>());
  for (const auto& found : array_at(object_at(report, "process_references"), "new"))
    lines.push_back("code " + text_at(found, "source") + " newly references " + text_at(found, "reference") + " (" +
                    text_at(found, "category") + ")");
  // The held-out runs (docs/threat-model.md, "Held-out evaluation").
  const json& held_out = object_at(report, "held_out");
  for (const auto& test : array_at(held_out, "judged_by_held_out"))
    lines.push_back("held-out: test " + text_at(test, "test") + " " + text_at(test, "held_out") +
                    " with the baseline's tests on this code (its own run said " + text_at(test, "candidate_run") + ")");
  for (const auto& test : array_at(held_out, "unverified"))
    lines.push_back("held-out: test " + text_at(test, "test") + " unverified, counted as failing (" +
                    text_at(test, "why") + ")");
  // Private tests are the task's acceptance tests: a failing one is shown
  // as "unresolved" (resolution_text), not here; it accuses nobody.
  for (const auto& test : array_at(held_out, "new_tests_not_exercising"))
    lines.push_back("new test " + text_at(test, "test") + " does not exercise the change (" + text_at(test, "why") +
                    "): not counted");
  for (const auto& test : array_at(held_out, "new_tests_demonstrating"))
    lines.push_back("new test " + text_at(test, "test") + " demonstrates the change (on the baseline's code: " +
                    text_at(test, "on_baseline") + ")");
  return lines;
}

ContractView read_contract(const json& contract) {
  if (!contract.is_object()) throw Error("the score contract is not a JSON object");
  ContractView view;
  view.schema = text_at(contract, "schema");
  view.engine_version = text_at(contract, "engine_version");
  view.run_id = text_at(contract, "run_id");
  if (contract.contains("baseline")) view.baseline = read_baseline(contract["baseline"]);
  const json& rankings = array_at(contract, "rankings");
  const json& weights = object_at(contract, "weights");
  view.dimension_names = choose_dimensions(rankings, weights);
  for (const auto& line : array_at(contract, "nothing_measured"))
    if (line.is_string()) view.nothing_measured.push_back(line.get<std::string>());
  for (const auto& line : array_at(contract, "alerts"))
    if (line.is_string()) view.alerts.push_back(line.get<std::string>());
  std::uint64_t position = 0;
  for (const auto& ranking : rankings) {
    ++position;
    CandidateView candidate;
    const auto rank = number_at(ranking, "rank");
    candidate.rank = rank && *rank >= 1 ? static_cast<std::uint64_t>(std::llround(*rank)) : position;
    candidate.agent = text_at(ranking, "agent", "(unnamed)");
    candidate.run_path = text_at(object_at(ranking, "run"), "path");
    candidate.total = number_at(ranking, "total");
    for (const auto& name : view.dimension_names) {
      candidate.dimensions.push_back(read_dimension(name, ranking, weights));
    }
    candidate.gates = read_gates(array_at(ranking, "gates"));
    candidate.gate_failures = read_gates(array_at(ranking, "gate_failures"));
    for (auto& failure : candidate.gate_failures) failure.passed = false;
    if (candidate.gate_failures.empty()) {  // older or partial contracts: derive from gates
      for (const auto& gate : candidate.gates) {
        if (!gate.passed) candidate.gate_failures.push_back(gate);
      }
    }
    candidate.mergeable = bool_at(ranking, "mergeable").value_or(candidate.gate_failures.empty());
    const json& tests = object_at(ranking, "tests");
    candidate.regressed_tests = read_tests(array_at(tests, "regressed"));
    candidate.dropped_tests = read_tests(array_at(tests, "dropped"));
    candidate.added_tests = read_tests(array_at(tests, "added"));
    const json& lint = object_at(ranking, "lint");
    candidate.introduced_findings = read_findings(array_at(lint, "introduced"));
    candidate.resolved_findings = read_findings(array_at(lint, "resolved"));
    candidate.regressed_tests_omitted = count_at(tests, "regressed_omitted");
    candidate.dropped_tests_omitted = count_at(tests, "dropped_omitted");
    candidate.added_tests_omitted = count_at(tests, "added_omitted");
    candidate.introduced_findings_omitted = count_at(lint, "introduced_omitted");
    candidate.resolved_findings_omitted = count_at(lint, "resolved_omitted");
    candidate.sandbox = text_at(object_at(ranking, "run"), "sandbox");
    candidate.caches = text_at(object_at(ranking, "run"), "caches");
    candidate.retried_alone = text_at(object_at(ranking, "run"), "retried_alone");
    candidate.tools = read_tools(object_at(object_at(ranking, "run"), "tools"));
    candidate.anti_gaming = read_anti_gaming(object_at(ranking, "anti_gaming"));
    const json& resolution = object_at(ranking, "resolution");
    candidate.resolved = bool_at(resolution, "resolved");
    for (const auto& name : array_at(resolution, "acceptance_tests"))
      if (name.is_string()) candidate.acceptance_tests.push_back(name.get<std::string>());
    for (const auto& name : array_at(resolution, "still_failing"))
      if (name.is_string()) candidate.still_failing.push_back(name.get<std::string>());
    candidate.resolution_note = text_at(resolution, "note");
    view.has_resolution = view.has_resolution || candidate.resolved.has_value() || !candidate.resolution_note.empty();
    view.candidates.push_back(std::move(candidate));
  }
  return view;
}

std::string resolution_text(const CandidateView& candidate) {
  if (!candidate.resolved) return candidate.resolution_note.empty() ? std::string() : "no verdict: " + candidate.resolution_note;
  if (*candidate.resolved) return "resolved";
  std::string text = "UNRESOLVED";
  for (std::size_t index = 0; index < candidate.still_failing.size(); ++index)
    text += (index ? ", " : ": ") + candidate.still_failing[index];
  return text;
}

std::string baseline_test_counts(const BaselineView& baseline) {
  std::string text = std::to_string(baseline.tests_passed) + "/" + std::to_string(baseline.tests_total) + " passed";
  if (baseline.tests_flaky > 0) text += " (" + std::to_string(baseline.tests_flaky) + " flaky)";
  if (baseline.programs_total && baseline.programs_with_cases > 0)
    text += " (cases of " + std::to_string(baseline.programs_with_cases) + " framework program" +
            (baseline.programs_with_cases == 1 ? "" : "s") + "; programs " + std::to_string(baseline.programs_passed) +
            "/" + std::to_string(*baseline.programs_total) + " passed)";
  return text;
}

std::string baseline_sentence(const BaselineView& baseline) {
  std::string text = "Baseline: ";
  if (!baseline.build_passed) {
    text += baseline.build_no_step.empty() ? "build unknown" : "no build step";
  } else {
    text += *baseline.build_passed ? "build passed" : "build failed";
    if (baseline.build_seconds) text += " in " + format_number(*baseline.build_seconds, 1) + " s";
  }
  const std::string no_test_ran = baseline_no_test_ran(baseline);
  text += !no_test_ran.empty() ? ", " + no_test_ran : ", tests " + baseline_test_counts(baseline);
  const std::string linted_nothing = baseline_linted_nothing(baseline);
  text += !linted_nothing.empty() ? ", lint " + linted_nothing
          : baseline.has_lint     ? ", lint " + std::to_string(baseline.lint_errors) + " errors and " +
                                    std::to_string(baseline.lint_warnings) + " warnings"
                                  : ", lint did not run";
  text += ".";
  if (!baseline.recaptured.empty())
    text += " The baseline was captured again from its recorded commit and diff because its seal was broken: " +
            baseline.recaptured;
  if (!baseline.retried_alone.empty()) text += " The baseline was captured again alone: " + baseline.retried_alone;
  return text;
}

}  // namespace hydra::report
