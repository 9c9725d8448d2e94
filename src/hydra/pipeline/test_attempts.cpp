// Later attempts of a run's tests, read and merged (test_attempts.hpp).
#include <hydra/pipeline/test_attempts.hpp>

#include <algorithm>
#include <cctype>

#include <hydra/error.hpp>
#include <hydra/parse/test_attempts.hpp>
#include <hydra/pipeline/artifacts.hpp>
#include <hydra/util/text.hpp>

namespace hydra::pipeline {

namespace {

constexpr const char* kRerunPrefix = "rerun_";

}  // namespace

std::string attempt_role(const std::string& role) { return kRerunPrefix + role; }

std::string attempt_test_role(const std::string& role) {
  if (!util::starts_with(role, kRerunPrefix)) return {};
  const std::string inner = role.substr(std::string(kRerunPrefix).size());
  return is_test_role(inner) ? inner : std::string();
}

unsigned attempt_number(const std::string& path) {
  const std::string marker = "attempts/";
  std::size_t at = path.rfind(marker);
  if (at == std::string::npos || (at > 0 && path[at - 1] != '/')) return 0;
  at += marker.size();
  unsigned number = 0;
  std::size_t digits = 0;
  while (at < path.size() && std::isdigit(static_cast<unsigned char>(path[at])) && digits < 6) {
    number = number * 10 + static_cast<unsigned>(path[at] - '0');
    ++at;
    ++digits;
  }
  return digits > 0 && at < path.size() && path[at] == '/' ? number : 0;
}

bool AttemptArtifacts::collect(const std::string& role, const std::string& path, const std::filesystem::path& file,
                               model::Run& run, const CaseReports& cases) {
  std::vector<Attempt>* into = &own_;
  std::string inner = role;
  for (const auto& [prefix, list] : {std::make_pair(std::string("held_out_"), &held_out_),
                                     std::make_pair(std::string("on_baseline_"), &on_baseline_)}) {
    if (util::starts_with(role, prefix) && !attempt_test_role(role.substr(prefix.size())).empty()) {
      into = list;
      inner = role.substr(prefix.size());
    }
  }
  const std::string test_role = attempt_test_role(inner);
  if (test_role.empty()) return false;
  try {
    TestArtifact parsed = parse_test_artifact(test_role, file);
    TestLevels levels = cases.expand(path, std::move(parsed.tests));
    into->push_back({attempt_number(path), path, std::move(levels.cases), std::move(levels.programs)});
  } catch (const InputError& error) {
    run.integrity_problems.push_back(path + ": " + error.what());
  }
  return true;
}

void AttemptArtifacts::merge_into(model::Run& run) const {
  const auto merge = [](std::optional<std::vector<model::TestCase>>& tests,
                        std::optional<std::vector<model::TestCase>>& programs, std::vector<Attempt> attempts) {
    if (!tests || attempts.empty()) return;
    std::sort(attempts.begin(), attempts.end(), [](const Attempt& left, const Attempt& right) {
      return left.number != right.number ? left.number < right.number : left.path < right.path;
    });
    std::vector<std::vector<model::TestCase>> later, later_programs;
    for (auto& attempt : attempts) {
      later.push_back(std::move(attempt.tests));
      later_programs.push_back(std::move(attempt.programs));
    }
    tests = merge_case_attempts(std::move(*tests), later);
    if (programs) programs = parse::merge_attempts(std::move(*programs), later_programs);
  };
  merge(run.tests, run.program_tests, own_);
  merge(run.held_out.tests, run.held_out.program_tests, held_out_);
  merge(run.held_out.tests_on_baseline, run.held_out.program_tests_on_baseline, on_baseline_);
}

}  // namespace hydra::pipeline
