// The runs of the compiler's view (lint/compiler_view.hpp): each unit the
// change touches preprocessed by its compiler and by clang as clang-tidy
// sees it, and clang-tidy over the compiler's preprocessed text of the units
// whose added lines only the compiler compiles, or expands otherwise.
#pragma once

#include <cstddef>
#include <filesystem>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include <hydra/capture/lint/view.hpp>
#include <hydra/util/process.hpp>

namespace hydra::capture {

struct Plan;

/// Which sources include each header, from `ninja -t deps` output `deps` of
/// the build tree `build` (an object's first dependency is its source):
/// header -> sources, both absolute and clean. Pure.
std::map<std::filesystem::path, std::set<std::filesystem::path>> sources_including(std::string_view deps,
                                                                                 const std::filesystem::path& build);

/// Why clang-tidy's run `ran` on a compiler's view (`unit`, as reports name
/// it) did not lint the lines `judged` ("file:first-last"): it could not
/// parse the view (a compiler error anywhere in it: what follows may be
/// missing from its syntax tree), crashed, stopped early or timed out.
/// Empty when it linted the view whole. Pure.
std::string compiler_view_not_linted(const util::ProcessResult& ran, const std::string& unit,
                                     const std::set<std::string>& judged);

/// The clang driver that preprocesses as `clang_tidy` parses: `clang` beside
/// the resolved clang-tidy binary (the same version and resource folder),
/// else beside clang-tidy as named; empty when neither exists.
std::filesystem::path clang_beside(const std::filesystem::path& clang_tidy);

/// What the comparison needs of the lint step.
struct CompilerViewRequest {
  std::filesystem::path clang_tidy;
  std::filesystem::path scratch;  ///< emptied, then the compiler's views are written here
  /// `ninja -t deps` of the build tree (empty: changed headers reach no unit).
  std::string deps;
  /// Prepares a command to run under the lint step's sandbox policy.
  std::function<util::ProcessRequest(const std::vector<std::string>& argv)> prepare;
  double timeout_seconds = 600;
  unsigned jobs = 1;
};

/// What the comparison found.
struct CompilerViewResult {
  /// The manifest's "lint_view"/"compiler_view": `units_compared`,
  /// `compiled_not_linted`, `linted_not_compiled` and `expanded_differently`
  /// (each a list of {"file", "first", "last"}: the change's file as the diff
  /// names it and a run of its lines), `findings` (how many clang-tidy
  /// findings of the compiler's view joined the log) and `problems` (with
  /// every view clang-tidy did not lint whole).
  nlohmann::json record;
  std::string findings;  ///< clang-tidy's findings on those lines, as log text
  /// Views clang-tidy did not lint whole (it could not parse one, crashed or
  /// timed out), each naming the lines left unlinted: the lint is incomplete.
  std::vector<std::string> incomplete;
};

/// Compares, for every command of `view`'s lint database whose unit is a
/// file the change added lines to, or (at most two per header) includes
/// one, what its compiler and clang-tidy's clang compile of those lines, and
/// lints the compiler's view where they differ. Nothing runs when the change
/// adds no lines. Reads and writes files, runs processes.
CompilerViewResult lint_compiler_view(const Plan& plan, const LintView& view, const CompilerViewRequest& request);

}  // namespace hydra::capture
