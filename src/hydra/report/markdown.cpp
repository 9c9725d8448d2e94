// GitHub-flavoured Markdown of the score contract.
#include <hydra/report/report.hpp>

#include <hydra/report/contract.hpp>
#include <hydra/report/alerts.hpp>
#include <hydra/report/measured.hpp>
#include <hydra/report/flaky.hpp>
#include <hydra/report/text.hpp>

#include <vector>

namespace hydra::report {

namespace {

/// Lists longer than this are cut; the JSON contract keeps everything.
constexpr std::size_t max_listed_rows = 50;

std::string evidence_text(const nlohmann::json& evidence) {
  std::string text;
  for (const auto& [key, value] : evidence.items()) {
    if (!text.empty()) text += ", ";
    text += key + " " + (value.is_string() ? value.get<std::string>()
                                           : value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
  }
  return text;
}


/// `omitted`: how many the contract itself left out (it lists at most 25,000).
std::string more_rows_note(std::size_t total, std::uint64_t omitted = 0) {
  if (total <= max_listed_rows) return "";
  return "\n_…and " + std::to_string(total - max_listed_rows) + " more (" +
         (omitted > 0 ? "the JSON contract lists " + std::to_string(total - omitted) : std::string("see the JSON contract")) +
         ")._\n";
}

void append_findings(std::string& out, const std::string& title, const std::vector<FindingView>& findings,
                     std::uint64_t omitted) {
  if (findings.empty()) return;
  const std::size_t total = findings.size() + omitted;
  out += "\n**" + title + " (" + std::to_string(total) + ")**\n\n";
  out += "| Location | Severity | Check | Message |\n|:--|:--|:--|:--|\n";
  for (std::size_t index = 0; index < findings.size() && index < max_listed_rows; ++index) {
    const auto& finding = findings[index];
    out += "| " + escape_markdown(finding_location(finding)) + " | " + escape_markdown(finding.severity) + " | " +
           escape_markdown(finding_checks(finding)) + " | " + escape_markdown(finding.message) + " |\n";
  }
  out += more_rows_note(total, omitted);
}

void append_tests(std::string& out, const std::string& title, const std::vector<TestView>& tests,
                  std::uint64_t omitted) {
  if (tests.empty()) return;
  const std::size_t total = tests.size() + omitted;
  out += "\n**" + title + " (" + std::to_string(total) + ")**\n\n";
  out += "| Test | Status | Message |\n|:--|:--|:--|\n";
  for (std::size_t index = 0; index < tests.size() && index < max_listed_rows; ++index) {
    const auto& test = tests[index];
    out += "| " + escape_markdown(test.id) + " | " + escape_markdown(test.status.empty() ? "-" : test.status) +
           " | " + escape_markdown(test.message.empty() ? "-" : test.message) + " |\n";
  }
  out += more_rows_note(total, omitted);
}

void append_candidate(std::string& out, const CandidateView& candidate) {
  out += "\n### " + std::to_string(candidate.rank) + ". " + escape_markdown(candidate.agent) + " — " +
         format_optional(candidate.total) + (candidate.mergeable ? " ✅ mergeable" : " ❌ not mergeable") + "\n\n";
  out += "| Dimension | Score | Weight | Share of total | Evidence |\n|:--|--:|--:|--:|:--|\n";
  for (const auto& dimension : candidate.dimensions) {
    const bool active = dimension.active && dimension.score;
    out += "| " + dimension_label(dimension.name) + " | " + (active ? format_number(*dimension.score) : "-") + " | " +
           format_optional(dimension.weight) + " | " +
           (dimension.effective_weight ? format_percent(*dimension.effective_weight) : std::string("-")) + " | " +
           escape_markdown(active ? evidence_text(dimension.evidence)
                                  : "inactive" + (dimension.reason.empty() ? "" : ": " + dimension.reason)) +
           " |\n";
  }
  if (!candidate.gates.empty() || !candidate.gate_failures.empty()) {
    const std::size_t failed = candidate.gate_failures.size();
    const std::size_t evaluated = candidate.gates.empty() ? failed : candidate.gates.size();
    out += "\n**Gates:** " + std::to_string(evaluated - failed) + " of " + std::to_string(evaluated) + " passed";
    if (failed > 0) {
      out += "; failed:\n\n";
      for (const auto& failure : candidate.gate_failures) {
        out += "- ❌ **" + escape_markdown(failure.gate) + "**" +
               (failure.detail.empty() ? "" : ": " + escape_markdown(failure.detail)) + "\n";
      }
    } else {
      out += ".\n";
    }
  }
  if (!candidate.resolved && !candidate.resolution_note.empty())
    out += "\n**Resolution:** ⚠️ " + escape_markdown(resolution_text(candidate)) + "\n";
  if (candidate.resolved) {
    out += "\n**Resolution:** " + escape_markdown(resolution_text(candidate)) + " (acceptance tests: ";
    for (std::size_t index = 0; index < candidate.acceptance_tests.size(); ++index)
      out += (index ? ", " : "") + escape_markdown(candidate.acceptance_tests[index]);
    out += ")\n";
  }
  if (!candidate.anti_gaming.empty()) {
    out += "\n**Anti-gaming findings:**\n\n";
    for (const auto& line : candidate.anti_gaming) out += "- ⚠️ " + escape_markdown(line) + "\n";
  }
  if (!candidate.sandbox.empty()) out += "\n**Protection while its code ran:** " + escape_markdown(candidate.sandbox) + "\n";
  if (!candidate.caches.empty()) out += "\n**Capture caches:** " + escape_markdown(candidate.caches) + "\n";
  if (!candidate.retried_alone.empty())
    out += "\n**Captured again alone:** " + escape_markdown(candidate.retried_alone) + "\n";
  append_findings(out, "New lint findings", candidate.introduced_findings, candidate.introduced_findings_omitted);
  append_findings(out, "Resolved lint findings", candidate.resolved_findings, candidate.resolved_findings_omitted);
  append_tests(out, "Regressed tests", candidate.regressed_tests, candidate.regressed_tests_omitted);
  append_tests(out, "Dropped tests", candidate.dropped_tests, candidate.dropped_tests_omitted);
  append_tests(out, "Added tests", candidate.added_tests, candidate.added_tests_omitted);
}

}  // namespace

std::string render_markdown(const nlohmann::json& contract) {
  const ContractView view = read_contract(contract);
  std::string out = "## HydraScore ranking\n\n" + alerts_markdown(view.alerts);
  std::vector<std::string> facts;
  if (!view.run_id.empty()) facts.push_back("Run " + escape_markdown(view.run_id));
  if (!view.engine_version.empty()) facts.push_back("HydraScore " + escape_markdown(view.engine_version));
  if (view.baseline) facts.push_back(escape_markdown(baseline_sentence(*view.baseline)));
  for (std::size_t index = 0; index < facts.size(); ++index) out += (index > 0 ? " · " : "") + facts[index];
  if (!facts.empty()) out += "\n\n";
  out += nothing_measured_markdown(view);

  if (view.candidates.empty()) return out + "No candidates were scored.\n";

  out += "| # | Agent | Total |";
  std::string rule = "|--:|:--|--:|";
  for (const auto& name : view.dimension_names) {
    out += " " + dimension_label(name) + " |";
    rule += "--:|";
  }
  if (view.has_resolution) {
    out += " Resolved |";
    rule += ":--|";
  }
  out += " Mergeable |\n" + rule + ":--|\n";
  for (const auto& candidate : view.candidates) {
    out += "| " + std::to_string(candidate.rank) + " | " + escape_markdown(candidate.agent) + " | **" +
           format_optional(candidate.total) + "** |";
    for (const auto& name : view.dimension_names) {
      const DimensionView* dimension = find_dimension(candidate, name);
      const bool active = dimension != nullptr && dimension->active && dimension->score;
      out += " " + (active ? format_number(*dimension->score) : std::string("-")) + " |";
    }
    if (view.has_resolution)
      out += !candidate.resolved ? (candidate.resolution_note.empty() ? " - |" : " ⚠️ no verdict |")
             : *candidate.resolved ? " ✅ yes |"
                                   : " ❌ no |";
    out += candidate.mergeable ? " ✅ yes |\n" : " ❌ no |\n";
  }

  bool any_failure = false;
  for (const auto& candidate : view.candidates) any_failure = any_failure || !candidate.gate_failures.empty();
  if (any_failure) {
    out += "\n### Gate failures\n\n";
    for (const auto& candidate : view.candidates) {
      if (candidate.gate_failures.empty()) continue;
      out += "- **" + escape_markdown(candidate.agent) + "**\n";
      for (const auto& failure : candidate.gate_failures) {
        out += "  - ❌ " + escape_markdown(failure.gate) +
               (failure.detail.empty() ? "" : ": " + escape_markdown(failure.detail)) + "\n";
      }
    }
  }

  out += flaky_tests_markdown(contract);
  out += "\n## Candidates\n";
  for (const auto& candidate : view.candidates) append_candidate(out, candidate);
  return out;
}

}  // namespace hydra::report
