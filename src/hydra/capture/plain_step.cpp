// The test step's plain runs (plain_step.hpp).
#include <hydra/capture/plain_step.hpp>
#include <hydra/capture/core/tree_step_policy.hpp>
#include <hydra/capture/runners/listed_tests.hpp>
#include <hydra/capture/runners/plain_tests.hpp>
#include <hydra/capture/runners/rerun_commands.hpp>

#include <algorithm>
#include <thread>

#include <hydra/util/load_clock.hpp>

namespace hydra::capture {
namespace fs = std::filesystem;
using nlohmann::json;

void make_plain_policy(StepPolicy& policy, const util::TempDir& elsewhere) {
  policy.home = elsewhere.path() / "home";
  policy.temporary = elsewhere.path() / "tmp";
  for (const fs::path& folder : {policy.home, policy.temporary}) fs::create_directories(folder);
  policy.add(Mount::Access::read_write, elsewhere.path());
  policy.environment["HOME"] = policy.home.string();
  policy.environment["TMPDIR"] = policy.temporary.string();
  for (const auto& [variable, value] : kPlainNeutralVariables) policy.environment.emplace(variable, value);
  policy.limits.cpu_seconds.reset();
}

namespace {

/// The plain runner's run of `tests`, its result lines written to `log`.
util::ProcessResult run_plain_runner(const Plan& plan, const CaptureRequest& request, const Sandbox& sandbox,
                                     Staging& staging, const std::vector<PlainTest>& tests, const fs::path& log,
                                     double budget, const std::string& step) {
  // A test without a TIMEOUT of its own gets ctest's (test_step.cpp): 90%
  // of the budget, grown on a machine busier than it has processors.
  const double wall_per_counted =
      1.0 / util::counted_share(util::machine_load(), std::max(1u, std::thread::hardware_concurrency()));
  const util::TempDir elsewhere("tmp");
  const fs::path plan_file = elsewhere.path() / "plan.json";
  util::write_file_atomic(plan_file, plain_plan(tests, plan.jobs, std::max(1.0, budget * 0.9 * wall_per_counted)).dump());
  const fs::path runner = request.test_launcher.front();
  StepPolicy policy = tree_step_policy(plan, "test", {plan.build_dir}, plan.build_dir / ".hydra-tmp",
                                       {plan.source, runner});
  make_plain_policy(policy, elsewhere);
  const std::vector<std::string> argv = {runner.string(), kPlainSubcommand, plan_file.string()};
  util::ProcessRequest process = sandbox.request(policy, argv);
  process.output_file = log;
  process.timeout = std::chrono::duration<double>(budget);
  const auto ran = util::run_process(process);
  staging.step(step_record(step, argv, ran, budget, policy));
  return ran;
}

}  // namespace

PlainOutcome run_plain_tests_step(const Plan& plan, const CaptureRequest& request, const Sandbox& sandbox,
                                  Staging& staging, const std::vector<std::string>& names, const fs::path& log,
                                  double budget, const std::string& step, const std::function<void()>& restore,
                                  const CtestPlainRun& ctest_plain) {
  PlainOutcome outcome;
  const json listing = plain_listing(json::parse(util::read_file(staging.directory / "ctest.json"), nullptr, false));
  PlainSelection selection = select_plain_tests(listing, names);
  // A test without a working directory of its own runs where ctest runs it
  // in the judged run: the folder of the listed tests' CTestTestfile.cmake.
  for (auto& test : selection.direct)
    if (test.working_directory.empty())
      test.working_directory = plan.seen(plan.build_dir / kListedTestsFolder).string();
  if (request.test_launcher.empty()) {
    // No program of HydraScore's to run them with: ctest runs them all.
    for (const auto& test : selection.direct) selection.ctest.push_back(test.name);
    selection.direct.clear();
  }
  util::write_file_atomic(log, "");
  if (!selection.direct.empty()) {
    restore();
    const auto ran = run_plain_runner(plan, request, sandbox, staging, selection.direct, log, budget, step);
    outcome.timed_out = ran.timed_out;
    outcome.results = plain_results(util::read_file(log));
  }
  if (!selection.ctest.empty()) {
    const auto numbers = ctest_console_results(util::read_file(staging.directory / "test.log"));
    std::vector<unsigned> selected;
    for (const auto& name : selection.ctest)
      if (const auto found = numbers.find(name); found != numbers.end()) selected.push_back(found->second.number);
    std::sort(selected.begin(), selected.end());
    if (selected.empty()) return outcome;
    restore();
    const fs::path ctest_log = fs::path(log).replace_extension(".ctest.log");
    const auto ran = ctest_plain(ctest_selection(selected), ctest_log, budget, step + " (ctest)");
    staging.add(fs::relative(ctest_log, staging.directory).generic_string(), kPlainLogRole);
    outcome.timed_out = outcome.timed_out || ran.timed_out;
    for (const auto& [name, result] : ctest_console_results(util::read_file(ctest_log)))
      if (std::find(selection.ctest.begin(), selection.ctest.end(), name) != selection.ctest.end())
        outcome.results[name] = result.passed ? "passed" : "failed";
  }
  return outcome;
}

}  // namespace hydra::capture
