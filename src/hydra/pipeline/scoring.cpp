#include <hydra/pipeline/scoring.hpp>

#include <map>
#include <set>
#include <sstream>

#include <hydra/config/config.hpp>
#include <hydra/error.hpp>
#include <hydra/guard/guard.hpp>
#include <hydra/parse/diff_lines.hpp>
#include <hydra/pipeline/run_dir.hpp>
#include <hydra/pipeline/signals.hpp>
#include <hydra/score/contract.hpp>
#include <hydra/score/score.hpp>
#include <hydra/util/files.hpp>

namespace hydra::pipeline {
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

/// Runs the anti-gaming detectors on a candidate's change against the
/// baseline (docs/threat-model.md) and records what scoring needs.
model::Tampering detect_tampering(const config::Config& config, const fs::path& candidate_dir,
                                  const model::Run& baseline, const model::Run& candidate) {
  model::Tampering tampering;
  const fs::path diff_file = candidate_dir / "diff.patch";
  if (!fs::is_regular_file(diff_file)) return tampering;
  const parse::DiffLines diff = parse::parse_diff_lines(util::read_file(diff_file), diff_file.string());
  guard::TreeRoots roots;
  const json baseline_manifest = read_manifest(baseline.path);
  const json candidate_manifest = read_manifest(candidate_dir);
  roots.baseline_source = baseline_manifest.value("source_root", std::string());
  roots.candidate_source = candidate_manifest.value("source_root", std::string());
  roots.baseline_build = baseline_manifest.value("build_dir", std::string());
  roots.candidate_build = candidate_manifest.value("build_dir", std::string());
  // Test definitions and results are compared only when ctest listed the
  // candidate's tests: a build that failed before ctest ran has dropped
  // nothing on purpose (the build and tests dimensions already score it).
  const bool candidate_listed = fs::is_regular_file(candidate_dir / "ctest.json");
  const std::vector<model::TestDefinition> none;
  const guard::Report report = guard::analyze(
      config.anti_gaming, diff, candidate_listed ? baseline.test_definitions : none,
      candidate_listed ? candidate.test_definitions : none,
      candidate_listed && baseline.tests ? &*baseline.tests : nullptr,
      candidate_listed && candidate.tests ? &*candidate.tests : nullptr, roots);
  tampering.analyzed = true;
  for (const auto& edit : report.config_edits) tampering.config_edits.push_back(edit.path);
  tampering.suppressions_added = report.suppressions_added.size();
  tampering.assertions_removed = report.assertions_removed.size();
  std::set<std::string> tampered;
  for (const auto& test : report.tests_tampered)
    if (test.kind != guard::TamperKind::dropped) tampered.insert(test.name);
  tampering.tampered_tests = tampered.size();
  if (config.anti_gaming.fail_gate_on_tampering && guard::has_tampering(report)) {
    for (const auto& edit : report.config_edits)
      tampering.gate_reasons.push_back("edits protected configuration " + edit.path + " (" + edit.change + ")");
    for (const auto& test : report.tests_tampered)
      tampering.gate_reasons.push_back("test " + test.name + ": " + std::string(guard::to_string(test.kind)) +
                                       (test.detail.empty() ? "" : " (" + test.detail + ")"));
    for (const auto& line : report.tests_not_built) tampering.gate_reasons.push_back("tests not built: " + line);
  }
  tampering.evidence = guard::to_json(report);
  return tampering;
}

}  // namespace

json score_runs(const ScoreRequest& request) {
  if (request.candidates.empty()) throw UsageError("score needs at least one --candidate");
  config::Config config;
  std::string config_source;
  if (request.config) {
    config = config::load(*request.config);
    config_source = request.config->generic_string();
  } else if (fs::is_regular_file(request.baseline / "hydra.toml")) {
    config = load_config(request.baseline);
    config_source = "baseline";
  } else {
    config_source = "defaults";
  }
  const model::Run baseline = load(request.baseline, config);
  std::vector<model::Run> candidates;
  std::map<std::string, std::string> agents;
  for (const auto& path : request.candidates) {
    model::Run candidate = load(path, config);
    candidate.tampering = detect_tampering(config, path, baseline, candidate);
    candidate.path = path.generic_string();
    if (auto [it, inserted] = agents.emplace(candidate.agent, candidate.path); !inserted)
      throw UsageError("two candidates are named \"" + candidate.agent + "\": " + it->second + " and " +
                       candidate.path + " (record them with distinct --agent names)");
    candidates.push_back(std::move(candidate));
  }
  model::Run baseline_for_contract = baseline;
  baseline_for_contract.path = request.baseline.generic_string();
  const score::Ranking ranking = score::rank(config, baseline_for_contract, candidates);
  json contract = score::to_contract(config, baseline_for_contract, ranking);
  json inputs = {{"baseline", request.baseline.generic_string()},
                 {"candidates", json::array()},
                 {"config", config_source}};
  for (const auto& path : request.candidates) inputs["candidates"].push_back(path.generic_string());
  contract["inputs"] = inputs;
  return contract;
}

std::string contract_text(const json& contract) { return contract.dump(2) + "\n"; }

bool top_candidate_mergeable(const json& contract) {
  const auto& rankings = contract.at("rankings");
  return !rankings.empty() && rankings.front().value("mergeable", false);
}

namespace {

std::string first_difference(const std::string& expected, const std::string& actual) {
  std::istringstream a(expected), b(actual);
  std::string line_a, line_b;
  for (int line = 1;; ++line) {
    const bool more_a = static_cast<bool>(std::getline(a, line_a));
    const bool more_b = static_cast<bool>(std::getline(b, line_b));
    if (!more_a && !more_b) return "identical";
    if (!more_a || !more_b || line_a != line_b) {
      return "line " + std::to_string(line) + ": stored `" + (more_a ? line_a : "<end>") +
             "`, replayed `" + (more_b ? line_b : "<end>") + "`";
    }
  }
}

fs::path resolve(const std::string& recorded, const fs::path& score_file) {
  const fs::path path(recorded);
  if (path.is_absolute() || fs::exists(path)) return path;
  const fs::path beside = score_file.parent_path() / path;
  if (fs::exists(beside)) return beside;
  throw InputError(score_file.string(), "recorded input \"" + recorded + "\" not found (tried the current "
                                        "directory and the score file's directory)");
}

}  // namespace

ReplayResult replay(const fs::path& run_or_score) {
  ReplayResult result;
  if (fs::is_directory(run_or_score)) {
    verify_seal(run_or_score);
    const json manifest = read_manifest(run_or_score);
    const std::string stored = util::read_file(run_or_score / "signals.json");
    const model::Run run = parse_artifacts(run_or_score, manifest, json::object());
    const std::string replayed = signals_json(run).dump(2) + "\n";
    result.matches = stored == replayed;
    result.detail = result.matches ? "signals.json re-derived byte for byte"
                                   : "signals.json differs: " + first_difference(stored, replayed);
    return result;
  }
  const std::string stored = util::read_file(run_or_score);
  json contract;
  try {
    contract = json::parse(stored);
  } catch (const json::parse_error& error) {
    const auto at = util::position_of(stored, error.byte > 0 ? error.byte - 1 : 0);
    throw InputError(run_or_score.string(), std::string("malformed JSON: ") + error.what(), at.line, at.column);
  }
  if (!contract.is_object() || !contract.contains("inputs") || !contract["inputs"].is_object())
    throw InputError(run_or_score.string(), "not a hydra-score score file (no \"inputs\")");
  const json& inputs = contract["inputs"];
  ScoreRequest request;
  try {
    request.baseline = resolve(inputs.at("baseline").get<std::string>(), run_or_score);
    for (const auto& candidate : inputs.at("candidates"))
      request.candidates.push_back(resolve(candidate.get<std::string>(), run_or_score));
    const std::string config_source = inputs.at("config").get<std::string>();
    if (config_source != "baseline" && config_source != "defaults")
      request.config = resolve(config_source, run_or_score);
  } catch (const json::exception& error) {
    throw InputError(run_or_score.string(), std::string("malformed \"inputs\": ") + error.what());
  }
  json replayed = score_runs(request);
  // Paths are re-recorded as resolved; compare them as they were recorded.
  replayed["inputs"] = inputs;
  if (replayed.contains("baseline") && contract.contains("baseline") && contract["baseline"].contains("path"))
    replayed["baseline"]["path"] = contract["baseline"]["path"];
  if (replayed.contains("rankings") && contract.contains("rankings") &&
      replayed["rankings"].size() == contract["rankings"].size()) {
    for (std::size_t i = 0; i < replayed["rankings"].size(); ++i) {
      auto& run = replayed["rankings"][i]["run"];
      const auto& stored_run = contract["rankings"][i].value("run", json::object());
      if (run.is_object() && stored_run.contains("path") && run.value("digest", "") == stored_run.value("digest", ""))
        run["path"] = stored_run["path"];
    }
  }
  const std::string replayed_text = contract_text(replayed);
  result.matches = replayed_text == stored;
  result.detail = result.matches ? "re-scored byte for byte" : first_difference(stored, replayed_text);
  return result;
}

}  // namespace hydra::pipeline
