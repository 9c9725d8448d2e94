#include <hydra/pipeline/evaluate.hpp>

#include <algorithm>
#include <map>
#include <optional>
#include <set>

#include <hydra/error.hpp>
#include <hydra/guard/guard.hpp>
#include <hydra/guard/held_out.hpp>
#include <hydra/guard/process_references.hpp>
#include <hydra/guard/test_levels.hpp>
#include <hydra/guard/test_recipes.hpp>
#include <hydra/parse/diff_lines.hpp>
#include <hydra/pipeline/run_dir.hpp>
#include <hydra/score/contract.hpp>
#include <hydra/util/files.hpp>

namespace hydra::pipeline {
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

/// Runs the anti-gaming detectors on a candidate's change against the
/// baseline (docs/threat-model.md) and records what scoring needs.
/// The shadowing headers (manifest.json's `shadowing_headers`, recorded by
/// the test step) of `candidate_dir` that the baseline's run does not list:
/// header -> the system header it shadows.
std::map<std::string, std::string> new_shadowing_headers(const fs::path& baseline_dir, const fs::path& candidate_dir) {
  const auto listed = [](const fs::path& run) {
    std::map<std::string, std::string> headers;
    std::error_code error;
    if (!fs::is_regular_file(run / "manifest.json", error)) return headers;
    const json manifest = json::parse(util::read_file(run / "manifest.json"), nullptr, false);
    if (!manifest.is_object() || !manifest.contains("shadowing_headers") || !manifest["shadowing_headers"].is_array())
      return headers;
    for (const auto& entry : manifest["shadowing_headers"])
      if (entry.is_object() && entry.value("header", json()).is_string() && entry.value("shadows", json()).is_string())
        headers.emplace(entry["header"].get<std::string>(), entry["shadows"].get<std::string>());
    return headers;
  };
  std::map<std::string, std::string> fresh = listed(candidate_dir);
  for (const auto& [header, shadows] : listed(baseline_dir)) fresh.erase(header);
  return fresh;
}

/// The changed files (diff paths) the candidate's build compiled or
/// included, whatever their names (manifest.json's
/// `lint_view.compiled_changed_files`, recorded by the lint step).
std::set<std::string> compiled_changed_files(const fs::path& candidate_dir) {
  std::set<std::string> files;
  std::error_code error;
  if (!fs::is_regular_file(candidate_dir / "manifest.json", error)) return files;
  const json manifest = json::parse(util::read_file(candidate_dir / "manifest.json"), nullptr, false);
  if (!manifest.is_object() || !manifest.contains("lint_view") || !manifest["lint_view"].is_object()) return files;
  const json& listed = manifest["lint_view"].value("compiled_changed_files", json::array());
  if (!listed.is_array()) return files;
  for (const auto& file : listed)
    if (file.is_string()) files.insert(file.get<std::string>());
  return files;
}

/// manifest.json's `object_references` of `run` (capture/cmake/object_references.hpp);
/// nullopt when the run recorded none or could not read its objects.
std::optional<guard::ObjectReferences> recorded_object_references(const fs::path& run) {
  std::error_code error;
  const fs::path file = run / "manifest.json";
  if (!fs::is_regular_file(file, error)) return std::nullopt;
  const json manifest = json::parse(util::read_file(file), nullptr, false);
  if (!manifest.is_object() || !manifest.contains("object_references")) return std::nullopt;
  const json& record = manifest["object_references"];
  if (!record.is_object()) throw InputError(file.string(), "object_references must be an object");
  if (!record.contains("sources")) return std::nullopt;  // {"problem": ...}
  return guard::object_references_from_json(record["sources"], file.string());
}

/// manifest.json's `compile_flag_suppressions` of the candidate run `run`,
/// one suppression per flag (kind "compile flag", at the first unit, the
/// others counted in the text), without the flags one of `textual` (the
/// diff's own suppressions) spells out.
std::vector<guard::Suppression> compile_flag_suppressions(const fs::path& run,
                                                          const std::vector<guard::Suppression>& textual) {
  const fs::path file = run / "manifest.json";
  std::error_code error;
  if (!fs::is_regular_file(file, error)) return {};
  const json manifest = json::parse(util::read_file(file), nullptr, false);
  if (!manifest.is_object() || !manifest.contains("compile_flag_suppressions")) return {};
  const json& record = manifest["compile_flag_suppressions"];
  if (!record.is_array()) throw InputError(file.string(), "compile_flag_suppressions must be an array");
  std::map<std::string, std::vector<std::string>> units;
  for (const auto& each : record) {
    if (!each.is_object() || !each.contains("flag") || !each["flag"].is_string() || !each.contains("unit") ||
        !each["unit"].is_string())
      throw InputError(file.string(), "compile_flag_suppressions: each entry needs a unit and a flag");
    units[each["flag"].get<std::string>()].push_back(each["unit"].get<std::string>());
  }
  std::vector<guard::Suppression> out;
  for (const auto& [flag, where] : units) {
    const std::string spelled = flag.rfind("removed ", 0) == 0 ? std::string() : flag;
    const bool shown = !spelled.empty() && std::any_of(textual.begin(), textual.end(), [&](const auto& each) {
      return each.text.find(spelled) != std::string::npos;
    });
    if (shown) continue;
    guard::Suppression suppression;
    suppression.path = where.front();
    suppression.kind = "compile flag";
    suppression.text = flag + " (in the compile command of " + where.front() +
                       (where.size() > 1 ? " and " + std::to_string(where.size() - 1) + " more units" : "") + ")";
    out.push_back(std::move(suppression));
  }
  return out;
}

/// What the candidate's code newly references of process control and
/// self-inspection (guard/process_references.hpp), as evidence; each is a
/// gate reason.
json judge_process_references(const config::Config& config, const fs::path& baseline_dir,
                              const fs::path& candidate_dir, std::vector<std::string>& reasons) {
  const auto baseline = recorded_object_references(baseline_dir);
  const auto candidate = recorded_object_references(candidate_dir);
  json evidence = {{"judged", baseline && candidate}, {"new", json::array()}};
  if (!baseline || !candidate) return evidence;
  for (const auto& found : guard::new_references(*baseline, *candidate, config.anti_gaming.allowed_references)) {
    evidence["new"].push_back(
        {{"source", found.source}, {"reference", found.reference}, {"category", found.category}});
    reasons.push_back("code " + found.source + " newly references " + found.reference + " (" + found.category +
                      "; allow it with [anti_gaming] allowed_references in the baseline's hydra.toml)");
  }
  return evidence;
}

model::Tampering detect_tampering(const config::Config& config, const fs::path& candidate_dir,
                                  const model::Run& baseline, const model::Run& candidate) {
  model::Tampering tampering;
  const fs::path diff_file = candidate_dir / "diff.patch";
  if (!fs::is_regular_file(diff_file)) return tampering;
  const parse::DiffLines diff = parse::parse_diff_lines(util::read_file(diff_file), diff_file.string());
  guard::TreeRoots roots;
  const model::RunManifest baseline_manifest = read_run_manifest(baseline.path);
  const model::RunManifest candidate_manifest = read_run_manifest(candidate_dir);
  roots.baseline_source = baseline_manifest.source_root;
  roots.candidate_source = candidate_manifest.source_root;
  roots.baseline_build = baseline_manifest.build_dir;
  roots.candidate_build = candidate_manifest.build_dir;
  // Test definitions and results are compared only when ctest listed the
  // candidate's tests: a build that failed before ctest ran has dropped
  // nothing on purpose (the build and tests dimensions already score it).
  const bool candidate_listed = fs::is_regular_file(candidate_dir / "ctest.json");
  const std::vector<model::TestDefinition> none;
  guard::Report report = guard::analyze(
      config.anti_gaming, diff, candidate_listed ? baseline.test_definitions : none,
      candidate_listed ? candidate.test_definitions : none,
      candidate_listed && baseline.tests ? &*baseline.tests : nullptr,
      candidate_listed && candidate.tests ? &*candidate.tests : nullptr, roots);
  // A file the build compiled or included is code whatever its name (a
  // fragment named like a document).
  if (const auto compiled = compiled_changed_files(candidate_dir); !compiled.empty())
    report.suppressions_added = guard::find_added_suppressions(diff, compiled);
  // Suppression flags the compiler was given however the change spelled
  // them (capture/lint/flag_suppressions.hpp); one the diff's text already
  // shows is counted once.
  for (auto& suppression : compile_flag_suppressions(candidate_dir, report.suppressions_added))
    report.suppressions_added.push_back(std::move(suppression));
  // The runs that judge the tests built and ran them as the reference defines them.
  for (auto& change : guard::find_recipe_changes(baseline, candidate)) report.tests_tampered.push_back(std::move(change));
  // A header of the candidate's tree that shadows a system or standard header
  // the baseline's tree did not shadow: its sources, the baseline's tests
  // among them, no longer build as the baseline built them.
  for (const auto& [header, shadows] : new_shadowing_headers(baseline.path, candidate_dir))
    report.tests_tampered.push_back({header, guard::TamperKind::build_changed,
                                     "header " + header + " of the change shadows the system header " + shadows +
                                         " for every source that includes it"});
  tampering.analyzed = true;
  for (const auto& edit : report.config_edits) tampering.config_edits.push_back(edit.path);
  tampering.suppressions_added = report.suppressions_added.size();
  tampering.assertions_removed = report.assertions_removed.size();
  std::set<std::string> tampered;
  for (const auto& test : report.tests_tampered)
    if (test.kind != guard::TamperKind::dropped) tampered.insert(test.name);
  tampering.tampered_tests = tampered.size();
  tampering.tampered_test_names.assign(tampered.begin(), tampered.end());
  if (config.anti_gaming.fail_gate_on_tampering && guard::has_tampering(report)) {
    for (const auto& edit : report.config_edits)
      tampering.gate_reasons.push_back("edits protected configuration " + edit.path + " (" + edit.change + ")");
    for (const auto& test : report.tests_tampered)
      tampering.gate_reasons.push_back("test " + test.name + ": " + std::string(guard::to_string(test.kind)) +
                                       (test.detail.empty() ? "" : " (" + test.detail + ")"));
    for (const auto& line : report.tests_not_built) tampering.gate_reasons.push_back("tests not built: " + line);
    for (const auto& line : report.harness_reach) tampering.gate_reasons.push_back("harness reach: " + line);
  }
  tampering.evidence = guard::to_json(report);
  // Process control and self-inspection the change's code newly reaches for.
  // Recorded only where both runs recorded their objects' references.
  std::vector<std::string> references;
  json judged = judge_process_references(config, baseline.path, candidate_dir, references);
  if (judged["judged"] == true) tampering.evidence["process_references"] = std::move(judged);
  if (config.anti_gaming.fail_gate_on_tampering)
    tampering.gate_reasons.insert(tampering.gate_reasons.end(), references.begin(), references.end());
  if (!references.empty()) tampering.evidence["tampering"] = true;
  return tampering;
}

}  // namespace

ConfigFile find_config_file(const std::optional<fs::path>& explicit_file, const std::optional<fs::path>& baseline_run,
                            const std::optional<fs::path>& tree) {
  if (explicit_file) return {explicit_file, explicit_file->generic_string()};
  if (baseline_run && fs::is_regular_file(*baseline_run / "hydra.toml")) return {*baseline_run / "hydra.toml", "baseline"};
  if (tree && fs::is_regular_file(*tree / "hydra.toml")) return {*tree / "hydra.toml", "tree"};
  return {std::nullopt, "defaults"};
}

ChosenConfig choose_config(const std::optional<fs::path>& explicit_config, const fs::path& baseline) {
  const ConfigFile chosen = find_config_file(explicit_config, baseline, std::nullopt);
  return {chosen.file ? config::load(*chosen.file) : config::Config{}, chosen.source};
}

Evaluation evaluate(const ScoreRequest& request) {
  if (request.candidates.empty()) throw UsageError("score needs at least one --candidate");
  Evaluation evaluation;
  ChosenConfig chosen = choose_config(request.config, request.baseline);
  evaluation.config = std::move(chosen.config);
  const config::Config& config = evaluation.config;
  evaluation.baseline = load(request.baseline, config);
  // The code under test never judges itself (docs/threat-model.md): the
  // baseline's tests as judged (with the private tests, when configured),
  // and each candidate's tests as its held-out runs judged them.
  const auto baseline_tests = guard::judged_baseline_tests(evaluation.baseline);
  // The private tests at the level tests are scored at (cases of framework
  // programs), while the baseline's own results are at hand.
  evaluation.baseline.held_out.private_tests = guard::private_test_identities(evaluation.baseline);
  std::map<std::string, std::string> agents;
  for (const auto& path : request.candidates) {
    model::Run candidate = load(path, config);
    candidate.tampering = detect_tampering(config, path, evaluation.baseline, candidate);
    const bool held_out = candidate.held_out.mode != "none" || candidate.held_out.new_tests_mode != "none" ||
                          evaluation.baseline.held_out.private_test_patch;
    if (held_out && candidate.tests && baseline_tests) {
      guard::HeldOutJudgement judged = guard::judge_held_out(evaluation.baseline, *baseline_tests, candidate);
      candidate.tests = std::move(judged.tests);
      candidate.tampering.evidence["held_out"] = std::move(judged.evidence);
    }
    // Each program at the baseline's level (guard/test_levels.hpp).
    if (candidate.tests && baseline_tests) candidate.tests = guard::align_levels(*baseline_tests, std::move(*candidate.tests));
    candidate.path = path.generic_string();
    if (auto [it, inserted] = agents.emplace(candidate.agent, candidate.path); !inserted)
      throw UsageError("two candidates are named \"" + candidate.agent + "\": " + it->second + " and " +
                       candidate.path + " (record them with distinct --agent names)");
    evaluation.candidates.push_back(std::move(candidate));
  }
  evaluation.baseline.path = request.baseline.generic_string();
  evaluation.baseline.tests = baseline_tests;
  evaluation.ranking = score::rank(config, evaluation.baseline, evaluation.candidates);
  evaluation.contract = score::to_contract(config, evaluation.baseline, evaluation.ranking);
  json inputs = {{"baseline", request.baseline.generic_string()},
                 {"candidates", json::array()},
                 {"config", chosen.source}};
  for (const auto& path : request.candidates) inputs["candidates"].push_back(path.generic_string());
  evaluation.contract["inputs"] = inputs;
  return evaluation;
}

}  // namespace hydra::pipeline
