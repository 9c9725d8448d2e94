// Test levels (test_levels.hpp).
#include <hydra/guard/test_levels.hpp>

#include <map>
#include <set>

namespace hydra::guard {

using model::TestCase;
using model::TestStatus;

namespace {

/// A program-level test: ctest's own result for a test program.
bool program_level(const TestCase& test) { return test.program.empty() && test.suite == "ctest"; }

bool ran(TestStatus status) {
  return status == TestStatus::passed || status == TestStatus::failed || status == TestStatus::error;
}

/// One test for `program` from its cases (`cases` in order, none empty).
TestCase fold(const std::string& program, const std::vector<const TestCase*>& cases) {
  TestCase folded;
  folded.suite = "ctest";
  folded.name = program;
  folded.labels = cases.front()->labels;
  std::size_t ran_cases = 0;
  const TestCase* failing = nullptr;
  for (const TestCase* one : cases) {
    folded.duration_seconds += one->duration_seconds;
    if (!ran(one->status)) continue;
    ++ran_cases;
    if (one->status != TestStatus::passed && !failing) failing = one;
  }
  if (failing) {
    folded.status = TestStatus::failed;
    folded.message = "case " + failing->suite + "/" + failing->name + " " + std::string(model::to_string(failing->status)) +
                     (failing->message.empty() ? "" : ": " + failing->message);
    if (folded.message.size() > 500) folded.message.resize(500);
  } else {
    folded.status = ran_cases ? TestStatus::passed : TestStatus::skipped;
  }
  return folded;
}

}  // namespace

std::string test_label(const TestCase& test) { return test.suite == "ctest" ? test.name : test.id(); }

std::vector<TestCase> align_levels(const std::vector<TestCase>& reference, std::vector<TestCase> tests) {
  std::set<std::string> whole, with_cases;  // programs of `reference` by level
  std::map<std::string, std::vector<const TestCase*>> reference_cases;
  for (const auto& test : reference) {
    if (!test.program.empty()) {
      with_cases.insert(test.program);
      reference_cases[test.program].push_back(&test);
    } else if (program_level(test)) {
      whole.insert(test.name);
    }
  }
  std::map<std::string, std::vector<const TestCase*>> cases_of;  // programs of `tests` held as cases
  std::set<std::string> tests_whole;
  for (const auto& test : tests) {
    if (!test.program.empty()) cases_of[test.program].push_back(&test);
    else if (program_level(test)) tests_whole.insert(test.name);
  }
  std::vector<TestCase> aligned;
  aligned.reserve(tests.size());
  std::set<std::string> folded;
  for (auto& test : tests) {
    if (!test.program.empty() && whole.count(test.program) && !with_cases.count(test.program)) {
      if (folded.insert(test.program).second) aligned.push_back(fold(test.program, cases_of[test.program]));
      continue;
    }
    if (program_level(test) && with_cases.count(test.name) && !whole.count(test.name) && !cases_of.count(test.name)) {
      for (const TestCase* one : reference_cases[test.name]) {
        TestCase expanded = *one;
        expanded.status = test.status;
        expanded.message = test.message;
        expanded.duration_seconds = 0.0;
        expanded.attempts.clear();
        aligned.push_back(std::move(expanded));
      }
      continue;
    }
    aligned.push_back(std::move(test));
  }
  return aligned;
}

std::vector<std::string> private_test_identities(const model::Run& run) {
  std::set<std::string> identities;
  if (run.held_out.private_tests.empty()) return {};
  const std::vector<TestCase> none;
  const auto& held = run.held_out.tests ? *run.held_out.tests : none;
  const auto& own = run.tests ? *run.tests : none;
  std::map<std::string, TestStatus> own_status;
  for (const auto& test : own) own_status.emplace(test.id(), test.status);
  std::map<std::string, std::vector<const TestCase*>> held_cases;
  for (const auto& test : held)
    if (!test.program.empty()) held_cases[test.program].push_back(&test);
  for (const auto& name : run.held_out.private_tests) {
    const auto found = held_cases.find(name);
    if (found == held_cases.end()) {
      identities.insert(name);  // a plain test, or a program held as one test
      continue;
    }
    for (const TestCase* one : found->second) {
      const auto before = own_status.find(one->id());
      if (before == own_status.end() || before->second != one->status) identities.insert(test_label(*one));
    }
  }
  return {identities.begin(), identities.end()};
}

}  // namespace hydra::guard
