// Attempts of tests merged per identity (test_attempts.hpp).
#include <hydra/parse/test_attempts.hpp>

#include <map>
#include <string>
#include <utility>

namespace hydra::parse {

using model::TestAttempt;
using model::TestCase;
using model::TestStatus;

namespace {

TestAttempt attempt_of(const TestCase& test) { return {test.status, test.duration_seconds, test.message}; }

/// The merged status and message of one test from its attempts (the first is
/// the test's own record).
void settle(TestCase& test) {
  const TestAttempt* first_failure = nullptr;
  bool passed = false;
  for (const auto& attempt : test.attempts) {
    passed = passed || attempt.status == TestStatus::passed;
    if (!first_failure && failed_attempt(attempt.status)) first_failure = &attempt;
  }
  if (passed && first_failure) {
    test.status = TestStatus::passed;
    test.message = first_failure->message;
  } else if (passed) {
    test.status = TestStatus::passed;
    test.message.clear();
  }
  // Failed every time it ran (or never ran): its first attempt's record stands.
}

}  // namespace

bool failed_attempt(TestStatus status) noexcept { return status == TestStatus::failed || status == TestStatus::error; }

bool is_flaky(const TestCase& test) noexcept {
  bool passed = false;
  bool failed = false;
  for (const auto& attempt : test.attempts) {
    passed = passed || attempt.status == TestStatus::passed;
    failed = failed || failed_attempt(attempt.status);
  }
  return passed && failed;
}

std::vector<TestAttempt> attempts_of(const TestCase& test) {
  if (!test.attempts.empty()) return test.attempts;
  return {attempt_of(test)};
}

std::vector<TestCase> merge_attempts(std::vector<TestCase> first, const std::vector<std::vector<TestCase>>& later) {
  if (later.empty()) return first;
  // (identity, occurrence) -> index in `first`.
  std::map<std::pair<std::string, std::size_t>, std::size_t> index;
  {
    std::map<std::string, std::size_t> seen;
    for (std::size_t at = 0; at < first.size(); ++at) {
      std::string id = first[at].id();
      const std::size_t occurrence = seen[id]++;
      index.emplace(std::make_pair(std::move(id), occurrence), at);
    }
  }
  for (const auto& attempt : later) {
    std::map<std::string, std::size_t> seen;
    for (const auto& test : attempt) {
      std::string id = test.id();
      const std::size_t occurrence = seen[id]++;
      const auto found = index.find({std::move(id), occurrence});
      if (found == index.end()) continue;  // not a test of the run's first attempt
      TestCase& merged = first[found->second];
      if (merged.attempts.empty()) merged.attempts.push_back(attempt_of(merged));
      merged.attempts.push_back(attempt_of(test));
    }
  }
  for (auto& test : first)
    if (!test.attempts.empty()) settle(test);
  return first;
}

std::vector<const TestCase*> never_passed(const std::vector<TestCase>& merged) {
  std::vector<const TestCase*> failing;
  for (const auto& test : merged)
    if (failed_attempt(test.status)) failing.push_back(&test);
  return failing;
}

}  // namespace hydra::parse
