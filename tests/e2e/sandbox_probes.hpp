// What the sandbox tests of test_sandbox_probes.cpp set up: listeners outside
// any sandbox (TCP on 127.0.0.1, Unix sockets), a folder outside the
// temporary folders, and the probe program a candidate builds and runs.
#pragma once

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <atomic>
#include <cstddef>
#include <cstring>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "e2e_support.hpp"

namespace e2e {


/// A TCP listener on 127.0.0.1 (outside any sandbox) that counts the
/// connections it accepts.
class Listener {
 public:
  Listener() {
    socket_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (socket_ < 0 || ::bind(socket_, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0 ||
        ::listen(socket_, 16) != 0)
      throw std::runtime_error("cannot listen on 127.0.0.1");
    socklen_t length = sizeof address;
    ::getsockname(socket_, reinterpret_cast<sockaddr*>(&address), &length);
    port_ = ntohs(address.sin_port);
    thread_ = std::thread([this] {
      while (!stop_) {
        pollfd entry{socket_, POLLIN, 0};
        if (::poll(&entry, 1, 100) <= 0) continue;
        const int accepted = ::accept(socket_, nullptr, nullptr);
        if (accepted >= 0) {
          ++connections_;
          ::close(accepted);
        }
      }
    });
  }
  ~Listener() {
    stop_ = true;
    thread_.join();
    ::close(socket_);
  }
  int port() const { return port_; }
  int connections() const { return connections_; }

 private:
  int socket_ = -1;
  int port_ = 0;
  std::atomic<bool> stop_{false};
  std::atomic<int> connections_{0};
  std::thread thread_;
};

/// Unix sockets listening outside any sandbox: one in the abstract namespace
/// (it belongs to the network namespace) and one at a path in /tmp (as an SSH
/// agent's is); connecting needs no accept.
class UnixListeners {
 public:
  UnixListeners(const std::string& abstract_name, const fs::path& path) : path_(path) {
    abstract_ = listen_on(abstract_name, true);
    at_path_ = listen_on(path.string(), false);
  }
  ~UnixListeners() {
    ::close(abstract_);
    ::close(at_path_);
    ::unlink(path_.c_str());
  }

 private:
  static int listen_on(const std::string& name, bool abstract) {
    const int socket = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_un address{};
    address.sun_family = AF_UNIX;
    std::memcpy(address.sun_path + (abstract ? 1 : 0), name.data(), name.size());
    const socklen_t length = offsetof(sockaddr_un, sun_path) + (abstract ? 1 : 0) + name.size();
    if (socket < 0 || ::bind(socket, reinterpret_cast<sockaddr*>(&address), length) != 0 || ::listen(socket, 16) != 0)
      throw std::runtime_error("cannot listen on the Unix socket " + name);
    return socket;
  }
  fs::path path_;
  int abstract_ = -1;
  int at_path_ = -1;
};

/// A folder outside the temporary folders (beside the tool, in the build
/// tree), so only the mechanism under test hides it: the fake home, the
/// private test patch, the place a probe tries to write.
class OutsideFolder {
 public:
  OutsideFolder() : path_(kTool.parent_path() / ("e2e-sandbox-" + std::to_string(::getpid()))) {
    fs::remove_all(path_);
    fs::create_directories(path_);
  }
  ~OutsideFolder() {
    std::error_code ignored;
    fs::remove_all(path_, ignored);
  }
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

inline std::string quoted(const fs::path& path) { return "\"" + path.string() + "\""; }

inline void commit_all(const fs::path& repository, const std::string& message) {
  git(repository, {"add", "--all"});
  git(repository, {"commit", "--quiet", "-m", message});
}

/// The probe program (see the file comment); `files` are (name, path) pairs
/// it tries to read, `folders` (name, folder) pairs it tries to write a file
/// in (`written-by-candidate-<phase>`).
inline std::string probe_source(const std::vector<std::pair<std::string, fs::path>>& files,
                                const std::vector<std::pair<std::string, fs::path>>& folders, int port,
                                const std::string& abstract_socket, const fs::path& path_socket) {
  std::string file_list, folder_list;
  for (const auto& [name, path] : files) file_list += "      {\"" + name + "\", " + quoted(path) + "},\n";
  for (const auto& [name, path] : folders) folder_list += "      {\"" + name + "\", " + quoted(path) + "},\n";
  return R"(#include <arpa/inet.h>
#include <netdb.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <cerrno>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

static std::string read_file(const char* path) {
  std::ifstream stream(path, std::ios::binary);
  if (!stream) return {};
  std::ostringstream text;
  text << stream.rdbuf();
  return text.str();
}

int main(int argc, char** argv) {
  if (argc < 3) return 2;
  std::ofstream out(argv[2]);
  const auto report = [&](const std::string& probe, bool leaked, const std::string& detail) {
    out << probe << ": " << (leaked ? "LEAKED" : "blocked") << " (" << detail << ")\n";
  };
  const std::string phase = argv[1];
  const char* secret = std::getenv("HYDRA_PROBE_SECRET");
  report(phase + ": environment secret", secret != nullptr, secret ? "HYDRA_PROBE_SECRET=" + std::string(secret) : "HYDRA_PROBE_SECRET unset");
  const std::vector<std::pair<std::string, std::string>> files = {
)" + file_list + R"(  };
  for (const auto& [name, path] : files) {
    const std::string text = read_file(path.c_str());
    report(phase + ": read " + name, !text.empty(), text.empty() ? "nothing read from " + path : "read " + std::to_string(text.size()) + " bytes of " + path);
  }
  const int socket = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons()" + std::to_string(port) + R"();
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  const bool connected = ::connect(socket, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0;
  report(phase + ": connect to the listener on 127.0.0.1:)" + std::to_string(port) + R"(", connected, connected ? "connected" : std::strerror(errno));
  const auto connect_unix = [](const std::string& name, bool abstract) {
    const int socket = ::socket(AF_UNIX, SOCK_STREAM, 0);
    sockaddr_un address{};
    address.sun_family = AF_UNIX;
    std::memcpy(address.sun_path + (abstract ? 1 : 0), name.data(), name.size());
    const socklen_t length = offsetof(sockaddr_un, sun_path) + (abstract ? 1 : 0) + name.size();
    const bool connected = ::connect(socket, reinterpret_cast<sockaddr*>(&address), length) == 0;
    return connected ? std::string() : std::string(std::strerror(errno));
  };
  const std::string abstract_failed = connect_unix(")" + abstract_socket + R"(", true);
  report(phase + ": connect to an abstract Unix socket", abstract_failed.empty(), abstract_failed.empty() ? "connected" : abstract_failed);
  const std::string path_failed = connect_unix()" + quoted(path_socket) + R"(, false);
  report(phase + ": connect to a Unix socket in /tmp, as an SSH agent's", path_failed.empty(), path_failed.empty() ? "connected" : path_failed);
  addrinfo* found = nullptr;
  const int resolved = ::getaddrinfo("example.com", "80", nullptr, &found);
  report(phase + ": resolve example.com", resolved == 0, resolved == 0 ? "resolved" : ::gai_strerror(resolved));
  std::istringstream devices(read_file("/proc/net/dev"));
  std::string line, interfaces;
  while (std::getline(devices, line)) {
    const auto colon = line.find(':');
    if (colon == std::string::npos) continue;
    std::string name = line.substr(0, colon);
    name.erase(0, name.find_first_not_of(' '));
    if (name != "lo") interfaces += (interfaces.empty() ? "" : ", ") + name;
  }
  report(phase + ": a network interface besides loopback", !interfaces.empty(), interfaces.empty() ? "only lo" : interfaces);
  const std::vector<std::pair<std::string, std::string>> folders = {
)" + folder_list + R"(  };
  for (const auto& [name, folder] : folders) {
    const std::string path = folder + "/written-by-candidate-" + phase;
    std::FILE* written = std::fopen(path.c_str(), "w");
    report(phase + ": write " + name, written != nullptr, written ? "wrote " + path : std::strerror(errno));
    if (written) std::fclose(written);
  }
  return 0;
}
)";
}

}  // namespace e2e
