// Pure functions of the improvement loop (docs/loop.md): eval
// cases and their pass rates, the mean pass rate, keep/revert, convergence
// classes, and the loop report. Scores are exact (util::Exact): keep/revert
// and convergence never depend on floating-point rounding. No I/O.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include <hydra/model/test.hpp>
#include <hydra/util/exact.hpp>

namespace hydra::loop {

/// Schema identifier of the loop report.
inline constexpr const char* report_schema = "hydra-score/loop/1";
/// The note every loop report carries.
inline constexpr const char* noise_note = "Differences under 0.05 may be noise.";

/// One eval case: a CTest label (or a JUnit suite when no test has a label)
/// whose expectations are its tests.
struct EvalCase {
  std::string name;
  int passed = 0;  ///< tests with status "passed"
  int total = 0;   ///< every test but disabled ones (skipped tests count, unpassed)
  /// passed / total, exactly; 0 without expectations.
  util::Exact exact_pass_rate() const { return total > 0 ? util::Exact::ratio(passed, total) : util::Exact(0); }
  /// The same, for display.
  double pass_rate() const { return exact_pass_rate().to_double(); }
};

/// The eval cases of `tests`, sorted by name. When any test has a label,
/// each label is a case (a test with several labels counts in each; tests
/// without a label form the case "(unlabelled)"); otherwise each suite is a
/// case. Disabled tests are not expectations; a case with none is left out.
std::vector<EvalCase> eval_cases(const std::vector<model::TestCase>& tests);

/// mean(pass_rate) over `cases`, each case weighted equally, exactly; 0 when empty.
util::Exact mean_pass_rate(const std::vector<EvalCase>& cases);

/// Keep is strictly better: `score` > `best_score`, exactly (a tie is a revert).
bool is_kept(const util::Exact& score, const util::Exact& best_score);

enum class Action { baseline, keep, revert };
/// "baseline", "keep", "revert".
std::string_view to_string(Action action) noexcept;
/// Inverse of to_string; nullopt for anything else.
std::optional<Action> action_from_string(std::string_view text) noexcept;

/// One finished iteration (a row of results.tsv).
struct Iteration {
  int number = 0;
  std::string timestamp;  ///< UTC, ISO 8601 ("2024-05-01T12:00:00Z")
  util::Exact score;
  util::Exact best_score;  ///< best after this iteration's decision
  Action action = Action::baseline;
  std::string changelog;  ///< one line: what the improver says it changed, or why it was reverted
};

/// Number of trailing consecutive reverts in `iterations`.
int trailing_reverts(const std::vector<Iteration>& iterations);

/// Why the loop stops after `iterations` (iteration 0 first), or nullopt
/// while it should go on: "converged" once the best score reaches 1 (exactly),
/// "stuck" after `stuck_after` consecutive reverts, and after
/// `max_iterations` improvement iterations "improved" when the last one was
/// kept (the best was still rising), else "plateau".
std::optional<std::string> stop_reason(const std::vector<Iteration>& iterations, int max_iterations,
                                       int stuck_after);

/// results.tsv: a header line (iteration, timestamp, score, best_score,
/// action, changelog) and one row per iteration; scores rounded to 6
/// decimals; tabs and line breaks in changelogs become spaces.
std::string results_tsv(const std::vector<Iteration>& iterations);

/// The loop report (schema "hydra-score/loop/1"): classification,
/// best_score, iterations, kept/reverted counts, the best state's `cases`,
/// the noise note, plus "metric" and "best_iteration". Scores are written as
/// the nearest doubles.
nlohmann::json loop_report(const std::string& classification, const std::vector<Iteration>& iterations,
                           const std::vector<EvalCase>& best_cases, std::string_view metric,
                           int best_iteration);

/// A short terminal summary of `report` (a loop report).
std::string render_summary(const nlohmann::json& report);

}  // namespace hydra::loop
