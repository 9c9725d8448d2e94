#include <hydra/guard/guard.hpp>

#include <algorithm>
#include <set>
#include <tuple>

namespace hydra::guard {

std::string_view to_string(TamperKind kind) noexcept {
  switch (kind) {
    case TamperKind::dropped: return "dropped";
    case TamperKind::disabled: return "disabled";
    case TamperKind::newly_skipped: return "newly_skipped";
    case TamperKind::will_fail_flipped: return "will_fail_flipped";
    case TamperKind::skip_rule_added: return "skip_rule_added";
    case TamperKind::pass_regex_changed: return "pass_regex_changed";
    case TamperKind::command_changed: return "command_changed";
    case TamperKind::command_trivial: return "command_trivial";
    case TamperKind::definition_changed: return "definition_changed";
    case TamperKind::build_changed: return "build_changed";
  }
  return "dropped";
}

namespace {

void sort_report(Report& report) {
  std::sort(report.config_edits.begin(), report.config_edits.end(),
            [](const ConfigEdit& a, const ConfigEdit& b) {
              return std::tie(a.path, a.change) < std::tie(b.path, b.change);
            });
  std::sort(report.suppressions_added.begin(), report.suppressions_added.end(),
            [](const Suppression& a, const Suppression& b) {
              return std::tie(a.path, a.line, a.kind, a.text) < std::tie(b.path, b.line, b.kind, b.text);
            });
  std::sort(report.assertions_removed.begin(), report.assertions_removed.end(),
            [](const RemovedAssertion& a, const RemovedAssertion& b) {
              return std::tie(a.path, a.line, a.text) < std::tie(b.path, b.line, b.text);
            });
  std::sort(report.tests_tampered.begin(), report.tests_tampered.end(),
            [](const TamperedTest& a, const TamperedTest& b) {
              const auto a_kind = to_string(a.kind);
              const auto b_kind = to_string(b.kind);
              return std::tie(a.name, a_kind, a.detail) < std::tie(b.name, b_kind, b.detail);
            });
}

}  // namespace

Report analyze(const Settings& settings, const parse::DiffLines& diff,
               const std::vector<model::TestDefinition>& baseline_definitions,
               const std::vector<model::TestDefinition>& candidate_definitions,
               const std::vector<model::TestCase>* baseline_tests,
               const std::vector<model::TestCase>* candidate_tests) {
  return analyze(settings, diff, baseline_definitions, candidate_definitions, baseline_tests,
                 candidate_tests, TreeRoots{});
}

Report analyze(const Settings& settings, const parse::DiffLines& diff,
               const std::vector<model::TestDefinition>& baseline_definitions,
               const std::vector<model::TestDefinition>& candidate_definitions,
               const std::vector<model::TestCase>* baseline_tests,
               const std::vector<model::TestCase>* candidate_tests, const TreeRoots& roots) {
  Report report;
  report.config_edits = find_config_edits(settings, diff);
  report.suppressions_added = find_added_suppressions(diff);
  report.assertions_removed = find_removed_assertions(settings, diff);
  report.tests_tampered = find_tampered_tests(baseline_definitions, candidate_definitions,
                                              baseline_tests, candidate_tests, roots);
  report.tests_not_built =
      find_tests_not_built(diff, baseline_definitions.size(), candidate_definitions.size());
  report.harness_reach = find_harness_reach(settings, diff);
  sort_report(report);
  return report;
}

std::size_t tampered_test_count(const Report& report) {
  std::set<std::string_view> names;
  for (const TamperedTest& test : report.tests_tampered) names.insert(test.name);
  return names.size();
}

std::vector<std::string> find_unreadable_code(const parse::DiffLines& diff, const std::set<std::string>& compiled) {
  std::vector<std::string> found;
  for (const auto& file : diff.files)
    if (file.binary && !file.deleted && compiled.count(file.path))
      found.push_back(file.path + ": compiled by the build, yet git shows its change as binary (a NUL byte?), so no "
                                  "check of added lines can read it");
  return found;
}

bool has_tampering(const Report& report) {
  return !report.config_edits.empty() || !report.tests_tampered.empty() || !report.tests_not_built.empty() ||
         !report.harness_reach.empty() || !report.unreadable_code.empty();
}

nlohmann::json to_json(const Report& report) {
  Report sorted = report;
  sort_report(sorted);
  nlohmann::json out = nlohmann::json::object();

  nlohmann::json config_edits = nlohmann::json::array();
  for (const ConfigEdit& edit : sorted.config_edits)
    config_edits.push_back({{"path", edit.path}, {"change", edit.change}, {"pattern", edit.pattern}});
  nlohmann::json suppressions = nlohmann::json::array();
  for (const Suppression& suppression : sorted.suppressions_added)
    suppressions.push_back({{"path", suppression.path},
                            {"line", suppression.line},
                            {"text", suppression.text},
                            {"kind", suppression.kind}});
  nlohmann::json assertions = nlohmann::json::array();
  for (const RemovedAssertion& assertion : sorted.assertions_removed)
    assertions.push_back(
        {{"path", assertion.path}, {"line", assertion.line}, {"text", assertion.text}});
  nlohmann::json tampered = nlohmann::json::array();
  for (const TamperedTest& test : sorted.tests_tampered)
    tampered.push_back(
        {{"name", test.name}, {"kind", std::string(to_string(test.kind))}, {"detail", test.detail}});

  out["config_edits"] = std::move(config_edits);
  out["suppressions_added"] = std::move(suppressions);
  out["assertions_removed"] = std::move(assertions);
  out["tests_tampered"] = std::move(tampered);
  out["tests_not_built"] = sorted.tests_not_built;
  out["harness_reach"] = sorted.harness_reach;
  out["unreadable_code"] = sorted.unreadable_code;
  out["counts"] = {{"config_edits", sorted.config_edits.size()},
                   {"suppressions_added", sorted.suppressions_added.size()},
                   {"assertions_removed", sorted.assertions_removed.size()},
                   {"tests_tampered", tampered_test_count(sorted)},
                   {"tests_not_built", sorted.tests_not_built.size()},
                   {"harness_reach", sorted.harness_reach.size()},
                   {"unreadable_code", sorted.unreadable_code.size()}};
  out["tampering"] = has_tampering(sorted);
  return out;
}

}  // namespace hydra::guard
