#include <hydra/util/files.hpp>

#include <hydra/util/utf8.hpp>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <algorithm>
#include <fstream>
#include <vector>
#include <system_error>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <hydra/error.hpp>

namespace hydra::util {

std::string file_identity(const std::filesystem::path& file) {
  struct stat status {};
  if (::stat(file.c_str(), &status) != 0) return {};
  return file.string() + " " + std::to_string(status.st_dev) + ":" + std::to_string(status.st_ino) + " " +
         std::to_string(status.st_size) + " " + std::to_string(status.st_mtim.tv_sec) + "." +
         std::to_string(status.st_mtim.tv_nsec) + " " + std::to_string(status.st_ctim.tv_sec) + "." +
         std::to_string(status.st_ctim.tv_nsec);
}

std::size_t trim_oldest_files(const std::filesystem::path& directory, std::uint64_t max_bytes) {
  namespace fs = std::filesystem;
  std::error_code error;
  if (!fs::is_directory(directory, error)) return 0;
  struct Item {
    fs::file_time_type time;
    std::uint64_t size;
    fs::path path;
  };
  std::vector<Item> items;
  std::uint64_t total = 0;
  for (fs::recursive_directory_iterator it(directory, error), end; !error && it != end; it.increment(error)) {
    std::error_code ignored;
    if (!it->is_regular_file(ignored)) continue;
    const std::uint64_t size = it->file_size(ignored);
    if (ignored) continue;
    const auto time = it->last_write_time(ignored);
    items.push_back({time, size, it->path()});
    total += size;
  }
  if (total <= max_bytes) return 0;
  std::sort(items.begin(), items.end(), [](const Item& a, const Item& b) { return a.time < b.time; });
  const std::uint64_t target = max_bytes / 10 * 9;
  std::size_t removed = 0;
  for (const auto& item : items) {
    if (total <= target) break;
    std::error_code ignored;
    if (fs::remove(item.path, ignored)) {
      total -= item.size;
      ++removed;
    }
  }
  return removed;
}

std::string read_file(const std::filesystem::path& file) {
  std::error_code ec;
  if (!std::filesystem::exists(file, ec)) throw InputError(file.string(), "no such file");
  if (std::filesystem::is_directory(file, ec))
    throw InputError(file.string(), "is a directory, expected a file");
  std::ifstream in(file, std::ios::binary);
  if (!in) throw InputError(file.string(), std::string("cannot open: ") + std::strerror(errno));
  std::string content;
  in.seekg(0, std::ios::end);
  const auto size = in.tellg();
  if (size > 0) {
    content.resize(static_cast<std::size_t>(size));
    in.seekg(0, std::ios::beg);
    in.read(content.data(), size);
    if (in.gcount() != size) throw InputError(file.string(), "short read");
  }
  return content;
}

void write_file_atomic(const std::filesystem::path& file, std::string_view content) {
  const auto directory = file.has_parent_path() ? file.parent_path() : std::filesystem::path(".");
  std::string pattern = (directory / ("." + file.filename().string() + ".tmp-XXXXXX")).string();
  const int fd = ::mkstemp(pattern.data());
  if (fd < 0) throw Error("cannot create a temporary file next to " + file.string() + ": " + std::strerror(errno));
  std::size_t written = 0;
  while (written < content.size()) {
    const ssize_t n = ::write(fd, content.data() + written, content.size() - written);
    if (n < 0) {
      if (errno == EINTR) continue;
      const std::string reason = std::strerror(errno);
      ::close(fd);
      ::unlink(pattern.c_str());
      throw Error("cannot write " + file.string() + ": " + reason);
    }
    written += static_cast<std::size_t>(n);
  }
  ::fchmod(fd, 0644);
  if (::fsync(fd) != 0 || ::close(fd) != 0) {
    ::unlink(pattern.c_str());
    throw Error("cannot write " + file.string() + ": " + std::strerror(errno));
  }
  if (std::rename(pattern.c_str(), file.c_str()) != 0) {
    const std::string reason = std::strerror(errno);
    ::unlink(pattern.c_str());
    throw Error("cannot rename into " + file.string() + ": " + reason);
  }
}

TextPosition position_of(std::string_view text, std::size_t offset) {
  TextPosition position{1, 1};
  std::size_t line_start = 0;
  for (std::size_t i = 0; i < offset && i < text.size(); ++i) {
    if (text[i] == '\n') {
      ++position.line;
      line_start = i + 1;
    }
  }
  position.column = offset - line_start + 1;
  return position;
}

TextPosition find_invalid_utf8(std::string_view text) {
  const auto* bytes = reinterpret_cast<const unsigned char*>(text.data());
  const std::size_t size = text.size();
  std::size_t i = 0;
  while (i < size) {
    const unsigned char c = bytes[i];
    if (c < 0x80) {
      ++i;
      continue;
    }
    const std::size_t length = utf8_sequence_length(bytes, i, size);
    if (length == 0) return position_of(text, i);
    i += length;
  }
  return {};
}

void require_text(std::string_view text, const std::string& source_name) {
  if (const auto nul = text.find('\0'); nul != std::string_view::npos) {
    const auto at = position_of(text, nul);
    throw InputError(source_name, "binary data (NUL byte), expected a text file", at.line, at.column);
  }
  if (const auto bad = find_invalid_utf8(text); !bad.valid())
    throw InputError(source_name, "invalid UTF-8", bad.line, bad.column);
}

TempDir::TempDir(const std::string& prefix) {
  std::string pattern = (std::filesystem::temp_directory_path() / (prefix + "-XXXXXX")).string();
  if (::mkdtemp(pattern.data()) == nullptr)
    throw Error("cannot create a temporary directory: " + std::string(std::strerror(errno)));
  path_ = pattern;
}

TempDir::~TempDir() {
  std::error_code ec;
  std::filesystem::remove_all(path_, ec);
}

std::filesystem::path absolute_clean(const std::filesystem::path& path) {
  std::error_code error;
  std::filesystem::path result = std::filesystem::weakly_canonical(std::filesystem::absolute(path), error);
  return error ? std::filesystem::absolute(path).lexically_normal() : result;
}

bool is_within(const std::filesystem::path& path, const std::filesystem::path& directory) {
  const auto relative = path.lexically_relative(directory);
  return !relative.empty() && relative.native().rfind("..", 0) != 0;
}

}  // namespace hydra::util
