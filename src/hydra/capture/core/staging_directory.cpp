#include <hydra/capture/core/staging_directory.hpp>

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <string>

#include <hydra/error.hpp>

namespace hydra::capture {
namespace fs = std::filesystem;

namespace {

/// mkdtemp replaces this many trailing X's.
constexpr std::size_t random_suffix_length = 6;
/// Attempts at creating a staging directory a concurrent cleaner did not
/// take away between mkdtemp and flock (each loss needs that exact race).
constexpr int creation_attempts = 100;

fs::path parent_of(const fs::path& out) { return out.has_parent_path() ? out.parent_path() : fs::path("."); }

std::string staging_prefix(const fs::path& out) { return "." + out.filename().string() + ".capture-"; }

/// `.<name>.capture-` followed by exactly mkdtemp's six letters and digits:
/// the staging directories of `out` and of no other run directory (the ones
/// of `<name>.capture-x` are longer).
bool is_staging_name(const std::string& name, const std::string& prefix) {
  if (name.size() != prefix.size() + random_suffix_length || name.compare(0, prefix.size(), prefix) != 0)
    return false;
  for (std::size_t index = prefix.size(); index < name.size(); ++index)
    if (std::isalnum(static_cast<unsigned char>(name[index])) == 0) return false;
  return true;
}

/// True when `path` (not following a symbolic link) is the file open as `descriptor`.
bool same_file(const fs::path& path, int descriptor) {
  struct stat at_path {};
  struct stat opened {};
  return ::lstat(path.c_str(), &at_path) == 0 && ::fstat(descriptor, &opened) == 0 &&
         at_path.st_dev == opened.st_dev && at_path.st_ino == opened.st_ino;
}

int open_directory(const fs::path& path) {
  return ::open(path.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
}

/// Removes the directory at `path` when no live process holds its lock.
/// Holding the lock while removing keeps a second cleaner, and a capture
/// that has only just created it (see StagingDirectory), off it.
bool remove_if_unowned(const fs::path& path) {
  const int descriptor = open_directory(path);
  if (descriptor < 0) return false;
  bool removed = false;
  if (::flock(descriptor, LOCK_EX | LOCK_NB) == 0 && same_file(path, descriptor)) {
    std::error_code ec;
    fs::remove_all(path, ec);
    removed = !ec;
  }
  ::close(descriptor);
  return removed;
}

}  // namespace

std::vector<fs::path> remove_stale_staging(const fs::path& out) {
  std::vector<fs::path> removed;
  const std::string prefix = staging_prefix(out);
  std::error_code ec;
  for (fs::directory_iterator entry(parent_of(out), ec), end; !ec && entry != end; entry.increment(ec)) {
    const fs::path path = entry->path();
    if (!is_staging_name(path.filename().string(), prefix)) continue;
    if (remove_if_unowned(path)) removed.push_back(path);
  }
  return removed;
}

StagingDirectory::StagingDirectory(const fs::path& out) {
  remove_stale_staging(out);
  const std::string pattern_text = (parent_of(out) / (staging_prefix(out) + "XXXXXX")).string();
  for (int attempt = 0; attempt < creation_attempts; ++attempt) {
    std::string pattern = pattern_text;
    if (::mkdtemp(pattern.data()) == nullptr)
      throw Error("cannot create a staging directory next to " + out.string() + ": " + std::strerror(errno));
    const int descriptor = open_directory(pattern);
    if (descriptor < 0) continue;  // a cleaner took it between mkdtemp and open
    if (::flock(descriptor, LOCK_EX | LOCK_NB) == 0) {
      // A cleaner may have locked and removed it between mkdtemp and this
      // lock: then the path no longer names the directory locked here.
      if (!same_file(pattern, descriptor)) {
        ::close(descriptor);
        continue;
      }
      locked_ = true;
    } else if (errno == EWOULDBLOCK) {
      ::close(descriptor);  // a cleaner holds it and is removing it
      continue;
    }
    // Any other failure: this file system has no flock() for directories.
    path_ = pattern;
    descriptor_ = descriptor;
    return;
  }
  throw Error("cannot create a staging directory next to " + out.string() +
              ": every new one was removed at once (is something deleting " + pattern_text + "?)");
}

StagingDirectory::~StagingDirectory() {
  std::error_code ec;
  if (same_file(path_, descriptor_)) {
    fs::remove_all(path_, ec);  // not published (a failed capture): still locked while it goes
    ::close(descriptor_);
    return;
  }
  // Published: the path is empty, or holds the run directory that was replaced.
  ::close(descriptor_);
  if (locked_) remove_if_unowned(path_);
}

}  // namespace hydra::capture
