// The live processes of this machine, read from /proc: for tests that check
// that no process outlives the one that started it.
#pragma once

#include <dirent.h>
#include <fcntl.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cerrno>
#include <cstdio>
#include <functional>
#include <string>
#include <thread>
#include <vector>

namespace process_table {

struct Entry {
  pid_t pid = 0;
  char state = '?';  ///< 'Z': a zombie (dead, not yet reaped)
  pid_t parent = 0;
  pid_t group = 0;
  std::string name;     ///< the kernel's short name (comm)
  std::string command;  ///< the command line, arguments separated by spaces
};

/// The content of a /proc file; "" when the process is gone (reading the file
/// of a process that exits meanwhile fails with ESRCH, which a stream would
/// turn into an exception).
inline std::string read_proc_file(const std::string& path) {
  std::string content;
  const int descriptor = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (descriptor < 0) return content;
  char buffer[4096];
  while (true) {
    const ssize_t got = ::read(descriptor, buffer, sizeof buffer);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) break;
    content.append(buffer, static_cast<std::size_t>(got));
  }
  ::close(descriptor);
  return content;
}

/// Every process that is not a zombie.
inline std::vector<Entry> live_processes() {
  std::vector<Entry> found;
  DIR* proc = ::opendir("/proc");
  if (proc == nullptr) return found;
  while (const dirent* directory = ::readdir(proc)) {
    const std::string pid = directory->d_name;
    if (pid.empty() || pid.find_first_not_of("0123456789") != std::string::npos) continue;
    const std::string stat = read_proc_file("/proc/" + pid + "/stat");
    // "pid (name) state parent group ...": the name may hold spaces and parentheses.
    const auto open = stat.find('(');
    const auto close = stat.rfind(')');
    if (open == std::string::npos || close == std::string::npos || close + 2 >= stat.size()) continue;
    Entry entry;
    entry.pid = std::stoi(pid);
    entry.name = stat.substr(open + 1, close - open - 1);
    entry.state = stat[close + 2];
    if (entry.state == 'Z' || entry.state == 'X') continue;
    long parent = 0;
    long group = 0;
    if (std::sscanf(stat.c_str() + close + 3, "%ld %ld", &parent, &group) != 2) continue;
    entry.parent = static_cast<pid_t>(parent);
    entry.group = static_cast<pid_t>(group);
    entry.command = read_proc_file("/proc/" + pid + "/cmdline");
    std::replace(entry.command.begin(), entry.command.end(), '\0', ' ');
    found.push_back(std::move(entry));
  }
  ::closedir(proc);
  return found;
}

inline std::vector<Entry> live_processes_where(const std::function<bool(const Entry&)>& predicate) {
  std::vector<Entry> matching;
  for (auto& entry : live_processes())
    if (predicate(entry)) matching.push_back(std::move(entry));
  return matching;
}

/// Polls until no live process matches (reaping zombies this process may have
/// inherited as a subreaper) or `limit` passes; returns what still matches.
inline std::vector<Entry> wait_until_none(const std::function<bool(const Entry&)>& predicate,
                                          std::chrono::milliseconds limit) {
  const auto give_up = std::chrono::steady_clock::now() + limit;
  while (true) {
    int status = 0;
    while (::waitpid(-1, &status, WNOHANG) > 0) {
    }
    auto left = live_processes_where(predicate);
    if (left.empty() || std::chrono::steady_clock::now() >= give_up) return left;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
}

inline std::string describe(const std::vector<Entry>& entries) {
  std::string text;
  for (const auto& entry : entries)
    text += std::to_string(entry.pid) + " (" + entry.name + ", state " + entry.state +
            ", parent " + std::to_string(entry.parent) + "): " + entry.command + "\n";
  return text;
}

}  // namespace process_table
