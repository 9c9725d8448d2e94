// The test step: list the tests, run them with JUnit output, and believe the
// JUnit file only where ctest's own console verdicts agree with it.
#include <hydra/capture/test_step.hpp>
#include <hydra/capture/plain_step.hpp>
#include <hydra/capture/runners/attempt_state.hpp>
#include <hydra/capture/runners/test_attempts.hpp>
#include <hydra/capture/runners/launcher_differential.hpp>
#include <hydra/capture/cmake/test_files.hpp>
#include <hydra/capture/runners/case_reports.hpp>
#include <hydra/capture/cmake/codemodel.hpp>
#include <hydra/capture/cmake/object_references.hpp>
#include <hydra/capture/runners/test_frameworks.hpp>
#include <hydra/capture/runners/listed_tests.hpp>
#include <hydra/capture/runners/witness.hpp>
#include <hydra/capture/core/tree_step_policy.hpp>

#include <cctype>
#include <map>
#include <optional>
#include <set>
#include <thread>

#include <hydra/error.hpp>
#include <hydra/util/load_clock.hpp>
#include <hydra/util/process_launch.hpp>
#include <hydra/parse/build_targets.hpp>
#include <hydra/parse/junit.hpp>
#include <hydra/util/files.hpp>
#include <hydra/util/git.hpp>

namespace hydra::capture {
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

/// ctest's own per-test verdicts from its console output
/// ("  3/12 Test  #3: name ......   Passed    0.01 sec"): name -> passed.
/// Test programs cannot write here: ctest captures their output.
std::map<std::string, bool> ctest_console_verdicts(const std::string& log) {
  std::map<std::string, bool> verdicts;
  std::size_t start = 0;
  while (start < log.size()) {
    std::size_t end = log.find('\n', start);
    if (end == std::string::npos) end = log.size();
    const std::string_view line(log.data() + start, end - start);
    start = end + 1;
    const auto test = line.find(" Test ");
    const auto hash = line.find('#', test == std::string_view::npos ? 0 : test);
    const auto colon = line.find(": ", hash == std::string_view::npos ? 0 : hash);
    if (test == std::string_view::npos || hash == std::string_view::npos || colon == std::string_view::npos) continue;
    if (line.find('/') == std::string_view::npos || line.find('/') > test) continue;
    std::string_view rest = line.substr(colon + 2);
    const auto dots = rest.find(" .");
    const auto stars = rest.find("***");
    const auto name_end = std::min(dots, stars);
    if (name_end == std::string_view::npos) continue;
    std::string_view name = rest.substr(0, name_end);
    while (!name.empty() && name.back() == ' ') name.remove_suffix(1);
    const std::string_view verdict = rest.substr(name_end);
    verdicts[std::string(name)] =
        verdict.find("***") == std::string_view::npos && verdict.find(" Passed") != std::string_view::npos;
  }
  return verdicts;
}

/// Cross-checks `tests` (the JUnit file) with ctest's console verdicts; a
/// JUnit file that disagrees (a test wrote or altered it) is reported, never believed.
std::vector<std::string> junit_disagreements(const std::vector<model::TestCase>& tests, const std::string& console) {
  std::vector<std::string> problems;
  const auto verdicts = ctest_console_verdicts(console);
  std::set<std::string> seen;
  for (const auto& test : tests) {
    seen.insert(test.name);
    const auto it = verdicts.find(test.name);
    if (it == verdicts.end()) {
      problems.push_back("JUnit lists test \"" + test.name + "\" that ctest did not report running");
    } else if (it->second != (test.status == model::TestStatus::passed)) {
      problems.push_back("JUnit says test \"" + test.name + "\" " + std::string(model::to_string(test.status)) +
                         " but ctest reported it " + (it->second ? "passed" : "not passed"));
    }
  }
  for (const auto& [name, passed] : verdicts)
    if (!seen.count(name)) problems.push_back("ctest ran test \"" + name + "\" but the JUnit file does not list it");
  return problems;
}

std::optional<std::string> ctest_progress(std::string_view line) {
  // "  3/12 Test  #3: name ......   Passed    0.01 sec"
  std::size_t i = 0;
  while (i < line.size() && line[i] == ' ') ++i;
  const std::size_t digits_start = i;
  while (i < line.size() && std::isdigit(static_cast<unsigned char>(line[i]))) ++i;
  if (i == digits_start || i >= line.size() || line[i] != '/') return std::nullopt;
  const std::size_t slash = i++;
  const std::size_t total_start = i;
  while (i < line.size() && std::isdigit(static_cast<unsigned char>(line[i]))) ++i;
  if (i == total_start || line.substr(i, 6) != " Test ") return std::nullopt;
  return std::string(line.substr(digits_start, slash - digits_start)) + "/" +
         std::string(line.substr(total_start, i - total_start)) + " tests";
}

/// Lists the tree's tests under the sandbox (ctest --show-only=json-v1) and
/// records what the listing tells: which files hold the tests, shadowing
/// headers, what the objects reference and which programs write their
/// framework's report. Returns the listed tests (listed_tests.hpp); unset
/// when the listing failed (a problem of the run): ctest then reads the tree.
std::optional<std::string> list_tests(const Plan& plan, const CaptureRequest& request, const Sandbox& sandbox,
                                      Staging& staging) {
  const fs::path build_dir = plan.build_dir;
  const fs::path seen_build = plan.seen(build_dir);  // where the steps see it
  // ctest reads the tree's CTestTestfile.cmake files, which are CMake code
  // of the tree: listed under the sandbox like every step that runs it.
  std::vector<std::string> list_argv = {plan.ctest.string(), "--test-dir", seen_build.string(), "--show-only=json-v1"};
  if (!request.build_config.empty()) list_argv.insert(list_argv.end(), {"-C", request.build_config});
  // Listing runs the tree's code too: CTest includes the scripts test
  // properties name (TEST_INCLUDE_FILES; gtest_discover_tests runs the test
  // programs from one).
  const StepPolicy list_policy = tree_step_policy(plan, "test list", {build_dir}, build_dir / ".hydra-tmp", {plan.source});
  util::ProcessRequest list = sandbox.request(list_policy, list_argv);
  list.separate_stderr = true;
  list.keep_output_bytes = std::size_t(1) << 30;
  list.timeout = std::chrono::seconds(120);
  const auto listed = util::run_process(list);
  std::optional<std::string> listed_tests;
  if (listed.started && listed.exit_code == 0) {
    staging.write("ctest.json", listed.output, "ctest_json");
    // Which files hold the tests (test_files.hpp): the held-out runs of later
    // captures take them from the other side of the change.
    json listed_json;
    try {
      listed_json = json::parse(listed.output);
    } catch (const json::exception&) {
      listed_json = json::object();  // the publish step reports the malformed ctest.json
    }
    std::vector<std::string> unwritable;
    listed_tests = listed_tests_file(listed_json, unwritable);
    for (const auto& problem : unwritable) staging.problem(problem);
    // The targets as configure left them (build_step.cpp); the paths are as the steps see them.
    model::BuildTargets targets;
    try {
      targets = parse::parse_build_targets_file(staging.directory / "build-targets.json");
    } catch (const Error& error) {
      targets.problem = error.what();
    }
    const fs::path top = plan.in_git ? util::work_tree_root(plan.source) : plan.source;
    const TestFiles own_files = find_test_files(targets, plan.seen(plan.source), seen_build, plan.seen(top),
                                                listed_json, header_users(build_dir));
    staging.write("test-files.json", own_files.to_json().dump(1) + "\n", "test_files");
    // Headers of the tree that shadow a system or standard header for
    // whatever includes them (docs/threat-model.md, "Code under test
    // vouching for itself"): scoring compares them with the baseline's.
    json shadowing = json::array();
    for (const auto& found : shadowing_headers(build_dir, plan.seen(plan.source), seen_build))
      shadowing.push_back({{"header", found.header}, {"shadows", found.shadows}});
    staging.manifest["shadowing_headers"] = std::move(shadowing);
    // What the code's objects reference of process control and
    // self-inspection (object_references.hpp): scoring compares it with the
    // baseline's. Tests may use anything; the baseline decides which files
    // are tests, as in the held-out runs.
    record_object_references(plan, request, own_files, staging);
    // Which programs write their framework's report, before any of them runs.
    write_test_program_plan(listed.output, request, staging);
  } else {
    const std::string said = listed.error_output + listed.error;
    staging.problem("ctest --show-only=json-v1 failed: " + said.substr(0, said.find('\n')));
  }

  return listed_tests;
}

}  // namespace

TestResult run_tests(const Plan& plan, const CaptureRequest& request, const Sandbox& sandbox, Staging& staging,
                     Progress& progress) {
  TestResult result;
  staging.manifest["tests_expected"] = true;
  const double timeout = plan.budget.seconds(plan.config.test_timeout_seconds);
  const fs::path build_dir = plan.build_dir;
  const fs::path seen_build = plan.seen(build_dir);  // where the steps see it
  fs::create_directories(staging.directory / "junit");

  // The tests that run are the ones listed (listed_tests.hpp); unset when
  // the listing failed (a problem of the run): ctest then reads the tree.
  const std::optional<std::string> listed_tests = list_tests(plan, request, sandbox, staging);

  // One ctest run of the tests (`selection`: which ones; every test when
  // empty): the first below, and the later attempts of test_attempts.hpp.
  // `plain`: without HydraScore's launcher (launcher_differential.hpp).
  const auto ctest_run = [&](const std::vector<std::string>& selection, const fs::path& junit_file,
                             const fs::path& log, double budget, const std::string& step, bool plain) {
    // ctest stops a hanging test at 90% of the step's budget, so it still
    // writes JUnit with that test failed; the step timeout below is the
    // backstop. ctest counts wall time: on a machine busier than it has
    // processors its limit grows as the step's budget does (load_clock.hpp).
    const double wall_per_counted =
        1.0 / util::counted_share(util::machine_load(), std::max(1u, std::thread::hardware_concurrency()));
    // Written afresh for every run: a test program of an earlier run may
    // have written anything in the build tree.
    std::string listing = listed_tests ? *listed_tests : std::string();
    if (listed_tests && plain) {
      // Each test in a session of its own (launcher_differential.hpp).
      std::vector<std::string> prefix;
      if (const auto setsid = util::launch::find_on_path("setsid", "/usr/bin:/bin"))
        prefix = {setsid->string(), std::string("--wait")};
      std::vector<std::string> unwritable;
      listing = listed_tests_file(
          plain_listing(json::parse(util::read_file(staging.directory / "ctest.json"), nullptr, false), prefix),
          unwritable);
    }
    const fs::path test_dir = listed_tests ? plan.seen(write_listed_tests(build_dir, listing)) : seen_build;
    std::vector<std::string> argv = {plan.ctest.string(), "--test-dir", test_dir.string(), "--output-junit",
                                     junit_file.string(), "--parallel", std::to_string(plan.jobs),
                                     "--timeout", std::to_string(std::max(1, int(budget * 0.9 * wall_per_counted)))};
    if (!request.build_config.empty()) argv.insert(argv.end(), {"-C", request.build_config});
    argv.insert(argv.end(), selection.begin(), selection.end());
    // The framework reports of this run go beside its JUnit file; the
    // launcher and its plan stay readable where the sandbox hides folders
    // (the run directories, /tmp, home folders). The source tree is read-only.
    const fs::path reports = junit_file.parent_path() / kCaseReportsFolder;
    const std::map<std::string, std::string> launch =
        plain ? std::map<std::string, std::string>() : case_report_environment(staging, reports);
    std::vector<fs::path> readable = {plan.source};
    if (!launch.empty()) {
      readable.push_back(launch.at(kTestProgramsVariable));
      if (!request.test_launcher.empty()) {
        readable.push_back(request.test_launcher.front());
        // The verdict witness the launcher preloads into the programs (witness.hpp).
        if (const auto witness = find_witness_library(request.test_launcher.front())) readable.push_back(*witness);
      }
    }
    StepPolicy policy =
        tree_step_policy(plan, "test", {build_dir, junit_file.parent_path()}, build_dir / ".hydra-tmp", readable);
    for (const auto& [variable, value] : launch) policy.environment[variable] = value;
    // The plain run's HOME and TMPDIR outside the build tree, more
    // variables and no CPU-seconds limit (plain_step.hpp).
    std::optional<util::TempDir> elsewhere;
    if (plain) make_plain_policy(policy, plan, elsewhere.emplace("tmp"), sandbox.confined());
    util::ProcessRequest process = sandbox.request(policy, argv);
    process.output_file = log;
    process.timeout = std::chrono::duration<double>(budget);
    process.on_line = [&](std::string_view line) {
      if (auto text = ctest_progress(line)) progress.detail(*text);
    };
    const auto ran = util::run_process(process);
    staging.step(step_record(step, argv, ran, budget, policy));
    if (!plain) add_case_reports(staging, reports);
    return ran;
  };
  const CtestRun run_ctest = [&](const std::vector<std::string>& selection, const fs::path& junit_file,
                                 const fs::path& log, double budget, const std::string& step) {
    return ctest_run(selection, junit_file, log, budget, step, false);
  };
  const fs::path junit = staging.directory / "junit" / "0.xml";
  // The build tree every attempt starts from (attempt_state.hpp): ctest's
  // own logs, the held-out trees (build trees of their own) and lint's
  // folder (lint may be running beside the tests; no test sees it) left out.
  const BuildTreeState start = record_build_tree(
      build_dir, {build_dir / ".hydra", build_dir / "Testing" / "Temporary", build_dir / kLintFolder});
  progress.start("test");
  const auto tested = run_ctest({}, junit, staging.directory / "test.log", timeout, "test");
  staging.add("test.log", "test_log");
  result.ran = tested.started;
  result.timed_out = tested.timed_out;
  result.exit_code = tested.exit_code;
  if (tested.timed_out) {
    staging.incomplete("test", "test step timed out after " + std::to_string(int(timeout)) + " s; process group killed");
    std::error_code ignored;
    fs::remove(junit, ignored);  // a partial JUnit would under-count failures
  }
  if (fs::is_regular_file(junit) && !tested.timed_out) {
    // A JUnit file that does not parse is kept and marked unparsable by the
    // publish step; only a parsed one can be cross-checked.
    std::vector<model::TestCase> tests;
    bool parsed = true;
    try {
      tests = parse::parse_junit_file(junit);
    } catch (const InputError&) {
      parsed = false;
    }
    if (parsed)
      for (auto& problem : junit_disagreements(tests, util::read_file(staging.directory / "test.log")))
        staging.problem(problem);
  }
  result.junit_written = fs::is_regular_file(junit);
  if (result.junit_written) staging.add("junit/0.xml", "junit");
  else if (!tested.timed_out)
    staging.problem("ctest wrote no JUnit file (exit code " + std::to_string(tested.exit_code) + ")");
  progress.finish(tested.timed_out ? "TIMED OUT" : (tested.exit_code == 0 ? "all passed" : "some failed"));
  // Reruns of failing tests, repeats of a baseline's suite.
  if (result.junit_written && !tested.timed_out) run_ctest_attempts(plan, request, staging, progress, run_ctest, [&] { return restore_build_tree(start); });
  // The tests the launcher caught rewriting their verdict (scoring judges
  // them against the baseline's).
  if (result.junit_written) staging.manifest["tampering_caught"] = caught_tampering(staging.directory);
  // The tests this run improves, once more without the launcher. Only a
  // listed run can be run plain: its commands are HydraScore's to rewrite.
  if (result.junit_written && !tested.timed_out && listed_tests)
    run_launcher_differential(plan, staging, progress, [&](const std::vector<std::string>& names,
                                                           const fs::path& log, double budget, const std::string& step) {
      const auto restore = [&] { restore_build_tree(start); };
      return run_plain_tests_step(plan, request, sandbox, staging, names, log, budget, step, restore,
                                  [&](const std::vector<std::string>& selection, const fs::path& ctest_log,
                                      double ctest_budget, const std::string& ctest_step) {
        // ctest's own JUnit file of the plain run is not kept: its console says the results.
        const fs::path junit_file = ctest_log.parent_path() / (ctest_log.stem().string() + ".xml");
        const auto ran = ctest_run(selection, junit_file, ctest_log, ctest_budget, ctest_step, true);
        std::error_code ignored;
        fs::remove(junit_file, ignored);
        return ran;
      });
    });
  return result;
}

}  // namespace hydra::capture
