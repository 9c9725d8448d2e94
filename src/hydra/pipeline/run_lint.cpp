#include <hydra/pipeline/run_lint.hpp>

#include <algorithm>
#include <cstdint>
#include <unordered_map>

#include <hydra/parse/lint_log.hpp>
#include <hydra/pipeline/artifacts.hpp>
#include <hydra/util/source_root.hpp>
#include <hydra/util/xxh64.hpp>

namespace hydra::pipeline {
namespace fs = std::filesystem;

void read_lint(const fs::path& run_dir, const model::RunManifest& typed, const std::vector<LintLog>& lint_logs,
               const std::string& build_log, bool include_compiler_warnings, model::Run& run) {
  // Lint is active when clang-tidy ran (a lint log exists); compiler warnings
  // from the build log join its findings.
  // The capture's source tree, and the checkouts `record` was given or inferred.
  std::vector<std::string> source_roots;
  if (!typed.source_root.empty()) source_roots.push_back(typed.source_root);
  for (const auto& root : typed.source_roots)
    if (!root.empty()) source_roots.push_back(root);
  // Files the build generated (lint sees them too) are named relative to
  // the build tree, "<build>/...", so that runs in other build trees agree.
  const std::string build_prefix = typed.build_dir.empty() || typed.build_dir.back() == '/'
                                       ? typed.build_dir
                                       : typed.build_dir + "/";
  auto relativize = [&](std::vector<model::LintFinding>& findings) {
    for (auto& finding : findings) {
      if (!build_prefix.empty() && finding.file().size() > build_prefix.size() &&
          finding.file().compare(0, build_prefix.size(), build_prefix) == 0) {
        finding.set_file(std::string("<build>/").append(finding.file().substr(build_prefix.size())));
        continue;
      }
      if (source_roots.empty()) continue;
      const std::string file = util::strip_source_root(finding.file(), source_roots);
      if (file != finding.file()) finding.set_file(file);
    }
  };
  if (!lint_logs.empty()) {
    std::vector<model::LintFinding> findings;
    // Kept once per (file, line, column, checks, message): a hash of those
    // points at the findings kept with it, compared field by field. (No
    // copy of the fields per finding: a flooded log has millions.)
    std::unordered_multimap<std::uint64_t, std::size_t> seen;
    const auto key_hash = [](const model::LintFinding& finding) {
      std::uint64_t hash = util::xxh64(finding.file(), finding.line() * 0x100000000ULL + finding.column());
      hash = util::xxh64(finding.joined_checks(), hash);
      return util::xxh64(finding.message(), hash);
    };
    const auto same_key = [](const model::LintFinding& left, const model::LintFinding& right) {
      return left.file() == right.file() && left.line() == right.line() && left.column() == right.column() &&
             left.joined_checks() == right.joined_checks() && left.message() == right.message();
    };
    auto merge = [&](std::vector<model::LintFinding> parsed) {
      relativize(parsed);
      seen.reserve(seen.size() + parsed.size());
      findings.reserve(findings.size() + parsed.size());
      for (auto& finding : parsed) {
        const std::uint64_t hash = key_hash(finding);
        const auto [first, last] = seen.equal_range(hash);
        if (std::any_of(first, last, [&](const auto& kept) { return same_key(findings[kept.second], finding); }))
          continue;
        seen.emplace(hash, findings.size());
        findings.push_back(std::move(finding));
      }
    };
    for (const auto& log : lint_logs) {
      LintArtifact parsed = parse_lint_artifact(log.role, run_dir / log.path);
      if (!parsed.stopped_early.empty()) run.lint_incomplete.push_back(log.path + ": " + parsed.stopped_early);
      merge(std::move(parsed.findings));
    }
    // GCC/Clang warnings: the cmake profile's build log only.
    if (include_compiler_warnings && !build_log.empty() && typed.profile == "cmake")
      merge(parse::parse_compiler_warnings_file(run_dir / build_log));
    run.lint = std::move(findings);
    run.lint_units = typed.lint_units;
    run.lint_incomplete.insert(run.lint_incomplete.end(), typed.lint_incomplete.begin(), typed.lint_incomplete.end());
  } else {
    run.lint_inactive_reason = typed.lint_inactive_reason.value_or("no lint log was recorded");
    run.lint_unavailable_outside_tree = typed.lint_unavailable_outside_tree;
  }
}

}  // namespace hydra::pipeline
