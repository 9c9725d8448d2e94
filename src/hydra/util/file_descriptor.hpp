// A file descriptor closed on scope exit, and the small helpers the process
// runner, its output sink and the watchdog share (process.cpp, watchdog.cpp).
#pragma once

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>
#include <utility>

#include <hydra/error.hpp>

namespace hydra::util {

/// A file descriptor closed on scope exit.
class FileDescriptor {
 public:
  FileDescriptor() = default;
  explicit FileDescriptor(int descriptor) : descriptor_(descriptor) {}
  ~FileDescriptor() { reset(); }
  FileDescriptor(const FileDescriptor&) = delete;
  FileDescriptor& operator=(const FileDescriptor&) = delete;
  FileDescriptor(FileDescriptor&& other) noexcept : descriptor_(other.release()) {}
  FileDescriptor& operator=(FileDescriptor&& other) noexcept {
    if (this != &other) {
      reset();
      descriptor_ = other.release();
    }
    return *this;
  }
  int get() const { return descriptor_; }
  bool valid() const { return descriptor_ >= 0; }
  int release() {
    int descriptor = descriptor_;
    descriptor_ = -1;
    return descriptor;
  }
  void reset() {
    if (descriptor_ >= 0) ::close(descriptor_);
    descriptor_ = -1;
  }

 private:
  int descriptor_ = -1;
};

inline std::string system_message(const std::string& what, int error_number) {
  return what + ": " + std::strerror(error_number);
}

/// A pipe whose ends close on exec: (read end, write end).
inline std::pair<FileDescriptor, FileDescriptor> close_on_exec_pipe() {
  int ends[2];
  if (::pipe2(ends, O_CLOEXEC) != 0) throw Error(system_message("pipe", errno));
  return {FileDescriptor(ends[0]), FileDescriptor(ends[1])};
}

}  // namespace hydra::util
