#include <hydra/pipeline/evaluate.hpp>

#include <algorithm>
#include <map>
#include <optional>
#include <set>

#include <hydra/error.hpp>
#include <hydra/guard/configure_differential.hpp>
#include <hydra/guard/guard.hpp>
#include <hydra/guard/held_out.hpp>
#include <hydra/guard/launcher_differential.hpp>
#include <hydra/guard/process_references.hpp>
#include <hydra/guard/test_levels.hpp>
#include <hydra/guard/test_recipes.hpp>
#include <hydra/parse/diff_lines.hpp>
#include <hydra/pipeline/run_dir.hpp>
#include <hydra/score/contract.hpp>
#include <hydra/util/files.hpp>
#include <hydra/util/text.hpp>

namespace hydra::pipeline {
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

/// The shadowing headers of `candidate` that the baseline's run does not
/// list: header -> the system header it shadows.
std::map<std::string, std::string> new_shadowing_headers(const model::Run& baseline, const model::Run& candidate) {
  std::map<std::string, std::string> fresh = candidate.records.shadowing_headers;
  for (const auto& [header, shadows] : baseline.records.shadowing_headers) fresh.erase(header);
  return fresh;
}

/// The baseline's test sources as compiled against the candidate's code
/// (`where`: its held-out run, or its own run when the change touches no test
/// file) and as the baseline compiled them (its own run, and its held-out run
/// for the private tests); unset when either was not recorded.
struct TestObjectReferences {
  std::string where;
  std::optional<guard::ObjectReferences> baseline, candidate;
};
TestObjectReferences test_object_references(const model::Run& baseline, const model::Run& candidate) {
  TestObjectReferences found;
  if (candidate.held_out.mode == "built") {
    found.where = "held-out";
    found.candidate = candidate.records.held_out_object_references.test_sources;
  } else if (candidate.held_out.mode == "candidate") {
    found.where = "candidate";
    found.candidate = candidate.records.object_references.test_sources;
  }
  found.baseline = baseline.records.object_references.test_sources;
  if (found.baseline)
    if (const auto& privately = baseline.records.held_out_object_references.test_sources)
      found.baseline->insert(privately->begin(), privately->end());  // sources the baseline's own run lacks
  return found;
}

/// The candidate's `compile_flag_suppressions` (manifest.json), one
/// suppression per flag (kind "compile flag", at the first unit, the others
/// counted in the text), without the flags one of `textual` (the diff's own
/// suppressions) spells out.
std::vector<guard::Suppression> compile_flag_suppressions(const model::Run& candidate,
                                                          const std::vector<guard::Suppression>& textual) {
  std::map<std::string, std::vector<std::string>> units;
  for (const auto& each : candidate.records.compile_flag_suppressions) units[each.flag].push_back(each.unit);
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

/// A reference as a reason says it: "newly references atexit", "newly
/// interposes strlen", "newly defines ns::tally, which the tests define".
std::string reference_phrase(const std::string& reference) {
  if (util::starts_with(reference, guard::kDefines)) return "newly " + reference + ", which the tests define";
  if (util::starts_with(reference, guard::kInterposes)) return "newly " + reference + ", which a runtime library exports";
  return "newly references " + reference;
}

/// What the candidate's code newly references of process control and
/// self-inspection (guard/process_references.hpp), as evidence; each is a
/// gate reason. Also what its headers newly compile into the baseline's
/// own test sources (`new_in_tests`): a source compared only with the
/// baseline's object of the same test source.
json judge_process_references(const config::Config& config, const model::Run& baseline_run,
                              const model::Run& candidate_run, std::vector<std::string>& reasons) {
  const auto& baseline = baseline_run.records.object_references.sources;
  const auto& candidate = candidate_run.records.object_references.sources;
  json evidence = {{"judged", baseline && candidate}, {"new", json::array()}};
  const auto& allowed = config.anti_gaming.allowed_references;
  const std::string allow = "; allow it with [anti_gaming] allowed_references in the baseline's hydra.toml)";
  // Objects the baseline's scan read and the candidate's could not.
  if (const std::string unread = guard::unread_objects_reason(
          baseline.has_value() && !candidate, candidate_run.records.object_references.problem);
      !unread.empty()) {
    evidence["problem"] = candidate_run.records.object_references.problem;
    reasons.push_back(unread);
  }
  if (baseline && candidate)
    for (const auto& found : guard::new_references(*baseline, *candidate, allowed)) {
      evidence["new"].push_back(
          {{"source", found.source}, {"reference", found.reference}, {"category", found.category}});
      reasons.push_back("code " + found.source + " " + reference_phrase(found.reference) + " (" + found.category + allow);
    }
  TestObjectReferences tests = test_object_references(baseline_run, candidate_run);
  evidence["tests_judged"] = tests.baseline && tests.candidate;
  evidence["new_in_tests"] = json::array();
  if (!tests.baseline || !tests.candidate) return evidence;
  guard::ObjectReferences compared;  // the baseline's own test sources only
  for (const auto& [source, references] : *tests.candidate)
    if (tests.baseline->count(source)) compared.emplace(source, references);
  for (const auto& found : guard::new_references(*tests.baseline, compared, allowed)) {
    evidence["new_in_tests"].push_back({{"source", found.source}, {"reference", found.reference},
                                        {"category", found.category}, {"run", tests.where}});
    reasons.push_back("the baseline's test " + found.source + ", compiled against the change's code (" + tests.where +
                      " run), newly references " + found.reference + " (" + found.category + allow);
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
  roots.baseline_source = baseline.source_root;
  roots.candidate_source = candidate.source_root;
  roots.baseline_build = baseline.build_root;
  roots.candidate_build = candidate.build_root;
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
  const std::set<std::string> compiled(candidate.records.compiled_changed_files.begin(), candidate.records.compiled_changed_files.end());
  if (!compiled.empty()) report.suppressions_added = guard::find_added_suppressions(diff, compiled);
  report.unreadable_code = guard::find_unreadable_code(diff, compiled);
  // Suppression flags the compiler was given however the change spelled
  // them (capture/lint/flag_suppressions.hpp); one the diff's text already
  // shows is counted once.
  for (auto& suppression : compile_flag_suppressions(candidate, report.suppressions_added))
    report.suppressions_added.push_back(std::move(suppression));
  // The runs that judge the tests built and ran them as the reference defines them.
  for (auto& change : guard::find_recipe_changes(baseline, candidate)) report.tests_tampered.push_back(std::move(change));
  // A header of the candidate's tree that shadows a system or standard header
  // the baseline's tree did not shadow: its sources, the baseline's tests
  // among them, no longer build as the baseline built them.
  for (const auto& [header, shadows] : new_shadowing_headers(baseline, candidate))
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
    for (const auto& line : report.unreadable_code) tampering.gate_reasons.push_back("unreadable code: " + line);
  }
  tampering.evidence = guard::to_json(report);
  // Process control and self-inspection the change's code newly reaches for.
  // Recorded only where both runs recorded their objects' references.
  std::vector<std::string> references;
  json judged = judge_process_references(config, baseline, candidate, references);
  if (judged["judged"] == true || judged["tests_judged"] == true) tampering.evidence["process_references"] = std::move(judged);
  if (config.anti_gaming.fail_gate_on_tampering)
    tampering.gate_reasons.insert(tampering.gate_reasons.end(), references.begin(), references.end());
  if (!references.empty()) tampering.evidence["tampering"] = true;
  return tampering;
}

/// The launcher differential (guard/launcher_differential.hpp): a test that
/// passed under the launcher and failed without it fails, is named in the
/// evidence and fails the anti-gaming gate, unless the baseline's own run
/// failed it plain too.
void judge_plain_runs(const config::Config& config, const model::Run& baseline, model::Run& candidate) {
  bool judged = false;
  const auto results = guard::plain_results(candidate, judged);
  if (!judged && results.empty()) return;
  std::vector<model::TestCase> none;
  guard::DifferentialJudgement found = guard::judge_launcher_differential(
      results, judged, guard::failing_plain(baseline), candidate.tests ? *candidate.tests : none);
  candidate.tampering.evidence["launcher_differential"] = std::move(found.evidence);
  if (found.differing.empty()) return;
  candidate.tampering.evidence["tampering"] = true;
  if (!config.anti_gaming.fail_gate_on_tampering) return;
  for (const auto& test : found.differing)
    candidate.tampering.gate_reasons.push_back("test " + test.test + " passed under HydraScore's test launcher but " +
                                               test.plain + " when run without it (" + test.run + " run)");
}

/// The tests HydraScore's launcher caught rewriting their verdict
/// (guard/launcher_differential.hpp): named in the evidence; each one the
/// baseline's runs did not trip too fails the anti-gaming gate.
void judge_caught_tampering(const config::Config& config, const model::Run& baseline, model::Run& candidate) {
  guard::CaughtJudgement found = guard::judge_caught_tampering(baseline, candidate);
  if (found.evidence.empty()) return;
  candidate.tampering.evidence["tampering_caught"] = std::move(found.evidence);
  if (found.own.empty()) return;
  candidate.tampering.evidence["tampering"] = true;
  if (!config.anti_gaming.fail_gate_on_tampering) return;
  for (const auto& caught : found.own)
    candidate.tampering.gate_reasons.push_back("test " + caught.test + ": HydraScore's test launcher caught its verdict "
                                               "rewritten from inside (" + caught.run + " run): " + caught.message);
}

/// The configure differential (guard/configure_differential.hpp): each way
/// the candidate's configure decided its build otherwise in the capture than
/// in a plain configure, which the baseline's does not show, fails the
/// anti-gaming gate.
void judge_configure(const config::Config& config, const model::Run& baseline, model::Run& candidate) {
  guard::ConfigureJudgement found = guard::judge_configure_differential(baseline.records.configure_differential,
                                                                        candidate.records.configure_differential);
  // Recorded but unable to judge: said in the evidence (and the report's
  // alerts), never held against the candidate.
  if (!found.judged && found.not_judged.empty()) return;
  candidate.tampering.evidence["configure_differential"] = std::move(found.evidence);
  if (found.own.empty()) return;
  candidate.tampering.evidence["tampering"] = true;
  if (!config.anti_gaming.fail_gate_on_tampering) return;
  for (const auto& difference : found.own)
    candidate.tampering.gate_reasons.push_back("the configure decides the build otherwise in HydraScore's capture "
                                               "than in a plain configure of the same tree: " + difference.detail);
}

/// The held-out run's build of the code (capture/held_out_build.hpp): each
/// way the change's test files build the code otherwise than the held-out
/// run (the baseline's test files) does fails the anti-gaming gate, since
/// what is merged is then never held out.
void judge_held_out_build(const config::Config& config, model::Run& candidate) {
  const auto& differences = candidate.records.held_out_build;
  if (differences.empty()) return;
  json listed = json::array();
  for (const auto& difference : differences) listed.push_back({{"key", difference.key}, {"detail", difference.detail}});
  candidate.tampering.evidence["held_out_build"] = std::move(listed);
  candidate.tampering.evidence["tampering"] = true;
  if (!config.anti_gaming.fail_gate_on_tampering) return;
  for (const auto& difference : differences)
    candidate.tampering.gate_reasons.push_back("the change's test files build the code otherwise than the held-out "
                                               "run with the baseline's test files does: " + difference.detail);
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
    // Tests that passed only under HydraScore's launcher fail.
    judge_plain_runs(config, evaluation.baseline, candidate);
    // Tests the launcher caught rewriting their verdict, against the baseline's.
    judge_caught_tampering(config, evaluation.baseline, candidate);
    // A configure that builds otherwise outside the capture, against the baseline's.
    judge_configure(config, evaluation.baseline, candidate);
    // Test files that build the code otherwise than the held-out run.
    judge_held_out_build(config, candidate);
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
