// Whether clang-tidy finished a translation unit (lint/completeness.hpp).
#include <hydra/capture/lint/completeness.hpp>

#include <algorithm>

#include <hydra/error.hpp>
#include <hydra/parse/lint_log.hpp>

namespace hydra::capture {
namespace fs = std::filesystem;

std::string clang_tidy_stopped_early(const util::ProcessResult& result, const std::string& unit) {
  if (!result.started) return "clang-tidy could not start on " + unit + ": " + result.error;
  if (result.timed_out) return {};  // the lint step's deadline: the step says so itself
  if (result.exit_code == 0) return {};
  if (result.exit_code > 128)
    return "clang-tidy crashed on " + unit + " (killed by signal " + std::to_string(result.exit_code - 128) + ")";
  if (result.exit_code != 1)
    return "clang-tidy stopped on " + unit + " with exit code " + std::to_string(result.exit_code);
  // Exit code 1: clang-tidy reports errors (a compile error, a check turned
  // into an error) as diagnostics; without one it failed silently.
  bool reported = false;
  try {
    const auto findings = parse::parse_clang_tidy(result.output, unit);
    reported = std::any_of(findings.begin(), findings.end(),
                           [](const model::LintFinding& finding) { return finding.severity() == model::Severity::error; });
  } catch (const InputError&) {
    reported = false;  // output that is not text: nothing was reported
  }
  return reported ? std::string() : "clang-tidy failed on " + unit + " (exit code 1) without reporting an error";
}

LintLog lint_log(const std::vector<util::ProcessResult>& results, const std::vector<fs::path>& units,
                 const fs::path& source, const LintView& view) {
  LintLog collected;
  std::string& log = collected.text;
  for (std::size_t index = 0; index < results.size(); ++index) {
    const util::ProcessResult& result = results[index];
    const std::string relative = units[index].lexically_relative(source).generic_string();
    if (std::string why = clang_tidy_stopped_early(result, relative); !why.empty())
      collected.incomplete.push_back(std::move(why));
    std::size_t dropped = 0;
    const std::string output = filter_lint_log(result.output, view.scope, &dropped);
    collected.outside_scope += dropped;
    log += output;
    if (!output.empty() && output.back() != '\n') log += '\n';
    if (result.started && result.exit_code != 0) ++collected.failed_units;
  }
  return collected;
}


}  // namespace hydra::capture
