#include <hydra/pipeline/scoring.hpp>

#include <hydra/pipeline/evaluate.hpp>

#include <map>
#include <set>
#include <sstream>

#include <hydra/error.hpp>
#include <hydra/parse/json_error.hpp>
#include <hydra/pipeline/run_dir.hpp>
#include <hydra/pipeline/signals.hpp>
#include <hydra/util/files.hpp>

namespace hydra::pipeline {
namespace fs = std::filesystem;
using nlohmann::json;

json score_runs(const ScoreRequest& request) { return evaluate(request).contract; }

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
  json contract = parse::parse_json_document(stored, run_or_score.string());
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
