// What the plain runs show of git (plain_git.cpp): a user's clone has a
// `.git` folder at its top, the capture's steps see none (the worktree's
// `.git` is a file, hidden like the rest of what no diff shows). Code that
// reads its own clone (`.git/HEAD` found from `__FILE__`, a build-time
// script) behaves in the capture as in no user's checkout; the plain runs
// (the plain configure of the configure differential, the plain runs of the
// tests) show a git repository of HydraScore's own making at the tree's
// top, so that such code differs between the judged and the plain run
// (docs/threat-model.md, "Configure and tests keyed on the capture").
#pragma once

#include <filesystem>
#include <string>

#include <hydra/capture/core/plan.hpp>
#include <hydra/capture/sandbox/step_policy.hpp>

namespace hydra::capture {

/// Writes at `git` a git directory as a fresh clone of `repository` has it:
/// HEAD on branch main at `commit`, an index read from that commit (so
/// `git status` finds the checkout clean), the tags of `repository`, and an
/// objects folder that reaches the repository's objects through
/// objects/info/alternates (the sandbox shows the repository's objects
/// there instead: bwrap may hide the alternate's path). Written by
/// HydraScore with its hardened git (util/git.hpp): no hook, configuration
/// or attribute of the repository or the tree is read. Returns the
/// repository's objects folder; empty when there is none (nothing written
/// then).
std::filesystem::path make_clone_git(const std::filesystem::path& repository, const std::string& commit,
                                     const std::filesystem::path& git);

/// Shows, in `policy` (a plain run's, under bubblewrap), the top of
/// `plan`'s work tree as a fresh clone has it: a `.git` folder (make_clone_git
/// in `scratch`, at `plan.source_commit`, read-only, with the repository's
/// objects read-only inside it) in place of what the capture's steps see
/// there. bubblewrap cannot mount a folder over the worktree's `.git` file:
/// the top becomes an empty read-only folder with each of its entries bound
/// back read-only from the tree (a symbolic link as itself), and every
/// mount `policy` already has at or inside the top (hidden ignored files,
/// writable build trees) still applies over them. Does nothing outside git,
/// without a commit, or when the repository has no objects folder; returns
/// whether it showed one.
bool show_clone_git(StepPolicy& policy, const Plan& plan, const std::filesystem::path& scratch);

}  // namespace hydra::capture
