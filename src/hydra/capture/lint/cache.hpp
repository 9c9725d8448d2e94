// The lint cache: clang-tidy's output for a translation unit, reused when
// nothing that can change it changed (docs/run-directory.md, "Caches").
//
// The key of a unit covers
//  - the unit preprocessed with comments kept (its own compiler and compile
//    arguments, `-E -C`): every line of every header it reads, NOLINT
//    comments included;
//  - the contents of every project file it includes (inside the source or
//    the build tree): macro definitions and inactive `#if` branches, which
//    preprocessing drops, and the stripped copy clang-tidy reads instead
//    when the lint view blanks an added suppression (lint/view.hpp);
//  - the compile arguments and directory, as the database clang-tidy reads
//    lists them (added -w/-Wno-* flags already removed);
//  - the lint settings: the configuration's text, the header filter, the
//    clang-tidy binary and its version, the cache format.
// Absolute paths of the source and build trees are replaced by placeholders
// in the key and in the stored output, so trees at different paths (the
// baseline's, each candidate's, held-out and loop trees) share entries; the
// output is restored with the reading tree's paths.
//
// Entries are written atomically (temporary file + rename) and carry the
// SHA-256 of their payload; an entry that does not verify is a miss and is
// removed. The cache is trimmed oldest-first (by modification time, which a
// hit refreshes) to a size bound.
#pragma once

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include <hydra/remote/shared_cache.hpp>
#include <hydra/util/process.hpp>

namespace hydra::capture {

/// Absolute roots written as placeholders, so that text naming files of one
/// tree equals the text naming the same files of a tree at another path.
class PathRoots {
 public:
  /// `roots`: absolute directories (symlinks resolved and as written are
  /// both added); each gets its own placeholder.
  explicit PathRoots(const std::vector<std::filesystem::path>& roots);
  /// `text` with every root replaced by its placeholder (longest root first).
  std::string normalize(std::string_view text) const;
  /// `text` with every placeholder replaced by its root: the inverse of normalize.
  std::string restore(std::string_view text) const;

 private:
  std::vector<std::pair<std::string, std::string>> roots_;  ///< (root, placeholder), longest root first
};

/// One entry of a compile database, arguments split.
struct CompileCommand {
  std::filesystem::path directory;
  std::filesystem::path file;  ///< absolute, clean
  std::vector<std::string> arguments;
  /// The database has more than one command for the file (compiled again
  /// with other macros): a key made from one would not cover the others.
  bool several = false;
};

/// `command` split into arguments as a POSIX shell would (quotes and
/// backslashes), without expansion. Pure.
std::vector<std::string> split_command(std::string_view command);

/// The first entry of `database` (compile_commands.json) for every file. Pure.
std::map<std::filesystem::path, CompileCommand> compile_commands_by_file(const nlohmann::json& database);

/// The arguments that preprocess `command`'s unit to standard output with
/// comments kept: its own arguments without -o/-c/dependency-file flags,
/// with `-E -C`. Pure.
std::vector<std::string> preprocess_arguments(const CompileCommand& command);

/// What is the same for every unit of one lint step.
struct LintKeyContext {
  std::string tidy;      ///< the clang-tidy binary and its version text
  std::string settings;  ///< LintView::settings_digest: configuration text, header filter, options
  PathRoots roots{{}};
  std::vector<std::filesystem::path> project;  ///< trees whose included files are hashed (source, build)
  /// Files clang-tidy reads through the overlay: real path -> stripped copy.
  std::map<std::filesystem::path, std::filesystem::path> overlaid;
  /// SHA-256 of the names of every file in the source tree (tree_listing):
  /// part of the direct key, so a new file that could shadow an include
  /// makes every unit preprocess again.
  std::string listing;
  /// Where the direct entries are (nullptr: always preprocess).
  const class LintCache* cache = nullptr;
  /// File digests computed once per lint step (shared by the units).
  class FileDigests* digests = nullptr;
  /// Prepares the preprocessing command (the unit's own compiler and flags:
  /// the tree's code can run there, a compiler plugin or a specs file) to run
  /// under the lint step's sandbox policy; empty: as it is.
  std::function<util::ProcessRequest(const std::vector<std::string>& argv)> prepare;
};

/// SHA-256 digests of files, each computed once (thread-safe).
class FileDigests {
 public:
  /// The SHA-256 of `file`'s content, or "missing".
  std::string of(const std::filesystem::path& file);

 private:
  std::mutex mutex_;
  std::map<std::filesystem::path, std::string> digests_;
};

/// SHA-256 of the sorted relative names of the files under `source`,
/// outside `excluded` trees and `.git`.
std::string tree_listing(const std::filesystem::path& source, const std::vector<std::filesystem::path>& excluded);

/// The key of `command`'s unit, or nullopt (reason in `why_not`) when it
/// cannot be preprocessed: the unit is then linted and not stored.
/// With `context.cache`, a direct entry (keyed over the compile command, the
/// unit's own content, the settings and the tree listing) remembers every
/// file the last preprocessing read, with its digest; when all still match,
/// the key is taken from it without preprocessing (ccache's direct mode).
std::optional<std::string> lint_unit_key(const LintKeyContext& context, const CompileCommand& command,
                                         std::chrono::duration<double> timeout, std::string& why_not);

/// A unit's direct-mode look-up (lint_unit_key's first half).
struct DirectLintKey {
  std::optional<std::string> key;  ///< the unit's key, when its direct entry still holds
  std::string direct_key;          ///< where the preprocessing stores its direct entry (empty without a cache)
};

/// The key of `command`'s unit from its direct entry alone (no process
/// runs); no key when there is no cache, no entry, or a file it names changed.
DirectLintKey direct_lint_key(const LintKeyContext& context, const CompileCommand& command);

/// The key of `command`'s unit from its preprocessed text (lint_unit_key's
/// second half), storing the direct entry under `direct_key`; nullopt (reason
/// in `why_not`) when it cannot be preprocessed.
std::optional<std::string> preprocessed_lint_key(const LintKeyContext& context, const CompileCommand& command,
                                                 const std::string& direct_key, std::chrono::duration<double> timeout,
                                                 std::string& why_not);

/// clang-tidy's outcome for one unit.
struct LintCacheEntry {
  int exit_code = 0;
  std::string output;  ///< normalized (PathRoots::normalize)
};

class LintCache {
 public:
  /// The cache in `directory` (created on the first store), trimmed to `max_bytes`.
  LintCache(std::filesystem::path directory, std::uint64_t max_bytes);

  /// Entries are also looked up in, and (for a capture the trust model
  /// lets write) stored to, `shared` (docs/caches.md); nullptr: local only.
  void share_through(remote::SharedCache* shared) { shared_ = shared; }

  /// The entry of `key`, or nullopt when there is none or it does not
  /// verify (it is then removed). A hit refreshes the entry's time. A local
  /// miss is looked up in the shared cache, and a verified entry found
  /// there is kept locally.
  std::optional<LintCacheEntry> load(const std::string& key) const;
  /// Stores `entry` under `key` atomically (and in the shared cache). Failing
  /// to store is not an error (the capture's result does not depend on it):
  /// returns false.
  bool store(const std::string& key, const LintCacheEntry& entry) const;
  /// Stores that wait in memory (HeldStores): a lint step run beside the
  /// tree's code keeps nothing in the cache until that code is over and what
  /// lint read is known unchanged (lint_step.cpp). Loads see them first.
  struct HeldStores {
    std::mutex mutex;
    std::map<std::string, std::string> entries;  ///< key -> entry bytes
  };
  /// From now on, stores wait in `held` (shared with another cache object
  /// of the same capture, as the lint step and its warm-up share theirs).
  void hold_stores(std::shared_ptr<HeldStores> held = std::make_shared<HeldStores>()) const;
  /// Stores what waits when `keep`, drops it otherwise; stores go straight
  /// to the cache again.
  void release_stores(bool keep) const;
  /// Removes the oldest entries until the cache holds at most 90% of the
  /// bound when it holds more than the bound. Returns the number removed.
  std::size_t trim() const;

  const std::filesystem::path& directory() const { return directory_; }

  /// The bytes of an entry file for `entry` (format line, payload digest, payload). Pure.
  static std::string encode(const LintCacheEntry& entry);
  /// The entry of `bytes`, or nullopt when they are not a verified entry. Pure.
  static std::optional<LintCacheEntry> decode(std::string_view bytes);

 private:
  std::filesystem::path file_of(const std::string& key) const;

  bool store_locally(const std::string& key, const std::string& bytes) const;

  std::filesystem::path directory_;
  std::uint64_t max_bytes_;
  remote::SharedCache* shared_ = nullptr;
  mutable std::shared_ptr<HeldStores> held_;  ///< set while stores are held
};

}  // namespace hydra::capture
