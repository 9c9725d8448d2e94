// What a project's configure decided about its build, compared between
// HydraScore's capture and a plain configure of the same tree in an
// environment that differs in everything a correct configure never needs
// (docs/threat-model.md, "Configure keyed on the capture"; the step is
// capture/configure_differential_step.hpp): the targets, the sources each
// compiles, their defines, flags and include folders, what they link, and
// the files the configure generated into the build tree. Build-tree paths
// are compared as `<build>/...` and source-tree paths as `<source>/...`: the
// plain configure reads a writable copy of the tree where a user clones it.
#pragma once

#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <hydra/model/build_targets.hpp>
#include <hydra/model/manifest.hpp>

namespace hydra::capture {

/// What one configure produced that decides what gets compiled.
struct ConfigureOutputs {
  model::BuildTargets targets;  ///< the codemodel (read_build_targets)
  std::filesystem::path build;  ///< the build tree as the configure saw it (its paths become `<build>`)
  /// Files the configure generated into the build tree (read_generated_files):
  /// path relative to the build tree -> content, build-tree path as `<build>`.
  std::map<std::string, std::string> generated;
};

/// A difference, as manifest.json's "configure_differential"/"differences" holds it.
using ConfigureDifference = model::ConfigureDifference;

/// Whether a file of the build tree (`relative` to it) is CMake's or
/// HydraScore's own rather than one the project's configure generated:
/// CMakeFiles/, the File API's .cmake/, Testing/, CMakeCache.txt, the
/// generator's and CTest's files, compile_commands.json (the codemodel
/// says the same), `.hydra*` entries. Pure.
bool is_cmake_own_file(const std::string& relative);

/// The files of `build_dir` a configure generated: every file that is not
/// CMake's own (is_cmake_own_file) and is no larger than 4 MiB, written at
/// or after `since` (a tree configured before: older files are an earlier
/// build's), or named in `also` whatever its time. Contents with
/// `seen_build` replaced by `<build>`.
std::map<std::string, std::string> read_generated_files(const std::filesystem::path& build_dir,
                                                        const std::filesystem::path& seen_build,
                                                        std::optional<std::filesystem::file_time_type> since,
                                                        const std::set<std::string>& also);

/// Text with date and clock times (2024-01-31, 12:34:56) masked: a
/// configure that stamps a generated file with the time is the same
/// configure a second later. Pure.
std::string mask_times(const std::string& text);

/// The differences between the capture's configure (`captured`) and the
/// plain one (`plain`), each under a key that says what differs without
/// naming the unit it was found in (so that a baseline's difference excuses
/// the same one in a candidate's new unit): "target NAME", "source PATH",
/// "define NAME", "flag TOKEN", "include PATH", "link FRAGMENT",
/// "dependency NAME", "artifact PATH", "generated PATH". Sorted by key,
/// one per key (the detail names the first place and how many more). Pure.
/// How a detail names the side a value is found on only (`sides.first`:
/// `captured`'s, `sides.second`: `plain`'s).
using ConfigureSides = std::pair<std::string, std::string>;
inline const ConfigureSides kCaptureAndPlain = {" only in HydraScore's capture", " only in a plain configure"};
std::vector<ConfigureDifference> compare_configures(const ConfigureOutputs& captured, const ConfigureOutputs& plain,
                                                   const ConfigureSides& sides = kCaptureAndPlain);

}  // namespace hydra::capture
