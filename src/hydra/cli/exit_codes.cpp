#include <hydra/cli/exit_codes.hpp>

#include <algorithm>

#include <CLI/CLI.hpp>

#include <hydra/error.hpp>

namespace hydra::cli {

namespace {

template <class Kind>
bool is(const std::exception& error) {
  return dynamic_cast<const Kind*>(&error) != nullptr;
}

bool is_usage(const std::exception& error) {
  return is<UsageError>(error) || is<InputError>(error) || is<CLI::ParseError>(error);
}

}  // namespace

const std::array<ExitCodeRow, 10>& exit_code_table() {
  static constexpr std::array<ExitCodeRow, 10> table = {{
      {ExitCode::success, "success", "success (score: the top candidate is mergeable; compare: improved)", nullptr},
      {ExitCode::internal, "internal", "internal error (a bug, or the environment)", nullptr},
      {ExitCode::usage, "usage", "bad usage, or an unreadable or malformed input file", &is_usage},
      {ExitCode::not_mergeable, "not-mergeable",
       "score: the top-ranked candidate is not mergeable; apply: the candidate is not mergeable (no --force)",
       &is<NotMergeable>},
      {ExitCode::regressed, "regressed", "compare: regressed", nullptr},
      {ExitCode::neutral, "neutral", "compare: neutral (no meaningful change; never promotes)", nullptr},
      {ExitCode::mismatch, "mismatch", "replay: re-scoring gave different output", nullptr},
      {ExitCode::tampered, "tampered", "a run directory's sealed artifacts do not match their digests",
       &is<Tampered>},
      {ExitCode::step_failed, "step-failed", "capture/loop: a step could not be run", &is<StepFailed>},
      {ExitCode::refused, "refused",
       "apply: refused (the working tree has changes, its base moved, or the change does not apply)", &is<Refused>},
  }};
  return table;
}

std::string exit_code_help() {
  std::size_t width = 0;
  for (const auto& row : exit_code_table()) width = std::max(width, row.name.size());
  std::string text = "Exit codes:";
  for (const auto& row : exit_code_table()) {
    text += "\n  " + std::to_string(status(row.code)) + "  " + std::string(row.name) +
            std::string(width - row.name.size() + 2, ' ') + std::string(row.meaning);
  }
  return text;
}

ExitCode exit_code_of(const std::exception& error) noexcept {
  for (const auto& row : exit_code_table())
    if (row.raised_by && row.raised_by(error)) return row.code;
  return ExitCode::internal;
}

ExitCode exit_code_of(eval::Verdict verdict) noexcept {
  switch (verdict) {
    case eval::Verdict::improved: return ExitCode::success;
    case eval::Verdict::neutral: return ExitCode::neutral;
    case eval::Verdict::regressed: return ExitCode::regressed;
  }
  return ExitCode::regressed;
}

Failure failure_of(const std::exception_ptr& failure) {
  try {
    std::rethrow_exception(failure);
  } catch (const std::exception& error) {
    return {exit_code_of(error), error.what()};
  } catch (...) {
    return {ExitCode::internal, "unknown exception"};
  }
}

}  // namespace hydra::cli
