// Control groups of steps (control_group.hpp).
#include <hydra/util/control_group.hpp>

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <set>
#include <sstream>
#include <thread>

#include <hydra/util/file_descriptor.hpp>
#include <hydra/util/text.hpp>

namespace hydra::util {
namespace fs = std::filesystem;
namespace {

const char* const wanted_controllers[] = {"memory", "pids", "cpu"};

/// A mount point as mountinfo writes it: spaces and the like as \ooo.
std::string unescape_mount_path(std::string_view text) {
  std::string out;
  for (std::size_t index = 0; index < text.size(); ++index) {
    if (text[index] == '\\' && index + 3 < text.size() &&
        std::all_of(text.begin() + index + 1, text.begin() + index + 4, [](char c) { return c >= '0' && c <= '7'; })) {
      out.push_back(static_cast<char>((text[index + 1] - '0') * 64 + (text[index + 2] - '0') * 8 + (text[index + 3] - '0')));
      index += 3;
    } else {
      out.push_back(text[index]);
    }
  }
  return out;
}

/// `own` (a group path) below the mount's `mount_root`, or nullopt when the
/// group is not visible under that mount.
std::optional<fs::path> below_mount(const std::string& own, const std::string& mount_root) {
  if (mount_root == "/" || mount_root.empty()) return fs::path(own).relative_path();
  if (own == mount_root) return fs::path();
  if (own.rfind(mount_root + "/", 0) == 0) return fs::path(own.substr(mount_root.size() + 1));
  return std::nullopt;
}

/// The content of a small file; nullopt when it cannot be read.
std::optional<std::string> read_small_file(const fs::path& path) {
  FileDescriptor file(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
  if (!file.valid()) return std::nullopt;
  std::string content;
  char buffer[4096];
  while (true) {
    const ssize_t got = ::read(file.get(), buffer, sizeof buffer);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) return std::nullopt;
    if (got == 0) break;
    content.append(buffer, static_cast<std::size_t>(got));
  }
  return content;
}

/// Writes `text` to a control file; "" or the reason it failed.
std::string write_control(const fs::path& path, const std::string& text) {
  FileDescriptor file(::open(path.c_str(), O_WRONLY | O_CLOEXEC));
  if (!file.valid()) return system_message(path.string(), errno);
  while (::write(file.get(), text.data(), text.size()) < 0) {
    if (errno != EINTR) return system_message(path.string(), errno);
  }
  return {};
}

/// The value after `key` in a "key value" per line file (memory.events,
/// memory.oom_control); 0 when absent.
std::uint64_t keyed_value(const std::string& text, std::string_view key) {
  for (const auto line : split(text, '\n')) {
    if (line.size() > key.size() && line.substr(0, key.size()) == key && line[key.size()] == ' ')
      return std::strtoull(std::string(line.substr(key.size() + 1)).c_str(), nullptr, 10);
  }
  return 0;
}

std::atomic<unsigned> group_counter{0};

/// Removes the groups in `parent` that a process now gone left behind.
void remove_stale_groups(const fs::path& parent) {
  std::error_code error;
  for (fs::directory_iterator entry(parent, error), end; !error && entry != end; entry.increment(error)) {
    const std::string name = entry->path().filename().string();
    if (name.rfind("hydra-step-", 0) != 0) continue;
    const long owner = std::strtol(name.c_str() + std::strlen("hydra-step-"), nullptr, 10);
    if (owner <= 0 || ::kill(static_cast<pid_t>(owner), 0) == 0 || errno != ESRCH) continue;
    if (const auto procs = read_small_file(entry->path() / "cgroup.procs"))
      for (const auto line : split(*procs, '\n'))
        if (const long pid = std::strtol(std::string(line).c_str(), nullptr, 10); pid > 1)
          ::kill(static_cast<pid_t>(pid), SIGKILL);
    ::rmdir(entry->path().c_str());
  }
}

}  // namespace

ControlGroupPlaces locate_control_groups(std::string_view proc_cgroup, std::string_view mountinfo, const fs::path& root) {
  // /proc/self/cgroup: "ID:controllers:path" per hierarchy; "0::path" is v2.
  std::map<std::string, std::string> own_v1;
  std::optional<std::string> own_v2;
  for (const auto line : split(proc_cgroup, '\n')) {
    const auto first = line.find(':');
    const auto second = first == std::string_view::npos ? first : line.find(':', first + 1);
    if (second == std::string_view::npos) continue;
    const std::string_view controllers = line.substr(first + 1, second - first - 1);
    const std::string path(line.substr(second + 1));
    if (line.substr(0, first) == "0" && controllers.empty()) own_v2 = path;
    for (const auto controller : split(controllers, ',')) own_v1[std::string(controller)] = path;
  }
  ControlGroupPlaces v1{1, {}};
  std::optional<fs::path> v2_folder;
  for (const auto line : split(mountinfo, '\n')) {
    const auto fields = split(line, ' ');
    const auto dash = std::find(fields.begin(), fields.end(), std::string_view("-"));
    if (fields.size() < 5 || dash == fields.end() || fields.end() - dash < 4) continue;
    const std::string_view type = dash[1];
    const std::string mount_root = unescape_mount_path(fields[3]);
    const fs::path mount_point = root.string() + unescape_mount_path(fields[4]);
    if (type == "cgroup") {
      for (const auto option : split(dash[3], ',')) {
        for (const char* wanted : wanted_controllers) {
          if (option != wanted || !own_v1.count(wanted)) continue;
          if (const auto below = below_mount(own_v1[wanted], mount_root))
            v1.controllers[wanted] = below->empty() ? mount_point : (mount_point / *below).lexically_normal();
        }
      }
    } else if (type == "cgroup2" && own_v2) {
      if (const auto below = below_mount(*own_v2, mount_root))
        v2_folder = below->empty() ? mount_point : (mount_point / *below).lexically_normal();
    }
  }
  if (v1.controllers.count("memory")) return v1;
  if (v2_folder) {
    ControlGroupPlaces v2{2, {}};
    for (const char* wanted : wanted_controllers) v2.controllers[wanted] = *v2_folder;
    return v2;
  }
  return {};
}

std::unique_ptr<ControlGroup> ControlGroup::create(const ControlGroupPlaces& places, const ResourceLimits& limits,
                                                   std::string& why_not) {
  if (places.version == 0 || places.controllers.empty()) {
    why_not = "no control group hierarchy is mounted here";
    return nullptr;
  }
  std::unique_ptr<ControlGroup> group(new ControlGroup);
  group->version_ = places.version;
  const std::string name = "hydra-step-" + std::to_string(::getpid()) + "-" + std::to_string(group_counter++);
  std::set<fs::path> made;
  for (const auto& [controller, own] : places.controllers) {
    const fs::path parent = own / "hydra-score";
    if (!made.count(parent)) {
      if (::mkdir(parent.c_str(), 0755) != 0 && errno != EEXIST) {
        why_not = system_message("cannot make control group " + parent.string(), errno);
        return nullptr;
      }
      if (places.version == 2) {
        // Pass the controllers down (a group's limits need its parent to
        // enable them); may fail where this process's own group has
        // processes of its own, which the check below notices.
        for (const char* wanted : wanted_controllers) {
          write_control(own / "cgroup.subtree_control", std::string("+") + wanted);
          write_control(parent / "cgroup.subtree_control", std::string("+") + wanted);
        }
      }
      remove_stale_groups(parent);
    }
    const fs::path folder = parent / name;
    if (!made.count(folder)) {
      if (::mkdir(folder.c_str(), 0755) != 0) {
        why_not = system_message("cannot make control group " + folder.string(), errno);
        return nullptr;
      }
      made.insert(folder);
    }
    group->folders_[controller] = folder;
    made.insert(parent);
  }
  const auto require = [&](const char* controller, const char* v1_file, const char* v2_file, std::uint64_t value) {
    const auto found = group->folders_.find(controller);
    if (found == group->folders_.end()) {
      why_not = std::string("no ") + controller + " controller here";
      return false;
    }
    const fs::path file = found->second / (group->version_ == 1 ? v1_file : v2_file);
    if (std::string failed = write_control(file, std::to_string(value)); !failed.empty()) {
      why_not = "cannot set the " + std::string(controller) + " limit: " + failed;
      return false;
    }
    return true;
  };
  if (limits.memory_bytes && !require("memory", "memory.limit_in_bytes", "memory.max", *limits.memory_bytes))
    return nullptr;
  if (limits.processes && !require("pids", "pids.max", "pids.max", *limits.processes)) return nullptr;
  return group;
}

ControlGroup::~ControlGroup() {
  kill_all();
  std::set<fs::path> folders;
  for (const auto& [controller, folder] : folders_) folders.insert(folder);
  for (const auto& folder : folders) {
    // A process that was just killed may take a moment to leave its group.
    for (int attempt = 0; attempt < 50 && ::rmdir(folder.c_str()) != 0 && errno == EBUSY; ++attempt)
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
}

bool ControlGroup::add(pid_t pid) const {
  std::set<fs::path> folders;
  for (const auto& [controller, folder] : folders_) folders.insert(folder);
  bool added = true;
  for (const auto& folder : folders) added = write_control(folder / "cgroup.procs", std::to_string(pid)).empty() && added;
  return added;
}

std::vector<pid_t> ControlGroup::members() const {
  std::set<pid_t> pids;
  std::set<fs::path> folders;
  for (const auto& [controller, folder] : folders_) folders.insert(folder);
  for (const auto& folder : folders) {
    const auto procs = read_small_file(folder / "cgroup.procs");
    if (!procs) continue;
    for (const auto line : split(*procs, '\n'))
      if (const long pid = std::strtol(std::string(line).c_str(), nullptr, 10); pid > 0) pids.insert(static_cast<pid_t>(pid));
  }
  return {pids.begin(), pids.end()};
}

void ControlGroup::kill_all(std::chrono::milliseconds limit) const {
  const auto give_up = std::chrono::steady_clock::now() + limit;
  std::set<pid_t> killed;
  while (true) {
    const std::vector<pid_t> pids = members();
    for (const pid_t pid : pids) {
      ::kill(pid, SIGKILL);
      killed.insert(pid);
    }
    if (pids.empty() || std::chrono::steady_clock::now() >= give_up) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  // A killed process that is this process's child (a subreaper's orphan)
  // is reaped, so no zombie is left: it leaves the group before it can be.
  for (const pid_t pid : killed) {
    while (true) {
      int status = 0;
      const pid_t reaped = ::waitpid(pid, &status, WNOHANG);
      if (reaped != 0 || std::chrono::steady_clock::now() >= give_up) break;  // reaped, or not a child
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
  }
}

bool ControlGroup::memory_limit_reached() const {
  const auto found = folders_.find("memory");
  if (found == folders_.end()) return false;
  const auto text = read_small_file(found->second / (version_ == 1 ? "memory.oom_control" : "memory.events"));
  return text && keyed_value(*text, "oom_kill") > 0;
}

std::string ControlGroup::description() const {
  std::string text = "cgroup v" + std::to_string(version_) + ":";
  bool first = true;
  for (const char* controller : wanted_controllers) {
    if (!folders_.count(controller)) continue;
    text += (first ? " " : ", ") + std::string(controller);
    first = false;
  }
  return text;
}

const ControlGroupPlaces& usable_control_groups() {
  static const ControlGroupPlaces places = [] {
    const auto cgroup = read_small_file("/proc/self/cgroup");
    const auto mountinfo = read_small_file("/proc/self/mountinfo");
    if (!cgroup || !mountinfo) return ControlGroupPlaces{};
    ControlGroupPlaces found = locate_control_groups(*cgroup, *mountinfo);
    std::string why_not;
    ResourceLimits probe;
    probe.memory_bytes = std::uint64_t(1) << 40;
    probe.processes = std::uint64_t(1) << 20;
    if (!ControlGroup::create(found, probe, why_not)) return ControlGroupPlaces{};
    return found;
  }();
  return places;
}

}  // namespace hydra::util
