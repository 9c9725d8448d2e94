// Lint reads what the build compiled (docs/threat-model.md, "The scorer's
// git", lint that never sees the code): clang-tidy runs after the build and
// reads the trees as they are then, so every input an object of a unit lint
// reads was compiled from (Ninja's deps log, `ninja -t deps`) must still be
// there, unchanged since that object was compiled. An input that is gone,
// or whose modification time is later than the object's as Ninja recorded
// it when the compile finished, was written after the compile (a post-build
// step that deletes or rewrites a header the unit included): the unit lint
// sees is not the one the build compiled. "Later" reads the input's
// status-change time too, which no step can set back. The check stats each
// input (no hashing, no process but `ninja -t deps`).
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include <hydra/capture/core/staging.hpp>

namespace hydra::capture {

/// Where HydraScore finds `seen`, a path as the build's steps saw it: the
/// inverse of seen_path over `tree_mounts` (step_policy.hpp). Pure.
std::filesystem::path host_path(const std::vector<Mount>& tree_mounts, const std::filesystem::path& seen);

/// One entry of `ninja -t deps`: an object, the modification time Ninja
/// recorded for it when its compile finished, and the files it read.
struct NinjaDepsEntry {
  std::string object;
  std::int64_t recorded = 0;  ///< nanoseconds since the epoch (seconds with Ninja before 1.9)
  std::vector<std::string> inputs;
};

/// The entries of `ninja -t deps` output ("<object>: #deps N, deps mtime T
/// (VALID)" then one indented path a line). Pure.
std::vector<NinjaDepsEntry> parse_ninja_deps(std::string_view deps);

/// What a file is now: whether it is looked at (inside the trees), whether
/// it exists, and when it last changed in nanoseconds (the later of its
/// modification and status-change times: a step can set the first back,
/// not the second).
struct FileTime {
  bool checked = false;
  bool exists = false;
  std::int64_t modified = 0;
};

/// What changed of one object's compile since it ran.
struct AlteredCompile {
  std::vector<std::string> changed;  ///< inputs modified after the object was compiled
  std::vector<std::string> missing;  ///< inputs that are gone
  bool object_rewritten = false;     ///< the object itself is gone or was written after its compile
  bool any() const { return object_rewritten || !changed.empty() || !missing.empty(); }
};

/// Whether `time` is later than Ninja's `recorded` time (nanoseconds, or
/// whole seconds when `recorded` is below 10^12: Ninja before 1.9). Pure.
bool later_than_recorded(std::int64_t time, std::int64_t recorded);

/// `entry`'s inputs that are gone or newer than its recorded time, and
/// whether its object is, by `time_of` (a file as the deps log names it ->
/// what it is now). Inputs not checked are skipped. Pure given `time_of`.
AlteredCompile altered_compile(const NinjaDepsEntry& entry, const std::function<FileTime(const std::string&)>& time_of);

/// Checks, before lint, the objects of the Ninja build tree of `plan` whose
/// inputs include one of `units` (absolute, clean) and records
/// manifest.json's `compiled_inputs` ({"objects_checked": N, "altered":
/// [{"object", "units", "changed", "missing", "object_rewritten"}]} or
/// {"problem": why}); an altered compile of a candidate is a problem.
void check_compiled_inputs(const Plan& plan, const std::vector<std::filesystem::path>& units,
                           const std::optional<std::string>& deps, Staging& staging);

/// The time a file made now gets (its status-change time, in the
/// nanoseconds the file system keeps), from a file `marker` written now.
std::optional<std::int64_t> file_system_now(const std::filesystem::path& marker);

/// Whether every compile of Ninja's deps log whose inputs include one of
/// `units` read only files of the trees that have not been modified or
/// status-changed since `since` (file_system_now), every unit is such a
/// compile's input, and each of `also` is as old: nothing lint read of them
/// since `since` was written. False without a deps log.
bool unchanged_since(const Plan& plan, const std::vector<std::filesystem::path>& units,
                     const std::optional<std::string>& deps, std::int64_t since,
                     const std::vector<std::filesystem::path>& also);

/// The same check once more, after the steps run beside lint ended
/// (lint_step.hpp, LintBeside), against the deps log read before they
/// started (a step may write the build tree, its deps log too). Adds the
/// problems it finds anew to `staging` and replaces `compiled_inputs`.
/// Whether no compile lint read was altered at all: only then may lint keep
/// what it found in the lint cache (the first check ran beside those steps
/// too, so a file it saw altered may have been altered again since).
bool recheck_compiled_inputs(const Plan& plan, const std::vector<std::filesystem::path>& units,
                             const std::optional<std::string>& deps, Staging& staging);

}  // namespace hydra::capture
