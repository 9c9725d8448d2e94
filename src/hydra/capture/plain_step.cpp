// The test step's plain runs (plain_step.hpp).
#include <hydra/capture/plain_step.hpp>
#include <hydra/capture/core/tree_step_policy.hpp>
#include <hydra/capture/plain_git.hpp>
#include <hydra/capture/runners/listed_tests.hpp>
#include <hydra/capture/runners/plain_tests.hpp>
#include <hydra/capture/runners/rerun_commands.hpp>

#include <pwd.h>
#include <unistd.h>

#include <algorithm>
#include <random>
#include <thread>

#include <hydra/util/load_clock.hpp>

namespace hydra::capture {
namespace fs = std::filesystem;
using nlohmann::json;

PlainPlaces make_plain_policy(StepPolicy& policy, const Plan& plan, const util::TempDir& elsewhere, bool confined) {
  PlainPlaces places;
  places.temporary = elsewhere.path() / "tmp";
  const fs::path home = elsewhere.path() / "home";
  for (const fs::path& folder : {places.temporary, home}) fs::create_directories(folder);
  const struct passwd* user = ::getpwuid(::getuid());
  const std::string own_home = user && user->pw_dir ? user->pw_dir : "";
  // Only a home that exists: bubblewrap mounts over a folder that is there.
  std::error_code error;
  if (confined && fs::path(own_home).is_absolute() && fs::path(own_home).lexically_normal() != "/" &&
      fs::is_directory(own_home, error) && fs::is_directory("/tmp", error)) {
    policy.home = own_home;
    policy.temporary = "/tmp";
    policy.add(Mount::Access::read_write, policy.home, home);
    policy.add(Mount::Access::read_write, policy.temporary, places.temporary);
    policy.environment.erase("TMPDIR");
  } else {
    policy.home = home;
    policy.temporary = places.temporary;
    policy.add(Mount::Access::read_write, elsewhere.path());
    policy.environment["TMPDIR"] = policy.temporary.string();
  }
  places.seen_temporary = policy.temporary;
  policy.environment["HOME"] = policy.home.string();
  if (user) {
    if (user->pw_name && *user->pw_name) {
      policy.environment.emplace("USER", user->pw_name);
      policy.environment.emplace("LOGNAME", user->pw_name);
    }
    policy.environment.emplace("SHELL", user->pw_shell && *user->pw_shell ? user->pw_shell : "/bin/sh");
  }
  for (const auto& [variable, value] : kPlainNeutralVariables) policy.environment.emplace(variable, value);
  policy.limits.cpu_seconds.reset();
  // The user's checkout has its git repository; the judged runs see none.
  if (confined) places.git = show_clone_git(policy, plan, elsewhere.path());
  return places;
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
  const fs::path runner = request.test_launcher.front();
  StepPolicy policy = tree_step_policy(plan, "test", {plan.build_dir}, plan.build_dir / ".hydra-tmp",
                                       {plan.source, runner});
  const PlainPlaces places = make_plain_policy(policy, plan, elsewhere, sandbox.confined());
  // Process numbers from a few thousand on, as on a machine that has run
  // for a while (a PID namespace of its own starts at 1).
  std::random_device seed;
  const unsigned pid_floor = sandbox.pid_namespace ? 1000 + seed() % 3000 : 0;
  util::write_file_atomic(places.temporary / "plan.json",
                          plain_plan(tests, plan.jobs, std::max(1.0, budget * 0.9 * wall_per_counted), pid_floor).dump());
  const std::vector<std::string> argv = {runner.string(), kPlainSubcommand,
                                         (places.seen_temporary / "plan.json").string()};
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
