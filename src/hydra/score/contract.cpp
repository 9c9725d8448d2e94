#include <hydra/score/contract.hpp>
#include <hydra/score/test_comparison.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <vector>

#include <hydra/score/confinement.hpp>
#include <hydra/score/measured.hpp>
#include <hydra/parse/test_attempts.hpp>
#include <hydra/util/sha256.hpp>
#include <hydra/version.hpp>

namespace hydra::score {

namespace {

using nlohmann::json;

json weights_json(const config::Weights& weights) {
  return {{"build", weights.build},         {"tests", weights.tests},
          {"lint", weights.lint},           {"diff_scope", weights.diff_scope},
          {"speed", weights.speed},         {"judge", weights.judge}};
}

json baseline_summary(const config::Config& config, const model::Run& baseline) {
  json summary;
  const auto& build = baseline.build;
  summary["build"] = {{"known", build.known},
                      {"passed", build.passed},
                      {"exit_code", build.exit_code},
                      {"seconds", build.seconds}};
  if (!build.no_step.empty()) summary["build"]["no_step"] = build.no_step;

  if (baseline.tests) {
    std::uint64_t passed = 0;
    std::uint64_t failed = 0;
    std::uint64_t skipped = 0;
    for (const auto& test : *baseline.tests) {
      switch (test.status) {
        case model::TestStatus::passed: ++passed; break;
        case model::TestStatus::failed:
        case model::TestStatus::error: ++failed; break;
        case model::TestStatus::skipped:
        case model::TestStatus::disabled: ++skipped; break;
      }
    }
    summary["tests"] = {{"total", baseline.tests->size()},
                        {"passed", passed},
                        {"failed", failed},
                        {"skipped", skipped},
                        {"flaky", std::count_if(baseline.tests->begin(), baseline.tests->end(), parse::is_flaky)}};
    // Cases of framework programs: the same tests at program level.
    if (baseline.program_tests) {
      const TestCounts programs = count_tests(baseline.program_tests);
      std::uint64_t with_cases = 0;
      for (const auto& program : baseline.test_programs) with_cases += program.report == "read" ? 1 : 0;
      if (with_cases > 0)
        summary["tests"]["programs"] = {{"total", baseline.program_tests->size()},
                                        {"passed", programs.passed},
                                        {"with_cases", with_cases}};
    }
  } else {
    summary["tests"] = nullptr;
  }

  if (baseline.lint) {
    std::uint64_t errors = 0;
    std::uint64_t warnings = 0;
    for (const auto& finding : counted_findings(config, *baseline.lint)) {
      (finding.severity() == model::Severity::error ? errors : warnings) += 1;
    }
    summary["lint"] = {{"errors", errors}, {"warnings", warnings}};
    if (baseline.lint_units) summary["lint"]["units"] = *baseline.lint_units;
  } else {
    summary["lint"] = nullptr;
  }
  return summary;
}

/// The ranking's flaky tests (`flaky_tests`, cut like the candidates' lists).
void add_ranking_flaky_tests(json& contract, const Ranking& ranking) {
  std::vector<const std::vector<FlakyTest>*> pairings;
  for (const auto& candidate : ranking.candidates) pairings.push_back(&candidate.test_changes.flaky);
  const std::vector<FlakyTest> flaky = ranking_flaky_tests(pairings);
  json list = json::array();
  for (std::size_t index = 0; index < flaky.size() && index < max_listed_entries; ++index)
    list.push_back(to_json(flaky[index]));
  contract["flaky_tests"] = std::move(list);
  if (flaky.size() > max_listed_entries) contract["flaky_tests_omitted"] = flaky.size() - max_listed_entries;
}

/// The agent's reported metrics, known keys only (docs/parsers.md, "Agent metrics").
json metrics_json(const model::AgentMetrics& metrics) {
  json out = json::object();
  const auto put = [&](const char* key, const std::optional<double>& value) {
    if (value) out[key] = *value;
  };
  put("tokens", metrics.tokens);
  put("input_tokens", metrics.input_tokens);
  put("output_tokens", metrics.output_tokens);
  put("cost_usd", metrics.cost_usd);
  put("tool_calls", metrics.tool_calls);
  put("steps", metrics.steps);
  put("wall_clock_ms", metrics.wall_clock_ms);
  put("duration_seconds", metrics.duration_seconds);
  return out;
}

json candidate_json(const Candidate& candidate, std::size_t rank) {
  json breakdown = json::object();
  json dimensions = json::object();
  json effective_weights = json::object();
  util::Exact active_weights;
  for (const auto& dimension : candidate.dimensions) {
    if (dimension.active) active_weights += dimension.weight;
  }
  for (const auto& dimension : candidate.dimensions) {
    // Scores are exact; the contract shows them rounded to 2 decimals.
    const json score = dimension.active ? json(shown(dimension.score)) : json(nullptr);
    breakdown[dimension.name] = score;
    json entry = {{"active", dimension.active},
                  {"score", score},
                  {"weight", dimension.weight},
                  {"evidence", dimension.evidence}};
    // Inactive: why. Active and scored 0 as unmeasured: why it could not be measured.
    if (!dimension.active || !dimension.inactive_reason.empty()) entry["reason"] = dimension.inactive_reason;
    if (dimension.nothing_measured) entry["nothing_measured"] = true;
    dimensions[dimension.name] = std::move(entry);
    if (dimension.active && active_weights.sign() > 0) {
      effective_weights[dimension.name] = (dimension.weight / active_weights).rounded(6).to_double();
    }
  }

  json gates = json::array();
  json gate_failures = json::array();
  for (const auto& gate : candidate.gates) {
    gates.push_back({{"gate", gate.name}, {"passed", gate.passed}, {"detail", gate.detail}});
    if (!gate.passed) gate_failures.push_back({{"gate", gate.name}, {"detail", gate.detail}});
  }

  // Each list is cut at max_listed_entries; `section["<list>_omitted"]` counts the rest.
  auto list_into = [](json& section, const char* key, const auto& items) {
    json list = json::array();
    const std::size_t listed = std::min(items.size(), max_listed_entries);
    for (std::size_t index = 0; index < listed; ++index) list.push_back(to_json(items[index]));
    section[key] = std::move(list);
    if (items.size() > listed) section[std::string(key) + "_omitted"] = items.size() - listed;
  };
  json tests = json::object();
  list_into(tests, "regressed", candidate.test_changes.regressed);
  list_into(tests, "dropped", candidate.test_changes.dropped);
  list_into(tests, "added", candidate.test_changes.added);
  list_into(tests, "flaky", candidate.test_changes.flaky);
  list_into(tests, "duplicates", candidate.test_changes.duplicates);
  json lint = json::object();
  list_into(lint, "introduced", candidate.lint_changes.introduced);
  list_into(lint, "resolved", candidate.lint_changes.resolved);

  json result = {
      {"rank", rank},
      {"agent", candidate.agent},
      {"run",
       {{"path", candidate.run_path},
        {"digest", candidate.run_digest},
        {"sandbox", candidate.sandbox},
        {"tools", candidate.tools}}},
      {"mergeable", candidate.mergeable},
      {"total", shown(candidate.total)},
      {"breakdown", std::move(breakdown)},
      {"effective_weights", std::move(effective_weights)},
      {"dimensions", std::move(dimensions)},
      {"gates", std::move(gates)},
      {"gate_failures", std::move(gate_failures)},
      {"anti_gaming", candidate.anti_gaming},
      {"tests", std::move(tests)},
      {"lint", std::move(lint)},
  };
  // Only with a private test patch, so other contracts keep their bytes;
  // with one, every candidate has a verdict or the note that says why not.
  if (candidate.resolution.applies)
    result["resolution"] = {{"resolved", candidate.resolution.resolved()},
                            {"acceptance_tests", candidate.resolution.acceptance_tests},
                            {"still_failing", candidate.resolution.still_failing}};
  else if (candidate.resolution.configured)
    result["resolution"] = {{"resolved", nullptr},
                            {"acceptance_tests", json::array()},
                            {"still_failing", json::array()},
                            {"note", candidate.resolution.note}};
  if (!candidate.caches.empty()) result["run"]["caches"] = candidate.caches;
  // Only when it ran unconfined or with network, so other contracts keep their bytes.
  if (candidate.sandboxed && !*candidate.sandboxed) result["run"]["unconfined"] = true;
  if (candidate.network) result["run"]["network"] = true;
  if (!candidate.retried_alone.empty()) result["run"]["retried_alone"] = candidate.retried_alone;
  // Only when there is something to say, so runs without repairs keep their output.
  if (!candidate.input_notes.empty()) result["run"]["input_notes"] = candidate.input_notes;
  // Only when named or reported, so other contracts keep their bytes (the results store reads them).
  if (!candidate.task.empty()) result["run"]["task"] = candidate.task;
  if (json metrics = metrics_json(candidate.metrics); !metrics.empty()) result["run"]["metrics"] = std::move(metrics);
  return result;
}

}  // namespace

std::string run_id(const std::string& config_digest, const model::Run& baseline,
                   const Ranking& ranking) {
  std::vector<const Candidate*> in_input_order;
  for (const auto& candidate : ranking.candidates) in_input_order.push_back(&candidate);
  std::stable_sort(in_input_order.begin(), in_input_order.end(),
                   [](const Candidate* left, const Candidate* right) {
                     return left->input_index < right->input_index;
                   });
  util::Sha256 hash;
  hash.update(std::string(engine_version) + "\n");
  hash.update(config_digest + "\n");
  hash.update(baseline.digest + "\n");
  for (const auto* candidate : in_input_order) hash.update(candidate->run_digest + "\n");
  return hash.hex_digest().substr(0, 16);
}

nlohmann::json to_contract(const config::Config& config, const model::Run& baseline,
                           const Ranking& ranking) {
  const std::string config_digest = config::digest(config);
  json rankings = json::array();
  for (std::size_t index = 0; index < ranking.candidates.size(); ++index) {
    rankings.push_back(candidate_json(ranking.candidates[index], index + 1));
  }
  json baseline_json = {{"agent", baseline.agent},
                        {"path", baseline.path},
                        {"digest", baseline.digest},
                        {"tools", baseline.tools},
                        {"summary", baseline_summary(config, baseline)}};
  if (!baseline.recaptured.empty()) baseline_json["recaptured"] = baseline.recaptured;
  // What the default task of the results store is made of (store/contract_rows.hpp).
  if (!baseline.commit.empty()) baseline_json["commit"] = baseline.commit;
  if (!baseline.source_root.empty())
    baseline_json["project"] = std::filesystem::path(baseline.source_root).filename().string();
  if (!baseline.task.empty()) baseline_json["task"] = baseline.task;
  if (baseline.sandboxed && !*baseline.sandboxed) baseline_json["unconfined"] = true;
  if (baseline.network) baseline_json["network"] = true;
  if (!baseline.retried_alone.empty()) baseline_json["retried_alone"] = baseline.retried_alone;
  json contract = {
      {"schema", contract_schema},
      {"engine_version", engine_version},
      {"run_id", run_id(config_digest, baseline, ranking)},
      {"config_digest", config_digest},
      {"config", config::to_json(config)},
      {"weights", weights_json(config.weights)},
      {"baseline", std::move(baseline_json)},
      {"rankings", std::move(rankings)},
  };
  // Only when something measured nothing, so other contracts keep their bytes.
  if (auto lines = nothing_measured(baseline, ranking); !lines.empty()) contract["nothing_measured"] = lines;
  // "alerts" sorts first: a reader of the JSON meets them before anything else.
  std::vector<std::string> alerts = sandbox_warnings(baseline, ranking);
  if (std::string line = configure_differential_warning(baseline); !line.empty()) alerts.push_back(std::move(line));
  if (!alerts.empty()) contract["alerts"] = alerts;
  add_ranking_flaky_tests(contract, ranking);
  return contract;
}

}  // namespace hydra::score
