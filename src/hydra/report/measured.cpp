#include <hydra/report/measured.hpp>

#include <hydra/report/text.hpp>

namespace hydra::report {

std::string baseline_no_test_ran(const BaselineView& baseline) {
  if (!baseline.has_tests) return "NO TEST RAN (no test results recorded)";
  if (baseline.tests_passed + baseline.tests_failed > 0) return {};
  if (baseline.tests_skipped == 0) return "NO TEST RAN (0 tests recorded)";
  if (baseline.tests_skipped == 1) return "NO TEST RAN (its only test skipped or disabled)";
  return "NO TEST RAN (all " + std::to_string(baseline.tests_skipped) + " skipped or disabled)";
}

std::string baseline_linted_nothing(const BaselineView& baseline) {
  if (!baseline.has_lint || !baseline.lint_units || *baseline.lint_units > 0) return {};
  return "NOTHING LINTED (0 translation units)";
}

std::string nothing_measured_markdown(const ContractView& view) {
  if (view.nothing_measured.empty()) return {};
  std::string out = "> ⚠️ **Nothing measured**\n>\n";
  for (const auto& line : view.nothing_measured) out += "> - " + escape_markdown(line) + "\n";
  return out + "\n";
}

std::string nothing_measured_html(const ContractView& view) {
  if (view.nothing_measured.empty()) return {};
  std::string html = "<section class=\"alert\" id=\"nothing-measured\">\n<h2>Nothing measured</h2>\n<ul>\n";
  for (const auto& line : view.nothing_measured) html += "<li>" + escape_html(line) + "</li>\n";
  return html + "</ul>\n</section>\n";
}

nlohmann::json nothing_measured_sarif(const ContractView& view) {
  if (view.nothing_measured.empty()) return nullptr;
  nlohmann::json notifications = nlohmann::json::array();
  for (const auto& line : view.nothing_measured)
    notifications.push_back({{"level", "warning"}, {"message", {{"text", "Nothing measured: " + line}}}});
  return nlohmann::json::array(
      {{{"executionSuccessful", true}, {"toolExecutionNotifications", std::move(notifications)}}});
}

}  // namespace hydra::report
