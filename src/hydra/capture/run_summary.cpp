#include <hydra/capture/run_summary.hpp>

#include <set>

#include <hydra/error.hpp>
#include <hydra/guard/test_levels.hpp>
#include <hydra/pipeline/run_dir.hpp>
#include <hydra/score/measured.hpp>
#include <hydra/score/score.hpp>
#include <hydra/score/test_comparison.hpp>

namespace hydra::capture {

namespace {

std::string build_text(const model::BuildOutcome& build) {
  if (!build.known) return build.no_step.empty() ? "build unknown" : "no build step";
  if (build.passed) return "build passed";
  const std::string why = build.reason.empty() ? "exit code " + std::to_string(build.exit_code) : build.reason;
  return (build.timed_out ? "build TIMED OUT (" : "build FAILED (") + why + ")";
}

std::string tests_text(const model::Run& run) {
  if (run.build.known && !run.build.passed) return "tests not run (the build failed)";
  if (const std::string why = score::no_test_ran(run); !why.empty()) return "NO TEST RAN (" + why + ")";
  const score::TestCounts counts = score::count_tests(run.tests);
  std::string text = "tests " + std::to_string(counts.passed) + "/" + std::to_string(counts.total) + " passed";
  std::string details;
  if (counts.total > counts.passed) details = std::to_string(counts.total - counts.passed) + " failed";
  if (counts.skipped > 0) details += (details.empty() ? "" : ", ") + std::to_string(counts.skipped) + " skipped";
  // Cases of framework programs: how many programs they come from.
  if (run.program_tests) {
    std::uint64_t with_cases = 0;
    for (const auto& program : run.test_programs) with_cases += program.report == "read" ? 1 : 0;
    const score::TestCounts programs = score::count_tests(run.program_tests);
    details += (details.empty() ? "" : "; ") + std::string("cases of ") + std::to_string(with_cases) +
               " framework program" + (with_cases == 1 ? "" : "s") + ", programs " + std::to_string(programs.passed) +
               "/" + std::to_string(programs.total) + " passed";
  }
  return details.empty() ? text : text + " (" + details + ")";
}

std::string lint_text(const model::Run& run, const config::Config& config) {
  if (!run.lint)
    return "lint did not run" + (run.lint_inactive_reason.empty() ? std::string() : " (" + run.lint_inactive_reason + ")");
  if (run.lint_units && *run.lint_units == 0) return "lint NOTHING LINTED (0 translation units)";
  std::uint64_t errors = 0;
  std::uint64_t warnings = 0;
  for (const auto& finding : score::counted_findings(config, *run.lint))
    (finding.severity() == model::Severity::error ? errors : warnings) += 1;
  std::string text = "lint " + std::to_string(errors) + (errors == 1 ? " error, " : " errors, ") +
                     std::to_string(warnings) + (warnings == 1 ? " warning" : " warnings");
  if (run.lint_units) text += " (" + std::to_string(*run.lint_units) + (*run.lint_units == 1 ? " unit)" : " units)");
  return text;
}

/// The held-out run's results beside the run's own: the baseline's tests
/// (with the private tests, when a patch is configured) on this code; for a
/// baseline, how many of its private tests fail (the acceptance tests).
std::string held_out_text(const model::Run& run) {
  const model::HeldOut& held = run.held_out;
  std::string text;
  if (held.mode == "built" && held.tests) {
    const score::TestCounts counts = score::count_tests(held.tests);
    text = "; held-out " + std::to_string(counts.passed) + "/" + std::to_string(counts.total) + " passed" +
           (held.build_passed ? "" : " (its build failed in part)");
  } else if (held.mode == "baseline" || held.mode == "candidate") {
    text = std::string("; held-out: the ") + (held.mode == "baseline" ? "baseline's" : "run's own") + " results stand";
  }
  if (held.private_test_patch_configured && !held.private_test_patch)
    text += "; private tests NOT APPLIED" +
            (held.private_test_patch_problem.empty() ? std::string() : " (" + held.private_test_patch_problem + ")");
  if (!held.private_tests.empty() && held.tests) {
    // A baseline: its private tests at the level they are scored at.
    const auto identities = guard::private_test_identities(run);
    const std::set<std::string> names(identities.begin(), identities.end());
    std::size_t failing = 0;
    for (const auto& test : *held.tests)
      if (names.count(guard::test_label(test)) && test.status != model::TestStatus::passed) ++failing;
    text += "; private tests " + std::to_string(identities.size()) + ", " + std::to_string(failing) +
            " failing here (the acceptance tests)";
  }
  return text;
}

}  // namespace

std::string run_summary(const model::Run& run, const config::Config& config) {
  return build_text(run.build) + "; " + tests_text(run) + "; " + lint_text(run, config) + held_out_text(run);
}

std::string run_summary(const std::filesystem::path& run_dir) {
  try {
    const config::Config config = pipeline::load_config(run_dir);
    return run_summary(pipeline::load(run_dir, config), config);
  } catch (const Error& error) {
    return std::string("the run could not be read back: ") + error.what();
  }
}

}  // namespace hydra::capture
