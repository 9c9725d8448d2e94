// Applying a scored candidate's change to the user's working tree: the diff
// its run directory stores (diff.patch, tracked and untracked files), after
// checking that the tree is clean, still at the commit the candidate was
// captured against, and that the change applies (to a temporary index first,
// so a failure never leaves a half-applied tree).
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace hydra::apply {

struct ApplyRequest {
  std::filesystem::path score_file;  ///< a score JSON written by `hydra-score score --json`
  std::string agent;                 ///< the candidate to apply; empty: the top-ranked one
  std::filesystem::path source;      ///< a directory inside the git work tree to change
  bool confirm = false;              ///< false: a dry run (check and list, write nothing)
  bool force = false;                ///< apply a candidate that is not mergeable
};

struct ApplyFile {
  std::string status;  ///< git's name-status letter: A, M, D, R (renamed), C, T
  std::string path;    ///< relative to the work tree's top (for a rename: "old -> new")
};

struct ApplyResult {
  std::string agent;
  int rank = 0;
  bool mergeable = false;
  std::vector<std::string> gate_failures;  ///< "gate: detail" of a non-mergeable candidate
  std::filesystem::path run;               ///< the candidate's run directory
  std::filesystem::path work_tree;         ///< the top of the work tree changed (or that would be)
  std::string base_commit;                 ///< the commit the candidate was captured against (= HEAD)
  std::vector<ApplyFile> files;            ///< what the change touches
  bool applied = false;                    ///< the work tree was written (confirm)
};

/// Checks, and with `confirm` applies, the candidate's stored change. Throws
/// hydra::Error: exit 2 for a score file or run directory that cannot be read
/// (naming the file) or an unknown agent, 7 for a run whose seal is broken or
/// that changed since it was scored, 3 for a candidate that is not mergeable
/// (unless `force`), 9 for a dirty tree, a base that moved since the capture,
/// or a change that does not apply. Nothing is written unless every check passed.
ApplyResult apply_candidate(const ApplyRequest& request);

}  // namespace hydra::apply
