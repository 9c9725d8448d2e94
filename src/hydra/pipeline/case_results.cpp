// Test cases of framework programs (case_results.hpp).
#include <hydra/pipeline/case_results.hpp>

#include <algorithm>
#include <set>

#include <nlohmann/json.hpp>

#include <hydra/error.hpp>
#include <hydra/parse/junit.hpp>
#include <hydra/parse/test_attempts.hpp>
#include <hydra/util/files.hpp>
#include <hydra/util/text.hpp>

namespace hydra::pipeline {
namespace fs = std::filesystem;
using model::TestCase;
using model::TestStatus;
using nlohmann::json;

namespace {

/// The role without a held-out run's or a later attempt's prefix.
std::string base_role(std::string role) {
  for (const char* prefix : {"held_out_", "on_baseline_"})
    if (util::starts_with(role, prefix)) role = role.substr(std::string(prefix).size());
  if (util::starts_with(role, "rerun_")) role = role.substr(6);
  return role;
}

std::string display_name(const std::string& framework) {
  if (framework == "googletest") return "GoogleTest";
  if (framework == "catch2") return "Catch2";
  return framework;
}

/// "failed", or ctest's words for a test that did not pass ("Failed", "Timeout").
std::string ctest_said(const TestCase& test) {
  if (test.status == TestStatus::passed) return "it passed";
  return test.message.empty() ? "it failed" : "it failed: " + test.message;
}

/// `path`'s folder with a trailing '/' ("junit/0.xml" -> "junit/"); "" at the top.
std::string folder_of(const std::string& path) {
  const auto slash = path.rfind('/');
  return slash == std::string::npos ? std::string() : path.substr(0, slash + 1);
}

}  // namespace

bool CaseReports::is_case_role(const std::string& role) {
  const std::string base = base_role(role);
  return base == "test_programs" || base == "case_report" || base == "case_launch";
}

CaseReports::CaseReports(const fs::path& run_dir, const std::map<std::string, std::string>& artifacts, model::Run& run)
    : run_dir_(run_dir), artifacts_(artifacts) {
  for (const auto& [path, role] : artifacts) {
    if (base_role(role) != "test_programs") continue;
    Plan plan;
    plan.scope = folder_of(path);
    try {
      const std::string text = util::read_file(run_dir / path);
      const json document = json::parse(text);
      for (const auto& program : document.at("programs")) {
        plan.by_test[program.at("test").get<std::string>()] = {program.at("framework").get<std::string>(),
                                                               program.at("key").get<std::string>()};
      }
    } catch (const json::exception& error) {
      run.integrity_problems.push_back(path + ": not a test-program plan: " + error.what());
      continue;
    } catch (const Error& error) {
      run.integrity_problems.push_back(path + ": " + error.what());
      continue;
    }
    plans_.push_back(std::move(plan));
  }
  // The innermost scope first: held-out/'s plan before the run's own.
  std::sort(plans_.begin(), plans_.end(),
            [](const Plan& left, const Plan& right) { return left.scope.size() > right.scope.size(); });
}

const CaseReports::Plan* CaseReports::plan_for(const std::string& junit_path) const {
  for (const auto& plan : plans_) {
    if (!util::starts_with(junit_path, plan.scope)) continue;
    // The run's own plan does not reach into a held-out run's folder.
    const std::string rest = junit_path.substr(plan.scope.size());
    if (util::starts_with(rest, "held-out/") || util::starts_with(rest, "on-baseline/")) continue;
    return &plan;
  }
  return nullptr;
}

TestLevels CaseReports::expand(const std::string& junit_path, std::vector<TestCase> tests,
                               std::vector<model::TestProgram>* programs) const {
  TestLevels levels;
  const Plan* plan = plan_for(junit_path);
  if (!plan) {
    levels.programs = tests;
    levels.cases = std::move(tests);
    return levels;
  }
  const std::string reports = folder_of(junit_path) + "cases/";
  const auto listed = [&](const std::string& path, const char* role) {
    const auto found = artifacts_.find(path);
    return found != artifacts_.end() && base_role(found->second) == role;
  };
  for (auto& test : tests) {
    const auto planned = test.suite == "ctest" ? plan->by_test.find(test.name) : plan->by_test.end();
    const bool ran = test.status == TestStatus::passed || test.status == TestStatus::failed;
    if (planned == plan->by_test.end() || !ran) {
      levels.cases.push_back(test);
      levels.programs.push_back(std::move(test));
      continue;
    }
    levels.planned = true;
    const std::string framework = planned->second.framework;
    const std::string name = display_name(framework);
    model::TestProgram program;
    program.test = test.name;
    program.framework = framework;
    program.exit_passed = test.status == TestStatus::passed;
    const std::string report = reports + planned->second.key + ".xml";
    std::vector<TestCase> cases;
    // A report its program opened and never wrote (Catch2 and doctest open
    // theirs first) is no report.
    const std::string text = listed(report, "case_report") ? util::read_file(run_dir_ / report) : std::string();
    const bool written = text.find_first_not_of(" \t\r\n") != std::string::npos;
    if (!written) {
      program.report = "missing";
      program.detail = listed(reports + planned->second.key + ".launch", "case_launch")
                           ? "the program wrote no " + name + " report (it exited before its reporter ran); ctest: " +
                                 ctest_said(test)
                           : "no " + name + " report: HydraScore's test launcher did not run the program; ctest: " +
                                 ctest_said(test);
    } else {
      try {
        const auto dialect = parse::junit_dialect_from_string(framework).value_or(parse::JunitDialect::generic);
        cases = parse::parse_junit(text, report, dialect);
        program.cases = cases.size();
        program.failed_cases = static_cast<std::uint64_t>(std::count_if(
            cases.begin(), cases.end(), [](const TestCase& one) { return parse::failed_attempt(one.status); }));
        if (cases.empty()) {
          program.report = "empty";
          program.detail = "its " + name + " report lists no case";
        } else if (program.failed_cases == 0 && !program.exit_passed) {
          program.report = "contradicted";
          program.detail = "its " + name + " report lists no failed case, but ctest says " + ctest_said(test);
        } else {
          program.report = "read";
          if (program.failed_cases > 0 && program.exit_passed)
            program.detail = "it exited with success although its " + name + " report lists " +
                             std::to_string(program.failed_cases) + " failed case(s)";
        }
      } catch (const InputError& error) {
        program.report = "unparsable";
        program.detail = "its " + name + " report does not parse: " + error.what() + "; ctest: " + ctest_said(test);
      }
    }
    if (program.report == "read") {
      for (auto& one : cases) {
        one.program = test.name;
        levels.cases.push_back(std::move(one));
      }
      if (program.failed_cases > 0) {
        test.status = TestStatus::failed;
        test.message = std::to_string(program.failed_cases) + " of " + std::to_string(program.cases) +
                       " cases failed (its " + name + " report)";
      }
      levels.programs.push_back(std::move(test));
    } else {
      if (program.report != "empty") {
        test.status = TestStatus::failed;
        test.message = program.detail;
      }
      levels.cases.push_back(test);
      levels.programs.push_back(std::move(test));
    }
    if (programs) programs->push_back(std::move(program));
  }
  return levels;
}

std::vector<TestCase> merge_case_attempts(std::vector<TestCase> first, const std::vector<std::vector<TestCase>>& later) {
  // Programs that gave cases in the first attempt, and the first later
  // attempt's cases of every other program.
  std::set<std::string> with_cases;
  for (const auto& test : first)
    if (!test.program.empty()) with_cases.insert(test.program);
  std::map<std::string, std::vector<const TestCase*>> later_cases;
  for (const auto& attempt : later) {
    std::map<std::string, std::vector<const TestCase*>> in_attempt;
    for (const auto& test : attempt)
      if (!test.program.empty() && !with_cases.count(test.program)) in_attempt[test.program].push_back(&test);
    for (auto& [program, cases] : in_attempt) later_cases.emplace(program, std::move(cases));  // the earliest wins
  }
  if (!later_cases.empty()) {
    std::vector<TestCase> expanded;
    for (auto& test : first) {
      const auto found = test.suite == "ctest" && test.program.empty() ? later_cases.find(test.name) : later_cases.end();
      if (found == later_cases.end() || !parse::failed_attempt(test.status)) {
        expanded.push_back(std::move(test));
        continue;
      }
      // The program failed as a whole in this attempt: so did each case.
      for (const TestCase* one : found->second) {
        TestCase failed = *one;
        failed.status = test.status;
        failed.message = test.message;
        failed.attempts.clear();
        expanded.push_back(std::move(failed));
      }
    }
    first = std::move(expanded);
  }
  return parse::merge_attempts(std::move(first), later);
}

void label_cases(std::vector<TestCase>& tests, const std::vector<model::TestDefinition>& definitions) {
  std::map<std::string, const std::vector<std::string>*> labels;
  for (const auto& definition : definitions) labels.emplace(definition.name, &definition.labels);
  for (auto& test : tests) {
    if (test.program.empty()) continue;
    if (const auto found = labels.find(test.program); found != labels.end()) test.labels = *found->second;
  }
}

void select_test_level(model::Run& run, config::Tests::Granularity granularity) {
  if (granularity != config::Tests::Granularity::program) return;
  const auto use = [](std::optional<std::vector<TestCase>>& tests, std::optional<std::vector<TestCase>>& programs) {
    if (programs) tests = std::move(programs);
    programs.reset();
  };
  use(run.tests, run.program_tests);
  use(run.held_out.tests, run.held_out.program_tests);
  use(run.held_out.tests_on_baseline, run.held_out.program_tests_on_baseline);
}

}  // namespace hydra::pipeline
