// Held-out judgement (held_out.hpp).
#include <hydra/guard/held_out.hpp>
#include <hydra/guard/test_levels.hpp>

#include <map>
#include <set>

namespace hydra::guard {

using nlohmann::json;
using model::TestCase;
using model::TestStatus;

namespace {

/// A test's identity across runs: its suite and name (ctest's suite is
/// always "ctest"; other runners' names repeat across files).
std::string key(const TestCase& test) { return test.id(); }
std::string label(const TestCase& test) { return test_label(test); }
/// The CTest test whose files hold `test`: a case's program, else itself.
const std::string& ctest_name(const TestCase& test) { return test.program.empty() ? test.name : test.program; }

/// Which test of a duplicated identity stands for it.
enum class Prefer { failing, passing };

/// Each identity's test; of several with one identity (a runner that names
/// no file), the one `prefer` picks, by what they say and never by where they
/// stood (docs/formulas.md, "One identity, several tests"): the held-out
/// verdicts on the candidate's code prefer a failure (it can only lower the
/// candidate's result), the new tests on the baseline's code a pass (a test
/// that passes there demonstrates nothing).
std::map<std::string, const TestCase*> by_key(const std::vector<TestCase>& tests, Prefer prefer) {
  const auto better = [&](const TestCase& left, const TestCase& right) {
    const bool left_passed = left.status == TestStatus::passed;
    const bool right_passed = right.status == TestStatus::passed;
    if (left_passed != right_passed) return prefer == Prefer::passing ? left_passed : right_passed;
    if (left.status != right.status) return left.status < right.status;
    return left.message < right.message;
  };
  std::map<std::string, const TestCase*> index;
  for (const auto& test : tests) {
    auto [found, inserted] = index.emplace(key(test), &test);
    if (!inserted && better(test, *found->second)) found->second = &test;
  }
  return index;
}

/// Whether ctest could not run `test` because its program was not built.
bool not_built(const TestCase& test) {
  return test.status != TestStatus::passed &&
         (test.message.find("Unable to find executable") != std::string::npos ||
          test.message.find("Could not find executable") != std::string::npos ||
          test.message.find("Required Files Missing") != std::string::npos);
}

std::string status_text(const TestCase* test) {
  return test ? std::string(model::to_string(test->status)) : std::string("not run");
}

}  // namespace

std::optional<std::vector<TestCase>> judged_baseline_tests(const model::Run& baseline) {
  if (baseline.held_out.mode == "built" && baseline.held_out.private_test_patch && baseline.held_out.tests)
    return baseline.held_out.tests;
  return baseline.tests;
}

HeldOutJudgement judge_held_out(const model::Run& baseline, const std::vector<TestCase>& baseline_tests,
                                const model::Run& candidate) {
  HeldOutJudgement judgement;
  const model::HeldOut& held = candidate.held_out;
  // Each program at the level the baseline has it (test_levels.hpp): one
  // that built on one side only is one program on both.
  const std::vector<TestCase> own = align_levels(baseline_tests, candidate.tests ? *candidate.tests : std::vector<TestCase>());
  const std::vector<TestCase> held_tests = align_levels(baseline_tests, held.tests ? *held.tests : std::vector<TestCase>());
  const std::vector<TestCase> on_baseline_tests =
      align_levels(own, held.tests_on_baseline ? *held.tests_on_baseline : std::vector<TestCase>());
  json& evidence = judgement.evidence;
  evidence = {{"mode", held.mode}, {"reason", held.reason}, {"new_tests_mode", held.new_tests_mode}};
  if (held.mode == "none" && held.new_tests_mode == "none") {
    judgement.tests = own;
    return judgement;
  }
  const auto judged_baseline = by_key(baseline_tests, Prefer::failing);
  const std::set<std::string> baseline_own = [&] {
    std::set<std::string> names;
    if (baseline.tests)
      for (const auto& test : *baseline.tests) names.insert(key(test));
    return names;
  }();
  const auto held_out = by_key(held_tests, Prefer::failing);
  const auto on_baseline = by_key(on_baseline_tests, Prefer::passing);
  const std::set<std::string> changed(held.test_files_changed.begin(), held.test_files_changed.end());

  // A test's files the change touched (unknown files: assume touched).
  const auto touched = [&](const std::string& name) {
    const auto found = baseline.test_files.find(name);
    if (found == baseline.test_files.end()) return true;
    for (const auto& file : found->second)
      if (changed.count(file)) return true;
    return false;
  };

  json judged = json::array(), unverified = json::array(), demonstrating = json::array(),
       not_exercising = json::array(), private_tests = json::array();
  std::set<std::string> seen;
  for (const TestCase& test : own) {
    seen.insert(key(test));
    const auto in_baseline = judged_baseline.find(key(test));
    if (in_baseline != judged_baseline.end()) {
      TestCase result = test;
      const TestCase* source = &test;
      if (held.mode == "baseline") {
        source = in_baseline->second;
      } else if (held.mode == "built") {
        const auto found = held_out.find(key(test));
        // A result is a verdict unless the program was not built.
        if (found != held_out.end() && !(not_built(*found->second) && touched(ctest_name(test)))) {
          source = found->second;
        } else if (found == held_out.end() && !touched(ctest_name(test)) && held.build_passed) {
          source = &test;  // not defined in the held-out tree; its files are unchanged
        } else {
          // The baseline's test could not be built or run against the
          // change's code: a change that breaks the API the baseline's tests
          // use breaks them, so the test fails (its baseline result would
          // hide a regression behind the API change).
          const std::string why = held.build_passed ? "not run by the held-out run"
                                                    : "the baseline's version of it does not build against the change";
          unverified.push_back({{"test", label(test)}, {"why", why}});
          if (test.status == TestStatus::passed) {
            result.status = TestStatus::failed;
            result.message = "held-out: unverified, counted as failing (" + why + ")";
            judgement.tests.push_back(std::move(result));
            continue;
          }
        }
      }
      // The held-out result can only lower the candidate's own: a test that
      // fails in the candidate's tree fails whatever the held-out run says.
      if (test.status != TestStatus::passed) source = &test;
      result.status = source->status;
      result.message = source->message;
      if (source != &test && source->status != test.status)
        judged.push_back({{"test", label(test)}, {"candidate_run", status_text(&test)}, {"held_out", status_text(source)}});
      judgement.tests.push_back(std::move(result));
      continue;
    }
    // A new test: it counts when it demonstrates the change.
    if (held.new_tests_mode == "no code change") {
      not_exercising.push_back({{"test", label(test)}, {"why", "the change touches no code"}});
      continue;
    }
    if (held.new_tests_mode == "built") {
      const auto found = on_baseline.find(key(test));
      if (found != on_baseline.end() && found->second->status == TestStatus::passed) {
        not_exercising.push_back({{"test", label(test)}, {"why", "passes on the baseline's code too"}});
        continue;
      }
      demonstrating.push_back({{"test", label(test)}, {"on_baseline", status_text(found == on_baseline.end() ? nullptr : found->second)}});
    }
    judgement.tests.push_back(test);
  }
  // Private tests (and baseline tests the candidate's own run lost) that the
  // held-out run ran: judged like the baseline's own.
  for (const TestCase& test : baseline_tests) {
    if (seen.count(key(test)) || baseline_own.count(key(test))) continue;
    TestCase result = test;
    const auto found = held_out.find(key(test));
    if (held.mode == "built" && found != held_out.end()) {
      result.status = found->second->status;
      result.message = found->second->message;
    } else if (held.mode == "built") {
      result.status = TestStatus::failed;
      result.message = "private test not run by the held-out run";
    }
    private_tests.push_back({{"test", label(test)}, {"held_out", std::string(model::to_string(result.status))}});
    judgement.tests.push_back(std::move(result));
  }
  evidence["test_files_changed"] = held.test_files_changed;
  evidence["judged_by_held_out"] = std::move(judged);
  evidence["unverified"] = std::move(unverified);
  evidence["new_tests_demonstrating"] = std::move(demonstrating);
  evidence["new_tests_not_exercising"] = std::move(not_exercising);
  evidence["private_tests"] = std::move(private_tests);
  return judgement;
}

}  // namespace hydra::guard
