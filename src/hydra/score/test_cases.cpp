// Test cases and new tests in the tests dimension (test_cases.hpp).
#include <hydra/score/test_cases.hpp>

#include <algorithm>

namespace hydra::score {

namespace {

bool ran(model::TestStatus status) {
  return status == model::TestStatus::passed || status == model::TestStatus::failed ||
         status == model::TestStatus::error;
}

}  // namespace

Dilution dilution_of(const TestComparison& comparison, const util::Exact& pass_rate,
                     const util::Exact& new_test_bonus, bool guarded) {
  std::uint64_t added_passed = 0, added_ran = 0;
  for (const auto& test : comparison.changes.added) {
    added_passed += test.status == model::TestStatus::passed ? 1 : 0;
    added_ran += ran(test.status) ? 1 : 0;
  }
  const auto& a = comparison.candidate;
  Dilution dilution;
  const std::uint64_t kept_total = a.total > added_ran ? a.total - added_ran : 0;
  const std::uint64_t kept_passed = a.passed > added_passed ? a.passed - added_passed : 0;
  dilution.kept_pass_rate = kept_total == 0 ? pass_rate : util::Exact::ratio(kept_passed, kept_total);
  dilution.gain = std::max(util::Exact(0), (pass_rate - dilution.kept_pass_rate) * 100);
  if (guarded) dilution.cut = std::max(util::Exact(0), dilution.gain + new_test_bonus - kNewTestPointsCap);
  return dilution;
}

void add_granularity_evidence(const config::Config& config, const model::Run& baseline, const model::Run& candidate,
                              nlohmann::json& evidence) {
  const bool program = config.tests.granularity == config::Tests::Granularity::program;
  evidence["granularity"] = program ? "program" : "case";
  if (!baseline.program_tests && !candidate.program_tests) return;
  const auto counts = [](const model::Run& run) {
    const auto& tests = run.program_tests ? run.program_tests : run.tests;
    return count_tests(tests);
  };
  const TestCounts b = counts(baseline), a = counts(candidate);
  evidence["programs"] = {{"B_pass", b.passed}, {"B_total", b.total}, {"A_pass", a.passed}, {"A_total", a.total}};
  std::uint64_t with_cases = 0;
  for (const auto& test_program : candidate.test_programs) with_cases += test_program.report == "read" ? 1 : 0;
  evidence["case_programs"] = with_cases;
}

}  // namespace hydra::score
