// File helpers at the I/O edge: whole-file reads with clear errors, atomic
// writes, UTF-8 checks.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>

namespace hydra::util {

/// Reads a whole file. Throws hydra::InputError naming the file when it is
/// missing, a directory or unreadable.
std::string read_file(const std::filesystem::path& file);

/// Writes `content` to `file` atomically: a temporary file in the same
/// directory, flushed, then renamed over `file`. Throws hydra::Error.
void write_file_atomic(const std::filesystem::path& file, std::string_view content);

/// Position of the first invalid UTF-8 sequence, or nullopt-like {0,0} when
/// valid. Line and column are 1-based (column counts bytes).
struct TextPosition {
  std::uint64_t line = 0;
  std::uint64_t column = 0;
  bool valid() const { return line == 0; }
};
TextPosition find_invalid_utf8(std::string_view text);

/// Line/column (1-based, column in bytes) of byte `offset` in `text`.
TextPosition position_of(std::string_view text, std::size_t offset);

/// Throws hydra::InputError (file, line, column) when `text` contains a NUL
/// byte ("binary file") or invalid UTF-8.
void require_text(std::string_view text, const std::string& source_name);

/// `path` made absolute with symbolic links and "."/".." resolved as far as
/// it exists (std::filesystem::weakly_canonical); lexically normalized when
/// that fails.
std::filesystem::path absolute_clean(const std::filesystem::path& path);

/// True when `path` is `directory` or lies inside it (both already absolute
/// and clean; compared lexically).
bool is_within(const std::filesystem::path& path, const std::filesystem::path& directory);

/// What identifies a file's content without reading it: its path, device
/// and inode, size, and modification and status-change times (the last no
/// write can set back). Empty when it cannot be read (no such file).
std::string file_identity(const std::filesystem::path& file);

/// Removes the oldest files under `directory` (by modification time) until
/// they take at most 90% of `max_bytes`, when they take more than
/// `max_bytes`. Returns the number removed; never throws.
std::size_t trim_oldest_files(const std::filesystem::path& directory, std::uint64_t max_bytes);

/// A directory removed (recursively) when the object goes out of scope.
class TempDir {
 public:
  explicit TempDir(const std::string& prefix = "hydra");
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

}  // namespace hydra::util
