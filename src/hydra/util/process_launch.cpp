#include <hydra/util/process_launch.hpp>

#include <fcntl.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

#include <algorithm>
#include <cerrno>
#include <cstring>

#include <hydra/error.hpp>

extern char** environ;

namespace hydra::util::launch {

bool is_executable_file(const std::filesystem::path& path) {
  struct stat info {};
  return ::stat(path.c_str(), &info) == 0 && S_ISREG(info.st_mode) &&
         ::access(path.c_str(), X_OK) == 0;
}

std::optional<std::filesystem::path> find_on_path(std::string_view program,
                                                  std::string_view search_path) {
  if (program.empty()) return std::nullopt;
  if (program.find('/') != std::string_view::npos) {
    std::filesystem::path path{std::string(program)};
    if (is_executable_file(path)) return path;
    return std::nullopt;
  }
  std::size_t start = 0;
  while (start <= search_path.size()) {
    std::size_t end = search_path.find(':', start);
    if (end == std::string_view::npos) end = search_path.size();
    std::string_view directory = search_path.substr(start, end - start);
    std::filesystem::path candidate =
        std::filesystem::path(directory.empty() ? std::string(".") : std::string(directory)) /
        std::string(program);
    if (is_executable_file(candidate)) return candidate;
    start = end + 1;
  }
  return std::nullopt;
}

std::map<std::string, std::string> child_environment(const ProcessRequest& request) {
  std::map<std::string, std::string> environment;
  for (char** entry = environ; request.inherit_environment && entry != nullptr && *entry != nullptr; ++entry) {
    std::string_view text{*entry};
    std::size_t equals = text.find('=');
    if (equals == std::string_view::npos) continue;
    environment.emplace(std::string(text.substr(0, equals)), std::string(text.substr(equals + 1)));
  }
  for (const std::string& name : request.unset_environment) environment.erase(name);
  for (const auto& [name, value] : request.environment) environment[name] = value;
  return environment;
}

ChildPlan plan_child(const ProcessRequest& request, const std::filesystem::path& program,
                     const std::map<std::string, std::string>& environment) {
  ChildPlan plan;
  plan.program_path = program.string();
  plan.argv_storage = request.argv;
  for (std::string& argument : plan.argv_storage) plan.argv.push_back(argument.data());
  plan.argv.push_back(nullptr);
  for (const auto& [name, value] : environment) plan.environment_storage.push_back(name + "=" + value);
  for (std::string& entry : plan.environment_storage) plan.environment.push_back(entry.data());
  plan.environment.push_back(nullptr);
  plan.working_directory = request.working_directory.string();
  return plan;
}

ChildDescriptors open_descriptors(const ProcessRequest& request) {
  ChildDescriptors descriptors;
  std::tie(descriptors.output_read, descriptors.output_write) = close_on_exec_pipe();
  // stderr: merged into the output, or a pipe of its own (separate_stderr).
  if (request.separate_stderr) std::tie(descriptors.stderr_read, descriptors.stderr_write) = close_on_exec_pipe();
  std::tie(descriptors.error_read, descriptors.error_write) = close_on_exec_pipe();
  if (request.stdin_text) {
    int sockets[2];
    if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sockets) != 0)
      throw Error(system_message("socketpair", errno));
    descriptors.stdin_parent = FileDescriptor(sockets[0]);
    descriptors.stdin_child = FileDescriptor(sockets[1]);
    ::shutdown(descriptors.stdin_child.get(), SHUT_WR);
    ::fcntl(descriptors.stdin_parent.get(), F_SETFL, ::fcntl(descriptors.stdin_parent.get(), F_GETFL) | O_NONBLOCK);
  } else {
    descriptors.stdin_child = FileDescriptor(::open("/dev/null", O_RDONLY | O_CLOEXEC));
    if (!descriptors.stdin_child.valid()) throw Error(system_message("/dev/null", errno));
  }
  // The go signal: a socket, so sending to a child that is gone cannot raise SIGPIPE.
  int go_sockets[2];
  if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, go_sockets) != 0)
    throw Error(system_message("socketpair", errno));
  descriptors.go_read = FileDescriptor(go_sockets[0]);
  descriptors.go_write = FileDescriptor(go_sockets[1]);
  return descriptors;
}

namespace {

/// Every descriptor past the standard three closes on exec: a command sees
/// none that whoever started HydraScore left open (a test could otherwise
/// key on one, or reach past the sandbox through it).
void close_inherited_on_exec() {
#ifdef __linux__
  if (::close_range(3, ~0U, CLOSE_RANGE_CLOEXEC) == 0) return;
#endif
  const long most = std::min(::sysconf(_SC_OPEN_MAX), 1L << 16);
  for (int fd = 3; fd < most; ++fd) ::fcntl(fd, F_SETFD, FD_CLOEXEC);
}

}  // namespace

[[noreturn]] void exec_child(const ChildPlan& plan, int stdin_descriptor, int output_descriptor,
                             int stderr_descriptor, int error_pipe, int go_socket, pid_t parent) {
  ::setpgid(0, 0);
#ifdef __linux__
  ::prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
#endif
  if (::getppid() != parent) ::_exit(127);
  char go = 0;
  ssize_t go_bytes;
  do {
    go_bytes = ::read(go_socket, &go, 1);
  } while (go_bytes < 0 && errno == EINTR);
  if (go_bytes != 1) ::_exit(127);
  sigset_t all_signals;
  sigemptyset(&all_signals);
  ::sigprocmask(SIG_SETMASK, &all_signals, nullptr);
  struct sigaction default_action {};
  default_action.sa_handler = SIG_DFL;
  sigemptyset(&default_action.sa_mask);
  ::sigaction(SIGPIPE, &default_action, nullptr);
  ::sigaction(SIGTERM, &default_action, nullptr);
  ::sigaction(SIGINT, &default_action, nullptr);

  int error_number = 0;
  if (::dup2(stdin_descriptor, STDIN_FILENO) < 0 || ::dup2(output_descriptor, STDOUT_FILENO) < 0 ||
      ::dup2(stderr_descriptor, STDERR_FILENO) < 0) {
    error_number = errno;
  } else if (!plan.working_directory.empty() && ::chdir(plan.working_directory.c_str()) != 0) {
    error_number = errno;
  } else {
    close_inherited_on_exec();
    ::execve(plan.program_path.c_str(), plan.argv.data(), plan.environment.data());
    error_number = errno;
  }
  ssize_t ignored = ::write(error_pipe, &error_number, sizeof error_number);
  (void)ignored;
  ::_exit(127);
}

}  // namespace hydra::util::launch
