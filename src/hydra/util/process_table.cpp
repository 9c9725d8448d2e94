// The process table (process_table.hpp).
#include <hydra/util/process_table.hpp>

#include <dirent.h>
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <set>
#include <string>

#include <hydra/util/file_descriptor.hpp>

namespace hydra::util {
namespace {

/// The content of a /proc file; "" when the process is gone.
std::string read_proc_file(const std::string& path, bool& readable) {
  std::string content;
  FileDescriptor file(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
  readable = file.valid();
  if (!readable) return content;
  char buffer[4096];
  while (true) {
    const ssize_t got = ::read(file.get(), buffer, sizeof buffer);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) break;
    content.append(buffer, static_cast<std::size_t>(got));
  }
  return content;
}

template <class Visit>
void for_each_number_entry(const std::string& folder, Visit visit) {
  DIR* directory = ::opendir(folder.c_str());
  if (directory == nullptr) return;
  while (const dirent* entry = ::readdir(directory)) {
    const std::string name = entry->d_name;
    if (!name.empty() && name.find_first_not_of("0123456789") == std::string::npos) visit(name);
  }
  ::closedir(directory);
}

}  // namespace

std::vector<pid_t> child_processes(pid_t pid) {
  std::set<pid_t> children;
  bool listed = false;
  const std::string tasks = "/proc/" + std::to_string(pid) + "/task";
  for_each_number_entry(tasks, [&](const std::string& task) {
    bool readable = false;
    const std::string text = read_proc_file(tasks + "/" + task + "/children", readable);
    listed = listed || readable;
    const char* cursor = text.c_str();
    while (*cursor != '\0') {
      char* end = nullptr;
      const long child = std::strtol(cursor, &end, 10);
      if (end == cursor) break;
      if (child > 0) children.insert(static_cast<pid_t>(child));
      cursor = end;
    }
  });
  if (!listed) {
    // No children files (CONFIG_PROC_CHILDREN off): every process's parent.
    for_each_number_entry("/proc", [&](const std::string& process) {
      bool readable = false;
      const std::string stat = read_proc_file("/proc/" + process + "/stat", readable);
      // "pid (name) state parent ...": the name may hold spaces and parentheses.
      const auto close = stat.rfind(')');
      if (close == std::string::npos || close + 4 >= stat.size()) return;
      const long parent = std::strtol(stat.c_str() + close + 4, nullptr, 10);
      if (parent == pid) children.insert(static_cast<pid_t>(std::atol(process.c_str())));
    });
  }
  return {children.begin(), children.end()};
}

}  // namespace hydra::util
