// The held-out runs (held_out.hpp, run_held_out; docs/threat-model.md): the code
// under test never judges itself.
//
//  - held-out/: the base commit with the change's code files (everything but
//    its test files) and the private test patch: the baseline's tests on the
//    candidate's code. Built only when the change touches both code and tests
//    (or a private test patch is configured); otherwise the candidate's own
//    run (no test touched) or the baseline's (no code touched) is that run.
//  - on-baseline/: the base commit with the change's test files and CMake
//    files, and every code file the change added left empty: the candidate's
//    new tests on the baseline's code. Built only when the change adds tests
//    and touches code.
// Both trees live under the capture's build tree (.hydra/), are git worktrees
// at the base commit, and are rebuilt incrementally by later captures.
#include <hydra/capture/held_out.hpp>
#include <hydra/capture/held_out_build.hpp>
#include <hydra/capture/held_out_trees.hpp>

#include <functional>
#include <set>

#include <hydra/capture/runners/case_reports.hpp>
#include <hydra/capture/runners/test_attempts.hpp>
#include <hydra/capture/cmake/test_files.hpp>
#include <hydra/capture/change_step.hpp>
#include <hydra/error.hpp>
#include <hydra/guard/test_recipes.hpp>
#include <hydra/parse/build_targets.hpp>
#include <hydra/parse/ctest_json.hpp>
#include <hydra/parse/diff_lines.hpp>
#include <hydra/pipeline/artifacts.hpp>
#include <hydra/pipeline/run_dir.hpp>
#include <hydra/util/files.hpp>
#include <hydra/util/git.hpp>
#include <hydra/util/sha256.hpp>

namespace hydra::capture {
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

bool is_cmake_file(const std::string& path) {
  const fs::path name = fs::path(path).filename();
  return name == "CMakeLists.txt" || name.extension() == ".cmake";
}

std::set<std::string> test_names(const fs::path& ctest_json) {
  std::set<std::string> names;
  if (!fs::is_regular_file(ctest_json)) return names;
  try {
    for (const auto& definition : parse::parse_ctest_json(util::read_file(ctest_json), ctest_json.string()))
      names.insert(definition.name);
  } catch (const InputError&) {
    // A malformed list is reported where the run is loaded.
  }
  return names;
}

/// The identities (suite::name) of the tests in `files` of test roles
/// (path -> role); none when they do not parse (the loader reports that).
std::set<std::string> result_names(const fs::path& directory, const std::map<std::string, std::string>& files) {
  std::set<std::string> names;
  for (const auto& [path, role] : files) {
    if (!pipeline::is_test_role(role) || !fs::is_regular_file(directory / path)) continue;
    try {
      for (const auto& test : pipeline::parse_test_artifact(role, directory / path).tests) names.insert(test.id());
    } catch (const InputError&) {
    }
  }
  return names;
}

/// The test identities of a sealed run directory's results (`manifest` is its manifest).
std::set<std::string> result_names(const fs::path& run_dir, const model::RunManifest& manifest) {
  std::map<std::string, std::string> files;
  for (const auto& artifact : manifest.artifacts) files[artifact.path] = artifact.role;
  return result_names(run_dir, files);
}

/// The test identities of the run being staged.
std::set<std::string> staged_result_names(const Staging& staging) {
  std::map<std::string, std::string> files;
  for (const auto& [path, role] : staging.roles.items()) files[path] = role.get<std::string>();
  return result_names(staging.directory, files);
}

/// The test files a run recorded; none when it recorded none or they do not
/// parse (the run's loader reports that).
TestFiles read_test_files(const fs::path& file) {
  if (!fs::is_regular_file(file)) return {};
  try {
    return parse::parse_test_files_file(file);
  } catch (const InputError&) {
    return {};
  }
}

std::vector<model::TestDefinition> definitions_in(const fs::path& ctest_json) {
  if (!fs::is_regular_file(ctest_json)) return {};
  try {
    return parse::parse_ctest_json_file(ctest_json);
  } catch (const InputError&) {
    return {};  // reported where the run is loaded
  }
}

/// The tests private to the task, after the baseline's held-out run with the
/// private test patch `patch`: those the patch adds, those whose files
/// (other than CMake files, which define many tests) it touches, and those
/// whose definition it changes (docs/formulas.md, "Resolution").
std::vector<std::string> private_test_names(const Plan& plan, const Staging& staging, const fs::path& patch,
                                            const json& run) {
  std::set<std::string> touched;
  try {
    for (const auto& section : split_patch(util::read_file(patch))) {
      for (const auto& path : {section.path, section.old_path})
        if (!path.empty() && !is_cmake_file(path)) touched.insert(path);
    }
  } catch (const InputError&) {
    return {};  // the patch did not apply either: a problem of the run already
  }
  const auto own = definitions_in(staging.directory / "ctest.json");
  const auto held = definitions_in(staging.directory / "held-out" / "ctest.json");
  const TestFiles files = read_test_files(staging.directory / "held-out" / "test-files.json");
  // A program that does not build with the patch has no command in the
  // held-out tree's list, so no files there: the baseline's own tree (the
  // same paths as the steps see them) knows them from its built program.
  const TestFiles own_files = read_test_files(staging.directory / "test-files.json");
  std::set<std::string> own_names, names;
  for (const auto& definition : own) own_names.insert(definition.name);
  std::vector<std::string> common;
  for (const auto& definition : held) {
    if (!own_names.count(definition.name)) {
      names.insert(definition.name);
      continue;
    }
    common.push_back(definition.name);
    for (const TestFiles* known : {&files, &own_files}) {
      const auto found = known->by_test.find(definition.name);
      if (found == known->by_test.end()) continue;
      for (const auto& file : found->second)
        if (touched.count(file)) names.insert(definition.name);
    }
  }
  guard::TreeTests before{&own, nullptr, plan.source.string(), plan.build_dir.string()};
  const json roots = run.value("roots", json::object());
  guard::TreeTests after{&held, nullptr, roots.value("source", std::string()), roots.value("build", std::string())};
  for (const auto& finding : guard::compare_test_recipes(before, after, common, "")) names.insert(finding.name);
  return {names.begin(), names.end()};
}

}  // namespace

namespace {

/// "build_differences" of `record`: how the held-out run's configure built
/// the code otherwise than the candidate's own (held_out_build.hpp); only
/// when both recorded their targets.
void record_held_out_build(const Staging& staging, const std::function<bool(const std::string&)>& is_test_source,
                           json& record) {
  const fs::path own = staging.directory / "build-targets.json";
  const fs::path held = staging.directory / "held-out" / "build-targets.json";
  if (!fs::is_regular_file(own) || !fs::is_regular_file(held)) return;
  json differences = json::array();
  try {
    for (const auto& difference : held_out_build_differences(parse::parse_build_targets_file(own),
                                                             parse::parse_build_targets_file(held), is_test_source))
      differences.push_back({{"key", difference.key}, {"detail", difference.detail}});
  } catch (const Error& error) {
    record["build_differences_problem"] = error.what();
    return;
  }
  record["build_differences"] = std::move(differences);
}

}  // namespace

void run_held_out(const Plan& plan, const CaptureRequest& request, const Sandbox& sandbox, Staging& staging,
                  Progress& progress) {
  json record = {{"mode", "none"}, {"new_tests", {{"mode", "none"}}}};
  const auto finish = [&](json value) { staging.manifest["held_out"] = std::move(value); };
  const auto& settings = plan.config.anti_gaming;
  std::optional<fs::path> private_patch;
  if (!settings.private_test_patch.empty()) {
    fs::path path = settings.private_test_patch;
    if (path.is_relative()) path = plan.source / path;
    path = util::absolute_clean(path);
    if (!fs::is_regular_file(path)) {
      staging.problem("the private test patch " + path.string() + " does not exist");
      record["private_test_patch"] = {{"applied", false}, {"problem", "does not exist"}};
    } else {
      private_patch = path;
      record["private_test_patch"] = {{"sha256", util::sha256_hex(util::read_file(path))}};
    }
  }
  if (!plan.in_git || plan.base_commit.empty()) {
    record["reason"] = "the source tree is not a git work tree with a base commit";
    return finish(record);
  }
  const bool is_baseline = !request.baseline_run;
  const fs::path root = plan.build_dir / ".hydra";
  if (is_baseline) {
    // The baseline's own held-out run: its code with the private tests.
    if (!private_patch) {
      record["reason"] = "the baseline's tests judge the baseline (no private test patch)";
      return finish(record);
    }
    progress.start("held-out");
    progress.finish("base commit + private test patch");
    try {
      const fs::path source = prepare_tree(plan, root / "held-out", "", {}, private_patch);
      json run = run_tree(plan, request, sandbox, staging, progress, root / "held-out", source, "held-out", true);
      record["private_tests"] = private_test_names(plan, staging, *private_patch, run);
      record["mode"] = "built";
      record["run"] = std::move(run);
      record["private_test_patch"]["applied"] = true;
    } catch (const Error& error) {
      staging.problem(std::string("held-out run: ") + error.what());
      record["problem"] = error.what();
      record["private_test_patch"]["applied"] = false;
    }
    return finish(record);
  }

  const std::string diff = change_diff(plan, request);
  std::vector<PatchSection> sections;
  try {
    sections = split_patch(diff);
  } catch (const InputError& error) {
    staging.problem(std::string("held-out run: the change's diff cannot be read: ") + error.what());
    record["problem"] = error.what();
    return finish(record);
  }
  // Test files: the baseline's and the candidate's (codemodel, commands,
  // definitions) and the configured patterns.
  const TestFiles baseline_files = read_test_files(*request.baseline_run / "test-files.json");
  const TestFiles candidate_files = read_test_files(staging.directory / "test-files.json");
  std::vector<std::string> globs = settings.test_file_globs;
  globs.insert(globs.end(), settings.test_paths.begin(), settings.test_paths.end());
  // A file only tests use (test_files.hpp); a library source a test program
  // compiles too is code.
  const auto is_test = [&](const PatchSection& section) {
    return is_test_file_of_change(section.path, baseline_files, candidate_files, globs) ||
           is_test_file_of_change(section.old_path, baseline_files, candidate_files, globs);
  };

  std::string code_patch, test_patch;
  std::vector<std::string> code_changed, tests_changed, added_code;
  for (const auto& section : sections) {
    if (is_test(section)) {
      tests_changed.push_back(section.path);
      test_patch += section.text;
    } else {
      code_changed.push_back(section.path);
      code_patch += section.text;
      if (is_cmake_file(section.path)) test_patch += section.text;  // defines the new tests
      else if (section.created) added_code.push_back(section.path);
    }
  }
  record["test_files_changed"] = tests_changed;
  record["code_files_changed"] = code_changed;

  // 1. The baseline's tests on the candidate's code.
  if (tests_changed.empty() && !private_patch) {
    record["mode"] = "candidate";
    record["reason"] = "the change touches no test file: its own run is the held-out run";
  } else if (code_changed.empty()) {
    record["mode"] = "baseline";
    record["reason"] = "the change touches only test files: the baseline's run is the held-out run";
  } else {
    progress.start("held-out");
    progress.finish(std::to_string(code_changed.size()) + " code file(s) with the baseline's tests");
    try {
      const fs::path source = prepare_tree(plan, root / "held-out", code_patch, {}, private_patch);
      record["run"] = run_tree(plan, request, sandbox, staging, progress, root / "held-out", source, "held-out",
                               private_patch.has_value());
      record["mode"] = "built";
      record_held_out_build(staging, [&](const std::string& path) {
        return is_test_file_of_change(path, baseline_files, candidate_files, globs);
      }, record);
      if (private_patch) record["private_test_patch"]["applied"] = true;
    } catch (const Error& error) {
      staging.problem(std::string("held-out run: ") + error.what());
      record["problem"] = error.what();
      if (private_patch) record["private_test_patch"]["applied"] = false;
    }
  }

  // 2. The candidate's new tests on the baseline's code.
  // The cmake profile lists tests with ctest; the others by their results.
  const bool cmake = plan.config.profile == "cmake";
  const std::set<std::string> baseline_tests =
      cmake ? test_names(*request.baseline_run / "ctest.json") : result_names(*request.baseline_run, *plan.baseline);
  std::vector<std::string> new_tests;
  for (const auto& name : cmake ? test_names(staging.directory / "ctest.json") : staged_result_names(staging))
    if (!baseline_tests.count(name)) new_tests.push_back(name);
  // Cases a test program's framework report lists, new in a test the baseline has.
  if (cmake)
    for (const auto& name : tests_with_new_cases(staging, *request.baseline_run, *plan.baseline))
      if (baseline_tests.count(name)) new_tests.push_back(name);
  json& new_record = record["new_tests"];
  new_record["tests"] = new_tests;
  if (new_tests.empty()) {
    new_record["reason"] = "the change adds no test";
  } else if (code_changed.empty()) {
    new_record["mode"] = "no code change";
    new_record["reason"] = "the change touches no code: its new tests cannot exercise it";
  } else {
    progress.start("on-baseline");
    progress.finish(std::to_string(new_tests.size()) + " new test(s) on the baseline's code");
    try {
      const fs::path source = prepare_tree(plan, root / "on-baseline", test_patch, added_code, std::nullopt);
      new_record["run"] = run_tree(plan, request, sandbox, staging, progress, root / "on-baseline", source, "on-baseline");
      new_record["mode"] = "built";
    } catch (const Error& error) {
      staging.problem(std::string("new tests on the baseline's code: ") + error.what());
      new_record["problem"] = error.what();
    }
  }
  finish(record);
}

}  // namespace hydra::capture
