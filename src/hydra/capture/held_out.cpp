// The held-out runs (steps.hpp, run_held_out; docs/threat-model.md): the code
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
#include <hydra/capture/steps.hpp>

#include <set>

#include <hydra/capture/case_reports.hpp>
#include <hydra/capture/test_attempts.hpp>
#include <hydra/capture/test_files.hpp>
#include <hydra/error.hpp>
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

/// One file's part of a `git diff` patch.
struct Section {
  std::string text;
  std::string path;
  std::string old_path;
  bool created = false;
};

std::vector<Section> split_patch(const std::string& diff) {
  std::vector<std::size_t> starts;
  if (diff.rfind("diff --git ", 0) == 0) starts.push_back(0);
  for (std::size_t at = diff.find("\ndiff --git "); at != std::string::npos; at = diff.find("\ndiff --git ", at + 1))
    starts.push_back(at + 1);
  std::vector<Section> sections;
  for (std::size_t index = 0; index < starts.size(); ++index) {
    const std::size_t end = index + 1 < starts.size() ? starts[index + 1] : diff.size();
    Section section;
    section.text = diff.substr(starts[index], end - starts[index]);
    const parse::DiffLines lines = parse::parse_diff_lines(section.text, "the change's diff");
    if (lines.files.empty()) continue;
    section.path = lines.files.front().path;
    section.old_path = lines.files.front().old_path;
    section.created = lines.files.front().created;
    sections.push_back(std::move(section));
  }
  return sections;
}

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

/// The test identities of a sealed run directory's results.
std::set<std::string> result_names(const fs::path& run_dir) {
  std::map<std::string, std::string> files;
  try {
    for (const auto& artifact : pipeline::read_run_manifest(run_dir).artifacts) files[artifact.path] = artifact.role;
  } catch (const InputError&) {
  }
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

/// Makes `root`/source a worktree at the base commit with `patch` applied,
/// `emptied` files (relative to the top level) written empty and the private
/// test patch applied; returns the tree's CMake source directory. Throws
/// hydra::Error when a patch does not apply (`what` names it).
fs::path prepare_tree(const Plan& plan, const fs::path& root, const std::string& patch,
                      const std::vector<std::string>& emptied, const std::optional<fs::path>& private_patch) {
  const fs::path top = util::work_tree_root(plan.source);
  const fs::path worktree = root / "source";
  util::checkout_worktree(top, plan.base_commit, worktree);
  const auto apply = [&](const fs::path& file, const std::string& what) {
    const auto applied = util::run_git(worktree, {"apply", "--whitespace=nowarn", "--binary", file.string()});
    if (applied.exit_code != 0)
      throw Error(what + " does not apply to the base commit: " + util::trim(applied.error_output + applied.output));
  };
  if (!patch.empty()) {
    const fs::path file = root / "change.patch";
    util::write_file_atomic(file, patch);
    apply(file, "the change's part for this run");
  }
  for (const auto& relative : emptied) {
    const fs::path file = worktree / relative;
    fs::create_directories(file.parent_path());
    util::write_file_atomic(file, "");
  }
  if (private_patch) apply(*private_patch, "the private test patch " + private_patch->string());
  const fs::path inside = util::absolute_clean(plan.source).lexically_relative(fs::weakly_canonical(top));
  return inside.empty() || inside == "." ? worktree : worktree / inside;
}

/// `xml` without the elements named `element` (their text: test output).
std::string without_elements(std::string xml, const std::string& element) {
  const std::string open = "<" + element, close = "</" + element + ">";
  for (std::size_t at = xml.find(open); at != std::string::npos; at = xml.find(open, at)) {
    const std::size_t next = at + open.size();
    if (next < xml.size() && xml[next] != '>' && xml[next] != ' ' && xml[next] != '/') {
      at = next;
      continue;
    }
    const std::size_t self_closed = xml.find("/>", at);
    const std::size_t tag_end = xml.find('>', at);
    std::size_t end = std::string::npos;
    if (tag_end != std::string::npos && self_closed != std::string::npos && self_closed + 1 == tag_end) end = tag_end + 1;
    else if (const std::size_t closing = xml.find(close, at); closing != std::string::npos) end = closing + close.size();
    if (end == std::string::npos) break;
    xml.erase(at, end - at);
  }
  return xml;
}

/// Removes what a run with the private tests wrote about their text: the
/// test output in the JUnit file and the logs (compiler messages quote
/// source lines). The results stay.
void keep_only_results(const fs::path& directory, const json& roles) {
  const fs::path junit = directory / "junit" / "0.xml";
  if (fs::is_regular_file(junit))
    util::write_file_atomic(junit, without_elements(without_elements(util::read_file(junit), "system-out"), "system-err"));
  for (const char* log : {"build.log", "configure.log", "test.log"}) {
    // cargo test's output is its results (the failure messages stay).
    if (roles.value(log, std::string()) == "libtest_log") continue;
    const fs::path file = directory / log;
    if (fs::is_regular_file(file))
      util::write_file_atomic(file, "(not kept: this run built the private tests)\n");
  }
  keep_only_attempt_results(directory, roles);  // the reruns' files too
}

/// Configures, builds (keeping going past failures) and tests the tree at
/// `source` in `build`, writing its logs and JUnit under `name`/ in the
/// staging directory (roles prefixed with `name`'s role prefix). Returns the
/// manifest record of the run.
json run_tree(const Plan& plan, const CaptureRequest& request, const Sandbox& sandbox, Staging& staging,
              Progress& progress, const fs::path& source, const fs::path& build, const std::string& name,
              bool private_tests = false) {
  Plan sub = plan;
  sub.source = source;
  sub.build_dir = build;
  sub.keep_going = true;
  sub.excluded = {build};
  Staging sub_staging;
  sub_staging.directory = staging.directory / name;
  fs::create_directories(sub_staging.directory);
  bool build_passed = false;
  if (plan.config.profile == "cmake") {
    build_passed = run_build(sub, request, sandbox, sub_staging, progress).passed;
    run_tests(sub, request, sandbox, sub_staging, progress);
  } else {
    build_passed = run_profile_build_and_tests(sub, request, sandbox, sub_staging, progress);
  }
  if (private_tests) {
    keep_only_results(sub_staging.directory, sub_staging.roles);
    // Nor do the private tests' sources stay in the tree.
    util::checkout_worktree(util::work_tree_root(plan.source), plan.base_commit,
                            util::absolute_clean(build.parent_path() / "source"));
  }
  std::string role_prefix = name;
  for (auto& c : role_prefix)
    if (c == '-') c = '_';
  for (const auto& [relative, role] : sub_staging.roles.items())
    staging.add(name + "/" + relative, role_prefix + "_" + role.get<std::string>());
  if (sub_staging.manifest.contains("problems"))
    for (const auto& problem : sub_staging.manifest["problems"])
      if (problem.is_string()) staging.problem(name + " run: " + problem.get<std::string>());
  json record = {{"build_passed", build_passed},
                 {"build", sub_staging.manifest.value("build", json::object())},
                 {"steps", sub_staging.manifest.value("steps", json::array())},
                 {"junit", fs::is_regular_file(sub_staging.directory / "junit" / "0.xml") ||
                               sub_staging.roles.value("test.log", std::string()) == "libtest_log"}};
  return record;
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
      json run =
          run_tree(plan, request, sandbox, staging, progress, source, root / "held-out" / "build", "held-out", true);
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
  std::vector<Section> sections;
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
  std::set<std::string> files = baseline_files.files;
  files.insert(candidate_files.files.begin(), candidate_files.files.end());
  std::vector<std::string> globs = settings.test_file_globs;
  globs.insert(globs.end(), settings.test_paths.begin(), settings.test_paths.end());
  const auto is_test = [&](const Section& section) {
    return is_test_file(section.path, files, globs) || is_test_file(section.old_path, files, globs);
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
      record["run"] = run_tree(plan, request, sandbox, staging, progress, source, root / "held-out" / "build",
                               "held-out", private_patch.has_value());
      record["mode"] = "built";
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
      cmake ? test_names(*request.baseline_run / "ctest.json") : result_names(*request.baseline_run);
  std::vector<std::string> new_tests;
  for (const auto& name : cmake ? test_names(staging.directory / "ctest.json") : staged_result_names(staging))
    if (!baseline_tests.count(name)) new_tests.push_back(name);
  // Cases a test program's framework report lists, new in a test the baseline has.
  if (cmake)
    for (const auto& name : tests_with_new_cases(staging, *request.baseline_run))
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
      new_record["run"] =
          run_tree(plan, request, sandbox, staging, progress, source, root / "on-baseline" / "build", "on-baseline");
      new_record["mode"] = "built";
    } catch (const Error& error) {
      staging.problem(std::string("new tests on the baseline's code: ") + error.what());
      new_record["problem"] = error.what();
    }
  }
  finish(record);
}

}  // namespace hydra::capture
