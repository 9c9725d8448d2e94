// SARIF 2.1.0 of the lint findings each candidate introduced.
#include <hydra/report/report.hpp>

#include <hydra/report/contract.hpp>
#include <hydra/report/alerts.hpp>
#include <hydra/report/measured.hpp>
#include <hydra/report/flaky.hpp>

#include <algorithm>
#include <map>
#include <set>
#include <vector>

namespace hydra::report {

namespace {

using nlohmann::json;

/// Tools that always get a run, so that uploading a clean result closes the
/// alerts an earlier upload opened.
const std::vector<std::string>& standard_tools() {
  static const std::vector<std::string> tools{"clang-tidy", "compiler"};
  return tools;
}

std::string information_uri(const std::string& tool) {
  if (tool == "clang-tidy") return "https://clang.llvm.org/extra/clang-tidy/";
  if (tool == "compiler") return "https://gcc.gnu.org/onlinedocs/gcc/Warning-Options.html";
  return "";
}

/// Percent-encodes every byte outside RFC 3986's unreserved set, keeping '/'
/// (and ':' when `keep_colon`, for a drive letter).
std::string percent_encode(const std::string& path, bool keep_colon) {
  static constexpr char hex[] = "0123456789ABCDEF";
  std::string out;
  for (const char c : path) {
    const auto byte = static_cast<unsigned char>(c);
    const bool unreserved = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
                            c == '-' || c == '.' || c == '_' || c == '~' || c == '/' || (keep_colon && c == ':');
    if (unreserved) {
      out += c;
    } else {
      out += '%';
      out += hex[byte >> 4];
      out += hex[byte & 0x0F];
    }
  }
  return out;
}

/// The artifactLocation of `file`: relative paths against %SRCROOT%,
/// absolute ones (POSIX or with a drive letter) as file:// URIs.
json artifact_location(std::string file) {
  for (auto& c : file) {
    if (c == '\\') c = '/';
  }
  const bool drive_letter = file.size() >= 3 && file[1] == ':' && file[2] == '/' &&
                            ((file[0] >= 'A' && file[0] <= 'Z') || (file[0] >= 'a' && file[0] <= 'z'));
  if (!file.empty() && file[0] == '/') return {{"uri", "file://" + percent_encode(file, false)}};
  if (drive_letter) return {{"uri", "file:///" + percent_encode(file, true)}};
  while (file.rfind("./", 0) == 0) file.erase(0, 2);
  return {{"uri", percent_encode(file, false)}, {"uriBaseId", "%SRCROOT%"}};
}

/// Where clang-tidy documents check `id` (checks/<group>/<name>.html), or ""
/// for compiler diagnostics and ids that are not checks.
std::string clang_tidy_check_uri(const std::string& id) {
  if (id.rfind("clang-diagnostic-", 0) == 0 || id.rfind("clang-tidy-", 0) == 0) return "";
  const std::string analyzer = "clang-analyzer-";
  std::string group;
  std::string name;
  if (id.rfind(analyzer, 0) == 0) {
    group = "clang-analyzer";
    name = id.substr(analyzer.size());
  } else if (const auto dash = id.find('-'); dash != std::string::npos && dash > 0) {
    group = id.substr(0, dash);
    name = id.substr(dash + 1);
  }
  if (group.empty() || name.empty()) return "";
  return "https://clang.llvm.org/extra/clang-tidy/checks/" + percent_encode(group, false) + "/" +
         percent_encode(name, false) + ".html";
}

/// The rule id of `finding`: its first check, or "<tool>-<severity>" when it has none.
std::string rule_id(const FindingView& finding) {
  return finding.checks.empty() ? finding.tool + "-" + finding.severity : finding.checks.front();
}

struct PendingResult {
  const FindingView* finding;
  const CandidateView* candidate;
};

json make_result(const PendingResult& pending, std::size_t rule_index) {
  const FindingView& finding = *pending.finding;
  json result = {
      {"ruleId", rule_id(finding)},
      {"ruleIndex", rule_index},
      {"level", finding.severity == "error" ? "error" : "warning"},
      {"message", {{"text", finding.message.empty() ? rule_id(finding) : finding.message}}},
      {"properties", {{"hydraAgent", pending.candidate->agent}, {"hydraRank", pending.candidate->rank}}},
  };
  if (finding.checks.size() > 1) result["properties"]["hydraChecks"] = finding.checks;
  if (!finding.fingerprint.empty()) result["partialFingerprints"] = {{"hydraFingerprint/v1", finding.fingerprint}};
  if (!finding.file.empty()) {
    json physical = {{"artifactLocation", artifact_location(finding.file)}};
    if (finding.line > 0) {
      physical["region"] = {{"startLine", finding.line}};
      if (finding.column > 0) physical["region"]["startColumn"] = finding.column;
    }
    result["locations"] = json::array({{{"physicalLocation", physical}}});
  }
  return result;
}

/// The version of `tool` the runs recorded: the first candidate's (in
/// ranking order) that has one, else the baseline's; empty when none did.
std::string tool_version(const std::string& tool, const ContractView& view) {
  for (const auto& candidate : view.candidates)
    if (const auto found = candidate.tools.find(tool); found != candidate.tools.end()) return found->second;
  if (view.baseline)
    if (const auto found = view.baseline->tools.find(tool); found != view.baseline->tools.end()) return found->second;
  return {};
}

/// The first word of `version` that starts with a digit ("14.0.6" of
/// "Debian LLVM version 14.0.6"), or empty.
std::string numeric_version(const std::string& version) {
  std::size_t start = 0;
  while (start < version.size()) {
    const std::size_t end = std::min(version.find(' ', start), version.size());
    if (end > start && version[start] >= '0' && version[start] <= '9') return version.substr(start, end - start);
    start = end + 1;
  }
  return {};
}

/// At most this many results per run: GitHub code scanning takes no more.
constexpr std::size_t max_results_per_run = 25000;

json make_run(const std::string& tool, std::vector<PendingResult> pending, const ContractView& view) {
  // Those beyond the limit are counted in the run's properties.
  std::uint64_t omitted = 0;
  if (pending.size() > max_results_per_run) {
    omitted = pending.size() - max_results_per_run;
    pending.resize(max_results_per_run);
  }
  std::set<std::string> rule_ids;
  for (const auto& item : pending) rule_ids.insert(rule_id(*item.finding));
  std::map<std::string, std::size_t> rule_index;
  json rules = json::array();
  for (const auto& id : rule_ids) {
    rule_index[id] = rules.size();
    json rule = {{"id", id}, {"shortDescription", {{"text", id}}}};
    if (tool == "clang-tidy") {
      if (const auto uri = clang_tidy_check_uri(id); !uri.empty()) rule["helpUri"] = uri;
    }
    rules.push_back(std::move(rule));
  }
  json driver = {{"name", tool}, {"rules", rules}};
  if (const auto version = tool_version(tool, view); !version.empty()) {
    // SARIF consumers compare versions that start with a number ("14.0.6");
    // the tool's own words go in fullName ("Debian LLVM version 14.0.6").
    driver["fullName"] = version;
    if (const auto number = numeric_version(version); !number.empty()) driver["version"] = number;
  }
  if (const auto uri = information_uri(tool); !uri.empty()) driver["informationUri"] = uri;
  json results = json::array();
  for (const auto& item : pending) results.push_back(make_result(item, rule_index.at(rule_id(*item.finding))));
  json run = {
      {"tool", {{"driver", driver}}},
      {"originalUriBaseIds",
       {{"%SRCROOT%", {{"description", {{"text", "The root of the scored source tree."}}}}}}},
      {"results", results},
  };
  if (json invocations = nothing_measured_sarif(view); !invocations.is_null()) run["invocations"] = std::move(invocations);
  if (json alerts = alerts_sarif_notifications(view.alerts); !alerts.empty()) {
    // Alerts first among the notifications (alerts.hpp).
    if (!run.contains("invocations"))
      run["invocations"] = json::array({{{"executionSuccessful", true}, {"toolExecutionNotifications", json::array()}}});
    json& notifications = run["invocations"][0]["toolExecutionNotifications"];
    alerts.insert(alerts.end(), notifications.begin(), notifications.end());
    notifications = std::move(alerts);
  }
  json properties = json::object();
  if (!view.run_id.empty()) properties["hydraRunId"] = view.run_id;
  if (!view.engine_version.empty()) properties["hydraEngineVersion"] = view.engine_version;
  if (omitted > 0) properties["hydraOmittedResults"] = omitted;
  if (!properties.empty()) run["properties"] = properties;
  return run;
}

}  // namespace

std::string render_sarif(const nlohmann::json& contract) {
  const ContractView view = read_contract(contract);
  std::map<std::string, std::vector<PendingResult>> by_tool;
  for (const auto& tool : standard_tools()) by_tool[tool];
  for (const auto& candidate : view.candidates) {
    for (const auto& finding : candidate.introduced_findings) by_tool[finding.tool].push_back({&finding, &candidate});
  }
  json runs = json::array();
  for (const auto& tool : standard_tools()) runs.push_back(make_run(tool, by_tool[tool], view));
  for (const auto& [tool, pending] : by_tool) {  // std::map: other tools by name
    bool standard = false;
    for (const auto& known : standard_tools()) standard = standard || known == tool;
    if (!standard) runs.push_back(make_run(tool, pending, view));
  }
  json sarif = {
      {"$schema", "https://json.schemastore.org/sarif-2.1.0.json"},
      {"version", "2.1.0"},
      {"runs", runs},
  };
  // Before the runs (keys in order): code that ran unconfined or with network.
  if (!view.alerts.empty()) sarif["properties"]["hydraAlerts"] = view.alerts;
  // New findings the score contract did not list (it lists at most 25,000
  // per candidate), so no run here can hold them.
  std::uint64_t unlisted = 0;
  for (const auto& candidate : view.candidates) unlisted += candidate.introduced_findings_omitted;
  if (unlisted > 0) sarif["properties"]["hydraUnlistedFindings"] = unlisted;
  // Tests that failed and passed on the same code (docs/reports.md).
  if (auto flaky = flaky_tests_sarif_properties(contract); !flaky.empty()) sarif["properties"]["hydraFlakyTests"] = flaky;
  return sarif.dump(2, ' ', false, json::error_handler_t::replace) + "\n";
}

}  // namespace hydra::report
