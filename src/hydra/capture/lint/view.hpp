// The lint view: what clang-tidy reads and which of its findings count, so
// that the code under test never judges itself (docs/threat-model.md):
//  - suppressions the change added (NOLINT, NOLINTNEXTLINE, NOLINTBEGIN/END,
//    `#pragma ... diagnostic ignored`, `#pragma ... system_header`, GNU line
//    markers and `#line`), in any changed file whatever its name, are
//    removed from stripped copies of the files that clang-tidy reads through
//    a VFS overlay at their real paths; `-w`/`-Wno-*` flags the change added
//    are removed from a copy of the compile database;
//  - the configuration is the baseline's .clang-tidy (`--config-file`) or
//    clang-tidy's defaults (`--config={}`), never a file of the tree, so a
//    nested .clang-tidy has no effect;
//  - every header is reported (`--header-filter=.*`) and the log keeps the
//    findings of files inside the source tree and outside the excluded
//    (build) trees, whatever the project's HeaderFilterRegex says.
// The guard (guard::find_added_suppression_markers) decides what was added;
// the suppressions stay listed in the run's evidence.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include <hydra/capture/lint/database.hpp>
#include <hydra/guard/guard.hpp>

namespace hydra::capture {

struct Plan;

/// `content` with the suppressions of `on_lines` (guard records of this file;
/// `line` 1-based) made inert, line count and columns unchanged: NOLINT
/// markers (with their check lists) become spaces; a `#pragma` line of kind
/// "pragma ..." and a line of kind "line marker" (`# 12 "file" 3`, `#line`)
/// become blank, as does a `_Pragma("...")`/`__pragma(...)` of
/// such a kind. Lines of other kinds are left as they are. Pure.
std::string strip_suppressions(std::string_view content, const std::vector<guard::Suppression>& on_lines);

/// The warning-silencing compile flags of added suppression lines of kinds
/// "-w" and "-Wno-*" ("-w", "-Wno-unused-variable", ...), sorted, unique. Pure.
std::vector<std::string> added_warning_flags(const std::vector<guard::Suppression>& suppressions);

/// `compile_commands` with every argument equal to one of `flags` removed
/// from "arguments" lists and from "command" strings. Pure.
nlohmann::json without_flags(const nlohmann::json& compile_commands, const std::vector<std::string>& flags);

/// The suppressions (NOLINT markers, diagnostic and system_header pragmas,
/// line markers: the detector's kinds, every line read as added) of the
/// files of `built_files` the project generated in `build` (configure_file,
/// custom commands; is_project_generated). No diff shows them, whoever wrote
/// them: lint reads them without any. Reads files.
std::map<std::filesystem::path, std::vector<guard::Suppression>> generated_suppressions(
    const std::set<std::filesystem::path>& built_files, const std::filesystem::path& build);

/// The files of `changed` (paths relative to the work tree's top level)
/// that the build compiled or included, as `built_files` names them or
/// through a symbolic link: the suppression detector reads them as code
/// whatever their names. Reads the file system.
std::vector<std::string> changed_files_built(const Plan& plan, const std::set<std::string>& changed,
                                             const std::set<std::filesystem::path>& built_files);

/// Which files' findings count.
struct LintScope {
  std::filesystem::path source;                 ///< absolute
  std::vector<std::filesystem::path> excluded;  ///< absolute: build trees, HydraScore's output, --exclude
  std::filesystem::path base;                   ///< relative diagnostic paths are relative to this
  /// The build tree, whose project-generated files count too
  /// (is_project_generated, lint/database.hpp); empty: none.
  std::filesystem::path build;

  /// Whether `file` (as a diagnostic names it) is inside `source` and
  /// outside every excluded tree, or a project-generated file of `build`
  /// (compared as written and with symlinks resolved).
  bool contains(const std::string& file) const;
};

/// `log` (clang-tidy output) without the warnings and errors located in
/// files outside `scope`, together with their notes, code snippets and
/// fix-it lines. Location-less lines before any diagnostic are kept.
/// `dropped` (optional) receives how many diagnostics were removed. Pure.
std::string filter_lint_log(std::string_view log, const LintScope& scope, std::size_t* dropped = nullptr);

/// How clang-tidy runs for one capture.
struct LintView {
  std::filesystem::path database_dir;    ///< for `-p`: the lint database (lint/database.hpp) without added -w/-Wno-* flags
  /// --config-file=/--config={}, --header-filter=.*, --extra-arg=-U__clang_analyzer__
  /// (clang-tidy defines the macro, the compiler does not: code only the
  /// compiler sees is linted too), --vfsoverlay=...
  std::vector<std::string> options;
  std::vector<guard::Suppression> stripped;  ///< the added suppressions clang-tidy does not see
  std::vector<std::string> removed_flags;    ///< added -w/-Wno-* flags removed from the compile database
  std::vector<std::string> made_from_codemodel;  ///< units compile_commands.json did not list
  std::vector<std::string> made_from_build_commands;  ///< units only the build's commands compiled
  std::vector<std::string> compiled_again;            ///< units also compiled with other macros (database.hpp)
  /// Files the project generated in the build tree (relative to it) read
  /// without their suppressions (generated_suppressions).
  std::vector<std::string> stripped_generated;
  /// The changed files (diff paths) that are units or that the build's
  /// objects depend on (`built_files`), whatever their names.
  std::vector<std::string> compiled_changed_files;
  std::vector<std::string> system_made_user;     ///< the project's SYSTEM include directories, linted as -I
  /// The change's added lines, per file as the diff names it (relative to
  /// the work tree's top level): what lint/compiler_view.hpp judges.
  std::map<std::string, std::set<std::uint64_t>> added_lines;
  LintScope scope;
  /// SHA-256 of everything besides the tree and the build that decides
  /// clang-tidy's raw output: the options without scratch paths, the
  /// configuration's text, every stripped copy's path and content, the
  /// removed flags. A cache of clang-tidy results must include it in its key.
  std::string digest;
  /// SHA-256 of what decides clang-tidy's output for every unit alike: the
  /// configuration's text and the header filter (the lint cache's key,
  /// lint/cache.hpp, adds what each unit reads).
  std::string settings_digest;
  /// The files clang-tidy reads through the overlay: real path (as written
  /// and resolved) -> stripped copy.
  std::map<std::filesystem::path, std::filesystem::path> overlaid;

  /// The manifest's "lint_view" record.
  nlohmann::json to_json() const;
};

/// `text` with every character a POSIX extended regular expression (LLVM's
/// Regex, clang-tidy's --header-filter) gives a meaning escaped.
std::string regex_escaped(const std::string& text);

/// Prepares the view for `plan`: reads `diff` (the change as the change step
/// records it; empty: nothing added), writes the stripped copies, the overlay
/// and the compile database (`database`'s commands without the added flags)
/// under `scratch` (emptied first). Every changed file is stripped whatever
/// its name (only the files clang opens are read through the overlay).
/// `built_files`: absolute paths of the files the build compiled or its
/// objects depend on (compiled_changed_files). `compiled_with`: warning
/// flags the candidate's units gained however the change spelled them
/// (lint/flag_suppressions.hpp), removed like the diff's own. Throws hydra::Error when a
/// file cannot be read or written.
LintView prepare_lint_view(const Plan& plan, std::string_view diff, const std::filesystem::path& scratch,
                           const LintDatabase& database, const std::set<std::filesystem::path>& built_files = {},
                           const std::vector<std::string>& compiled_with = {});

}  // namespace hydra::capture
