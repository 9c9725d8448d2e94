#include <hydra/util/mapped_file.hpp>

#include <cerrno>
#include <cstring>

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <hydra/error.hpp>
#include <hydra/util/files.hpp>

namespace hydra::util {
namespace {

/// Closes a file descriptor when it goes out of scope.
struct FileDescriptor {
  int value;
  ~FileDescriptor() {
    if (value >= 0) ::close(value);
  }
};

}  // namespace

MappedFile::MappedFile(const std::filesystem::path& file) {
  const FileDescriptor descriptor{::open(file.c_str(), O_RDONLY | O_CLOEXEC)};
  if (descriptor.value < 0) {
    if (errno == ENOENT) throw InputError(file.string(), "no such file");
    throw InputError(file.string(), std::string("cannot open: ") + std::strerror(errno));
  }
  struct stat status {};
  if (::fstat(descriptor.value, &status) != 0)
    throw InputError(file.string(), std::string("cannot read: ") + std::strerror(errno));
  if (S_ISDIR(status.st_mode)) throw InputError(file.string(), "is a directory, expected a file");
  if (!S_ISREG(status.st_mode)) {
    read_content_ = read_file(file);
    text_ = read_content_;
    return;
  }
  if (status.st_size == 0) return;  // mmap cannot map zero bytes; the text is empty
  mapped_size_ = static_cast<std::size_t>(status.st_size);
  // Pages are mapped on first touch (not MAP_POPULATE), so that a parser
  // that reads the file on several threads takes those page faults in parallel.
  void* mapping = ::mmap(nullptr, mapped_size_, PROT_READ, MAP_PRIVATE, descriptor.value, 0);
  if (mapping == MAP_FAILED)
    throw InputError(file.string(), std::string("cannot map into memory: ") + std::strerror(errno));
  mapping_ = mapping;
  ::madvise(mapping_, mapped_size_, MADV_SEQUENTIAL);  // read-ahead for an uncached file; a hint only
  text_ = std::string_view(static_cast<const char*>(mapping_), mapped_size_);
}

MappedFile::~MappedFile() {
  if (mapping_ != nullptr) ::munmap(mapping_, mapped_size_);
}

}  // namespace hydra::util
