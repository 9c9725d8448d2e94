// More attempts of a capture's tests (test_attempts.hpp).
#include <hydra/capture/runners/test_attempts.hpp>
#include <hydra/capture/runners/rerun_commands.hpp>

#include <algorithm>
#include <set>
#include <system_error>

#include <pugixml.hpp>

#include <hydra/error.hpp>
#include <hydra/parse/test_attempts.hpp>
#include <hydra/pipeline/artifacts.hpp>
#include <hydra/pipeline/test_attempts.hpp>
#include <hydra/util/files.hpp>

namespace hydra::capture {
namespace fs = std::filesystem;
using model::TestCase;
using nlohmann::json;

namespace {

/// The attempts of one test step: numbered from 2 (the step's own run is
/// attempt 1), each in attempts/<k>/ of the staging directory, and the
/// manifest's "test_attempts" record of them.
class AttemptRecorder {
 public:
  AttemptRecorder(Staging& staging, std::vector<TestCase> first, int attempts, int repeats)
      : staging_(staging), first_(std::move(first)) {
    record_ = {{"attempts", attempts}, {"baseline_repeat", repeats}, {"runs", json::array()}};
  }

  /// The next attempt's number.
  unsigned upcoming() const { return last_ + 1; }
  /// Starts the next attempt: its number; its folder exists.
  unsigned next() {
    ++last_;
    fs::create_directories(staging_.directory / folder(last_));
    return last_;
  }
  /// "attempts/<k>/" (relative to the run directory).
  static std::string folder(unsigned number) { return "attempts/" + std::to_string(number) + "/"; }
  fs::path path(unsigned number, const std::string& file) const { return staging_.directory / folder(number) / file; }

  /// Records attempt `number` (`kind` "repeat" or "rerun" of the tests
  /// `names`, every test when empty): `results` (relative) were believed
  /// with `tests`, or it was `discarded` and why.
  void add(unsigned number, const std::string& kind, const std::vector<std::string>& names,
           const util::ProcessResult& result, const std::string& results, std::vector<TestCase> tests,
           const std::string& discarded) {
    json run = {{"attempt", number},
                {"kind", kind},
                {"tests", names.empty() ? json("all") : json(names)},
                {"exit_code", result.started ? result.exit_code : 127},
                {"seconds", result.seconds},
                {"timed_out", result.timed_out}};
    if (discarded.empty()) {
      run["results"] = results;
      later_.push_back(std::move(tests));
    } else {
      run["discarded"] = discarded;
    }
    record_["runs"].push_back(std::move(run));
  }
  void note(const std::string& text) { record_["notes"].push_back(text); }

  /// The tests that failed in every attempt so far.
  std::vector<TestCase> never_passed() const {
    std::vector<TestCase> failing;
    const auto merged = parse::merge_attempts(first_, later_);
    for (const TestCase* test : parse::never_passed(merged)) failing.push_back(*test);
    return failing;
  }

  void finish() { staging_.manifest["test_attempts"] = record_; }

 private:
  Staging& staging_;
  std::vector<TestCase> first_;
  std::vector<std::vector<TestCase>> later_;
  unsigned last_ = 1;
  json record_;
};

/// How many attempts a capture makes: repeats of the whole suite for a
/// baseline's capture only.
struct AttemptCounts {
  int attempts = 1;
  int repeats = 1;
};
AttemptCounts attempt_counts(const Plan& plan, const CaptureRequest& request) {
  return {plan.config.tests.attempts, request.baseline_run ? 1 : plan.config.tests.baseline_repeat};
}

/// What ctest's console and an attempt's JUnit file disagree on; empty when they agree.
std::string ctest_disagreement(const std::vector<TestCase>& tests, const std::string& console) {
  const auto verdicts = ctest_console_results(console);
  std::set<std::string> seen;
  for (const auto& test : tests) {
    seen.insert(test.name);
    const auto found = verdicts.find(test.name);
    if (found == verdicts.end()) return "JUnit lists test \"" + test.name + "\" that ctest did not report running";
    if (found->second.passed != (test.status == model::TestStatus::passed))
      return "JUnit says test \"" + test.name + "\" " + std::string(model::to_string(test.status)) +
             " but ctest reported it " + (found->second.passed ? "passed" : "not passed");
  }
  for (const auto& [name, verdict] : verdicts)
    if (!seen.count(name)) return "ctest ran test \"" + name + "\" but the JUnit file does not list it";
  return {};
}

/// "2 tests: 1 passed" for the progress line.
std::string outcome(const std::vector<TestCase>& tests, const std::string& discarded) {
  if (!discarded.empty()) return "not believed";
  const auto passed = std::count_if(tests.begin(), tests.end(),
                                    [](const TestCase& test) { return test.status == model::TestStatus::passed; });
  return std::to_string(passed) + " of " + std::to_string(tests.size()) + " passed";
}

std::vector<std::string> names_of(const std::vector<TestCase>& tests) {
  std::vector<std::string> names;
  for (const auto& test : tests) names.push_back(test.selector.empty() ? test.name : test.selector);
  return names;
}

}  // namespace

void run_ctest_attempts(const Plan& plan, const CaptureRequest& request, Staging& staging, Progress& progress,
                        const CtestRun& run_ctest, const BuildTreeRestore& restore) {
  const AttemptCounts counts = attempt_counts(plan, request);
  if (counts.attempts <= 1 && counts.repeats <= 1) return;
  const fs::path first_junit = staging.directory / "junit" / "0.xml";
  if (!fs::is_regular_file(first_junit)) return;
  std::vector<TestCase> first;
  try {
    first = pipeline::parse_test_artifact("junit", first_junit).tests;
  } catch (const InputError&) {
    return;  // the publish step marks it unparsable: nothing to run again
  }
  // Test names -> numbers, which `-I` selects exactly.
  const auto numbers = ctest_console_results(util::read_file(staging.directory / "test.log"));
  AttemptRecorder recorder(staging, std::move(first), counts.attempts, counts.repeats);
  const double timeout = plan.budget.seconds(plan.config.test_timeout_seconds);

  const auto run_one = [&](const std::string& kind, const std::vector<unsigned>& selected,
                           const std::vector<std::string>& names, double budget) {
    const unsigned number = recorder.next();
    const std::string folder = AttemptRecorder::folder(number);
    const fs::path junit = recorder.path(number, "junit.xml");
    const fs::path log = recorder.path(number, "test.log");
    // Every attempt starts from the build tree the first one started from.
    const std::vector<std::string> lost = restore ? restore() : std::vector<std::string>();
    progress.start(kind);
    const util::ProcessResult result = run_ctest(ctest_selection(selected), junit, log, budget, "test " + kind);
    staging.add(folder + "test.log", pipeline::attempt_role("test_log"));
    std::vector<TestCase> tests;
    std::string discarded;
    if (result.timed_out) {
      discarded = "timed out after " + std::to_string(int(budget)) + " s";
    } else if (!fs::is_regular_file(junit)) {
      discarded = "ctest wrote no JUnit file (exit code " + std::to_string(result.exit_code) + ")";
    } else {
      try {
        tests = pipeline::parse_test_artifact("junit", junit).tests;
        discarded = ctest_disagreement(tests, util::read_file(log));
      } catch (const InputError& error) {
        discarded = std::string("its JUnit file does not parse: ") + error.what();
      }
    }
    if (!lost.empty()) {
      std::string what;
      for (std::size_t index = 0; index < lost.size() && index < 5; ++index) what += (index ? ", " : "") + lost[index];
      if (lost.size() > 5) what += ", ...";
      const std::string sentence =
          "an earlier attempt changed files of the build tree in place, which HydraScore cannot put back (" + what + ")";
      // A candidate's attempt that did not start where its first one did
      // is not believed; a baseline's is, and the note says why.
      if (request.baseline_run && discarded.empty()) discarded = sentence;
      else recorder.note("attempt " + std::to_string(number) + ": " + sentence);
    }
    // A discarded attempt's files stay in the run (role "other"), unread.
    if (discarded.empty()) staging.add(folder + "junit.xml", pipeline::attempt_role("junit"));
    recorder.add(number, kind, names, result, folder + "junit.xml", tests, discarded);
    progress.finish(outcome(tests, discarded));
    return result.seconds;
  };

  for (int repeat = 2; repeat <= counts.repeats; ++repeat) run_one("repeat", {}, {}, timeout);
  double left = timeout;  // the reruns together get one more test timeout
  for (int attempt = 2; attempt <= counts.attempts; ++attempt) {
    std::vector<unsigned> selected;
    std::vector<std::string> names;
    for (const auto& test : recorder.never_passed()) {
      const auto found = numbers.find(test.name);
      if (found == numbers.end()) continue;  // not a ctest test of this tree's listing
      selected.push_back(found->second.number);
      names.push_back(test.name);
    }
    if (selected.empty()) break;
    if (left < 1) {
      recorder.note("no time left for rerun " + std::to_string(attempt) + " of the failing tests");
      break;
    }
    std::sort(selected.begin(), selected.end());
    selected.erase(std::unique(selected.begin(), selected.end()), selected.end());
    left -= run_one("rerun", selected, names, left);
  }
  recorder.finish();
}

fs::path rerun_cache_directory(const Plan& plan) { return plan.build_dir / ".hydra-attempts"; }

StepCommand prepare_test_step(const Plan& plan, const ProfileContext& context, StepCommand first) {
  const fs::path cache = rerun_cache_directory(plan);
  std::error_code error;
  fs::remove_all(cache, error);  // what a rerun reads is this capture's alone
  fs::create_directories(cache, error);
  return prepare_first_attempt(context, std::move(first), cache);
}

void run_profile_attempts(const Plan& plan, const CaptureRequest& request, const ProfileContext& context,
                          const std::string& command, const StepCommand& first, Staging& staging, Progress& progress,
                          const ProfileTestRun& run_test) {
  const AttemptCounts counts = attempt_counts(plan, request);
  if (counts.attempts <= 1 && counts.repeats <= 1) return;
  const bool to_file = first.source == ResultSource::file;
  const fs::path first_results = to_file ? first.result_file : staging.directory / "test.log";
  if (!fs::is_regular_file(first_results)) return;
  std::vector<TestCase> first_tests;
  try {
    first_tests = pipeline::parse_test_artifact(first.role, first_results).tests;
  } catch (const InputError&) {
    return;  // the publish step marks it unparsable
  }
  AttemptRecorder recorder(staging, std::move(first_tests), counts.attempts, counts.repeats);
  const fs::path cache = rerun_cache_directory(plan);
  const double timeout = plan.budget.seconds(plan.config.test_timeout_seconds);
  const RerunKind kind = rerun_kind(context, first);
  if (kind == RerunKind::none && counts.attempts > 1)
    recorder.note("the test command names its own results file: HydraScore knows no way to rerun its failing tests");

  // `make` builds the attempt's command for its results file. Returns the
  // attempt's seconds; nullopt when there is no command to run.
  const auto run_one = [&](const std::string& what, const std::vector<std::string>& names, double budget,
                           const std::function<std::optional<StepCommand>(const fs::path&)>& make)
      -> std::optional<double> {
    const std::string folder = AttemptRecorder::folder(recorder.upcoming());
    const fs::path results = recorder.path(recorder.upcoming(), to_file ? "junit.xml" : "test.log");
    const fs::path log = recorder.path(recorder.upcoming(), "test.log");
    std::optional<StepCommand> step;
    try {
      step = make(results);
    } catch (const Error& error) {
      recorder.note(std::string("no ") + what + ": " + error.what());
      return std::nullopt;
    }
    if (!step) return std::nullopt;
    const unsigned number = recorder.next();
    const util::ProcessResult result = run_test(*step, log, budget, "test " + what);
    std::vector<TestCase> tests;
    std::string discarded;
    if (result.timed_out) {
      discarded = "timed out after " + std::to_string(int(budget)) + " s";
    } else if (!fs::is_regular_file(results)) {
      discarded = "the test command wrote no results (exit code " + std::to_string(result.exit_code) + ")";
    } else {
      try {
        tests = pipeline::parse_test_artifact(first.role, results).tests;
        const auto failing = std::count_if(tests.begin(), tests.end(),
                                           [](const TestCase& test) { return parse::failed_attempt(test.status); });
        // As for the first run: exit status and results must agree.
        if (result.exit_code == 0 && failing > 0)
          discarded = "the test command exited 0, but its results list " + std::to_string(failing) + " failing tests";
        else if (result.exit_code != 0 && failing == 0)
          discarded = "the test command failed (exit code " + std::to_string(result.exit_code) +
                      "), but its results list no failing test";
      } catch (const InputError& error) {
        discarded = std::string("its results do not parse: ") + error.what();
      }
    }
    if (to_file) {
      staging.add(folder + "test.log", pipeline::attempt_role("test_log"));
      if (discarded.empty()) staging.add(folder + "junit.xml", pipeline::attempt_role(first.role));
    } else {
      // cargo test's output is its results.
      staging.add(folder + "test.log", pipeline::attempt_role(discarded.empty() ? first.role : "test_log"));
    }
    recorder.add(number, what, names, result, folder + (to_file ? "junit.xml" : "test.log"), tests, discarded);
    progress.finish(outcome(tests, discarded));
    return result.seconds;
  };

  for (int repeat = 2; repeat <= counts.repeats; ++repeat) {
    const auto ran = run_one("repeat", {}, timeout, [&](const fs::path& results) -> std::optional<StepCommand> {
      return prepare_first_attempt(context, test_command(context, command, results), cache);
    });
    if (!ran) break;
  }
  if (kind == RerunKind::none) return recorder.finish();
  double left = timeout;  // the reruns together get one more test timeout
  for (int attempt = 2; attempt <= counts.attempts; ++attempt) {
    const std::vector<std::string> names = names_of(recorder.never_passed());
    if (names.empty()) break;
    if (left < 1) {
      recorder.note("no time left for rerun " + std::to_string(attempt) + " of the failing tests");
      break;
    }
    const auto ran = run_one("rerun", names, left, [&](const fs::path& results) {
      return rerun_command(context, command, results, cache, names);
    });
    if (!ran) break;
    left -= *ran;
  }
  recorder.finish();
}

void keep_only_attempt_results(const fs::path& directory, const json& roles) {
  for (const auto& [path, role] : roles.items()) {
    if (!role.is_string()) continue;
    const std::string name = role.get<std::string>();
    const fs::path file = directory / path;
    if (name == pipeline::attempt_role("test_log")) {
      util::write_file_atomic(file, "(not kept: this run built the private tests)\n");
    } else if (name == pipeline::attempt_role("junit")) {
      pugi::xml_document document;
      if (!document.load_file(file.c_str())) continue;
      std::vector<pugi::xml_node> outputs;
      for (const char* element : {"system-out", "system-err"})
        for (const auto& found : document.select_nodes((std::string("//") + element).c_str()))
          outputs.push_back(found.node());
      for (auto& node : outputs) node.parent().remove_child(node);
      document.save_file(file.c_str(), "  ");
    }
  }
}

}  // namespace hydra::capture
