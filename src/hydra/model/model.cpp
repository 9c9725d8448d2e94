#include <hydra/model/diff.hpp>
#include <hydra/model/lint.hpp>
#include <hydra/model/test.hpp>

namespace hydra::model {

std::string_view to_string(TestStatus status) noexcept {
  switch (status) {
    case TestStatus::passed: return "passed";
    case TestStatus::failed: return "failed";
    case TestStatus::error: return "error";
    case TestStatus::skipped: return "skipped";
    case TestStatus::disabled: return "disabled";
  }
  return "failed";
}

std::optional<TestStatus> test_status_from_string(std::string_view text) noexcept {
  for (auto status : {TestStatus::passed, TestStatus::failed, TestStatus::error,
                      TestStatus::skipped, TestStatus::disabled}) {
    if (to_string(status) == text) return status;
  }
  return std::nullopt;
}

std::string_view to_string(Severity severity) noexcept {
  return severity == Severity::error ? "error" : "warning";
}

std::uint64_t DiffSummary::lines_added() const {
  std::uint64_t total = 0;
  for (const auto& file : files) total += file.added;
  return total;
}

std::uint64_t DiffSummary::lines_removed() const {
  std::uint64_t total = 0;
  for (const auto& file : files) total += file.removed;
  return total;
}

std::uint64_t DiffSummary::whitespace_only_churn() const {
  std::uint64_t total = 0;
  for (const auto& file : files) total += file.whitespace_only_added + file.whitespace_only_removed;
  return total;
}

std::uint64_t DiffSummary::files_created() const {
  std::uint64_t total = 0;
  for (const auto& file : files) total += file.created ? 1 : 0;
  return total;
}

}  // namespace hydra::model
