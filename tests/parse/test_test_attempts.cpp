// Attempts of tests merged per identity (parse/test_attempts.hpp): the rule
// on built cases, and the real runners' reruns recorded by
// tests/fixtures/attempts/record.sh (one test fails on its first run only,
// one always passes, one always fails).
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include <hydra/parse/junit.hpp>
#include <hydra/parse/libtest.hpp>
#include <hydra/parse/test_attempts.hpp>

#include "test_paths.hpp"

using hydra::model::TestCase;
using hydra::model::TestStatus;
using hydra::parse::attempts_of;
using hydra::parse::is_flaky;
using hydra::parse::merge_attempts;
using hydra::parse::never_passed;
using Tests = std::vector<TestCase>;
using Statuses = std::vector<std::string>;

namespace {

std::filesystem::path attempt_fixture(const std::string& name) {
  return std::filesystem::path(HYDRA_FIXTURES_DIR) / "attempts" / name;
}

Tests junit(const std::string& name) { return hydra::parse::parse_junit_file(attempt_fixture(name)); }

Tests libtest(const std::string& name) { return hydra::parse::parse_libtest_file(attempt_fixture(name)).tests; }

TestCase make(const std::string& name, TestStatus status, const std::string& message = "", double seconds = 0) {
  TestCase test;
  test.suite = "s";
  test.name = name;
  test.status = status;
  test.message = message;
  test.duration_seconds = seconds;
  return test;
}

const TestCase& named(const Tests& tests, const std::string& name) {
  for (const auto& test : tests)
    if (test.name == name) return test;
  FAIL("no test named " << name);
  throw;  // unreachable
}

Statuses statuses(const TestCase& test) {
  Statuses out;
  for (const auto& attempt : attempts_of(test)) out.emplace_back(hydra::model::to_string(attempt.status));
  return out;
}

}  // namespace

TEST_CASE("attempts: passed every time passes, failed every time fails, failed then passed is flaky", "[parse][attempts]") {
  const Tests first = {make("flaky", TestStatus::failed, "first failure", 2.0), make("stable", TestStatus::passed),
                       make("broken", TestStatus::failed, "broken 1"), make("errors", TestStatus::error, "crash")};
  const Tests second = {make("flaky", TestStatus::failed, "second failure"), make("broken", TestStatus::failed, "broken 2"),
                        make("errors", TestStatus::passed)};
  const Tests third = {make("flaky", TestStatus::passed, "", 7.0), make("broken", TestStatus::failed, "broken 3")};
  const Tests merged = merge_attempts(first, {second, third});
  REQUIRE(merged.size() == 4);

  const TestCase& flaky = named(merged, "flaky");
  CHECK(flaky.status == TestStatus::passed);
  CHECK(is_flaky(flaky));
  CHECK(statuses(flaky) == Statuses{"failed", "failed", "passed"});
  CHECK(flaky.message == "first failure");   // why it failed, for the reports
  CHECK(flaky.duration_seconds == 2.0);      // the first attempt's: reruns never change a duration

  const TestCase& stable = named(merged, "stable");
  CHECK(stable.status == TestStatus::passed);
  CHECK_FALSE(is_flaky(stable));
  CHECK(stable.attempts.empty());  // it ran once
  CHECK(statuses(stable) == Statuses{"passed"});

  const TestCase& broken = named(merged, "broken");
  CHECK(broken.status == TestStatus::failed);
  CHECK_FALSE(is_flaky(broken));
  CHECK(broken.message == "broken 1");
  CHECK(statuses(broken) == Statuses{"failed", "failed", "failed"});

  // An error is a failure: error then passed is flaky too.
  CHECK(is_flaky(named(merged, "errors")));
  CHECK(named(merged, "errors").status == TestStatus::passed);

  const auto failing = never_passed(merged);
  REQUIRE(failing.size() == 1);
  CHECK(failing.front()->name == "broken");
}

TEST_CASE("attempts: skipped attempts neither pass nor fail, order and identities are the first attempt's",
          "[parse][attempts]") {
  const Tests first = {make("a", TestStatus::failed, "a failed"), make("b", TestStatus::skipped),
                       make("dup", TestStatus::passed), make("dup", TestStatus::failed, "second dup")};
  // A rerun that skips a (a name filter), runs b, both dups and a test the first attempt never ran.
  const Tests second = {make("new", TestStatus::passed), make("dup", TestStatus::passed), make("b", TestStatus::passed),
                        make("a", TestStatus::skipped), make("dup", TestStatus::passed)};
  const Tests merged = merge_attempts(first, {second});
  REQUIRE(merged.size() == 4);  // "new" is not a test of the run
  CHECK(merged[0].name == "a");
  CHECK(merged[0].status == TestStatus::failed);
  CHECK_FALSE(is_flaky(merged[0]));
  CHECK(statuses(merged[0]) == Statuses{"failed", "skipped"});
  CHECK(merged[1].name == "b");
  CHECK(merged[1].status == TestStatus::passed);  // skipped, then it ran and passed
  CHECK_FALSE(is_flaky(merged[1]));
  // The k-th occurrence of an identity merges with its k-th occurrence.
  CHECK(merged[2].status == TestStatus::passed);
  CHECK_FALSE(is_flaky(merged[2]));
  CHECK(merged[3].status == TestStatus::passed);
  CHECK(is_flaky(merged[3]));
  CHECK(merge_attempts(first, {}).size() == first.size());
}

TEST_CASE("attempts: ctest's reruns by test number, recorded", "[parse][attempts]") {
  const Tests merged = merge_attempts(junit("ctest-attempt-1.xml"), {junit("ctest-attempt-2.xml"), junit("ctest-attempt-3.xml")});
  REQUIRE(merged.size() == 3);
  const TestCase& flaky = named(merged, "attempts.fails_first_time");
  CHECK(flaky.status == TestStatus::passed);
  CHECK(is_flaky(flaky));
  CHECK(statuses(flaky) == Statuses{"failed", "passed"});  // not rerun once it passed
  const TestCase& fails = named(merged, "attempts.fails");
  CHECK(fails.status == TestStatus::failed);
  CHECK(statuses(fails) == Statuses{"failed", "failed", "failed"});
  CHECK(statuses(named(merged, "attempts.passes")) == Statuses{"passed"});
}

TEST_CASE("attempts: ctest's own --repeat until-pass keeps only the last attempt in its JUnit file",
          "[parse][attempts]") {
  // Why HydraScore reruns in a ctest call of its own per attempt: with
  // --repeat until-pass:3 ctest's JUnit file says the test that failed on its
  // first run passed, nothing more, so it could not be told from a test that
  // passed (its console shows the rerun, on a line without a counter).
  const Tests until_pass = junit("ctest-until-pass.xml");
  const TestCase& flaky = named(until_pass, "attempts.fails_first_time");
  CHECK(flaky.status == TestStatus::passed);
  CHECK_FALSE(is_flaky(flaky));
  CHECK(named(until_pass, "attempts.fails").status == TestStatus::failed);
}

TEST_CASE("attempts: pytest's --last-failed reruns, recorded", "[parse][attempts]") {
  const Tests merged =
      merge_attempts(junit("pytest-attempt-1.xml"), {junit("pytest-attempt-2.xml"), junit("pytest-attempt-3.xml")});
  REQUIRE(merged.size() == 5);
  const TestCase& flaky = named(merged, "test_fails_first_time");
  CHECK(flaky.status == TestStatus::passed);
  CHECK(is_flaky(flaky));
  CHECK(statuses(flaky) == Statuses{"failed", "passed"});
  CHECK(flaky.message.find("fails: the first run") != std::string::npos);
  CHECK(statuses(named(merged, "test_fails")) == Statuses{"failed", "failed", "failed"});
  CHECK(statuses(named(merged, "test_param[2]")) == Statuses{"failed", "failed", "failed"});
  CHECK(statuses(named(merged, "test_param[1]")) == Statuses{"passed"});
  CHECK(statuses(named(merged, "test_passes")) == Statuses{"passed"});
  CHECK(never_passed(merged).size() == 2);
}

TEST_CASE("attempts: jest's --onlyFailures reruns every test of a failing file, recorded", "[parse][attempts]") {
  const Tests first = junit("jest-attempt-1.xml");
  const Tests merged = merge_attempts(first, {junit("jest-attempt-2.xml")});
  REQUIRE(merged.size() == first.size());
  const auto find_suffix = [&](const std::string& suffix) -> const TestCase& {
    for (const auto& test : merged)
      if (test.name.size() >= suffix.size() && test.name.compare(test.name.size() - suffix.size(), suffix.size(), suffix) == 0)
        return test;
    FAIL("no test ending in " << suffix);
    throw;  // unreachable
  };
  const TestCase& flaky = find_suffix("fails first time");
  CHECK(is_flaky(flaky));
  CHECK(statuses(flaky) == Statuses{"failed", "passed"});
  CHECK(statuses(find_suffix("attempts fails")) == Statuses{"failed", "failed"});
  // Its file failed, so it ran again and passed again: not flaky.
  CHECK(statuses(find_suffix("attempts passes")) == Statuses{"passed", "passed"});
  // A file that passed is not run again.
  CHECK(statuses(find_suffix("stable passes")) == Statuses{"passed"});
}

TEST_CASE("attempts: node --test's reruns by name pattern skip the other tests, recorded", "[parse][attempts]") {
  const Tests merged = merge_attempts(junit("node-attempt-1.xml"), {junit("node-attempt-2.xml")});
  // The tests inside `describe('attempts')`: the one that always fails ran
  // again; the passing one was skipped by the pattern, which is no attempt.
  const TestCase& fails = named(merged, "fails");
  CHECK(fails.status == TestStatus::failed);
  CHECK(statuses(fails) == Statuses{"failed", "failed"});
  const TestCase& passes = named(merged, "passes");
  CHECK(passes.status == TestStatus::passed);
  CHECK_FALSE(is_flaky(passes));
  CHECK(statuses(passes) == Statuses{"passed", "skipped"});
}

TEST_CASE("attempts: cargo test's reruns with --exact, recorded", "[parse][attempts]") {
  const Tests merged = merge_attempts(libtest("libtest-attempt-1.log"), {libtest("libtest-attempt-2.log")});
  REQUIRE(merged.size() == 3);
  const TestCase& flaky = named(merged, "tests::fails_first_time");
  CHECK(is_flaky(flaky));
  CHECK(statuses(flaky) == Statuses{"failed", "passed"});
  CHECK(named(merged, "tests::fails").status == TestStatus::failed);
  CHECK(statuses(named(merged, "tests::fails")) == Statuses{"failed", "failed"});
  CHECK(statuses(named(merged, "tests::passes")) == Statuses{"passed"});
}
