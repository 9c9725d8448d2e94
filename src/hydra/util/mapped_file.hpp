// A whole file as read-only memory, without copying it: large logs are
// parsed straight from the page cache.
#pragma once

#include <cstddef>
#include <filesystem>
#include <string>
#include <string_view>

namespace hydra::util {

/// A file mapped read-only into memory (`mmap`). Regular files are mapped;
/// anything else that can be read (a pipe, `/dev/stdin`) is read into memory
/// instead. The file must not be truncated while it is mapped (HydraScore maps
/// finished artifacts only). Throws hydra::InputError naming `file` when it is
/// missing, a directory, unreadable or cannot be mapped.
class MappedFile {
 public:
  explicit MappedFile(const std::filesystem::path& file);
  ~MappedFile();
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;

  /// The file's bytes; valid as long as the object lives.
  std::string_view text() const noexcept { return text_; }

 private:
  void* mapping_ = nullptr;
  std::size_t mapped_size_ = 0;
  std::string read_content_;  ///< the content of a file that is not mapped
  std::string_view text_;
};

}  // namespace hydra::util
