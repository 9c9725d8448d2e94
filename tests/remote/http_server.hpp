// A real HTTP server that answers GET and PUT (Debian's nginx, its WebDAV
// module) for a test: a loopback port of its own, files in a temporary
// folder, stopped when the object goes.
#pragma once

#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <hydra/util/process.hpp>

namespace remote_test {

class HttpServer {
 public:
  HttpServer() {
    namespace fs = std::filesystem;
    folder_ = fs::temp_directory_path() / ("hydra-nginx-" + std::to_string(::getpid()));
    fs::remove_all(folder_);
    fs::create_directories(folder_ / "www");
    fs::create_directories(folder_ / "temp");
    port_ = free_port();
    const auto f = folder_.string();
    std::ofstream(folder_ / "nginx.conf")
        << "user root root;\nworker_processes 1;\ndaemon off;\npid " << f << "/nginx.pid;\nerror_log " << f
        << "/error.log;\nevents { worker_connections 64; }\nhttp {\n  access_log off;\n"
        << "  client_body_temp_path " << f << "/temp/body;\n  proxy_temp_path " << f << "/temp/proxy;\n"
        << "  fastcgi_temp_path " << f << "/temp/fastcgi;\n  uwsgi_temp_path " << f << "/temp/uwsgi;\n"
        << "  scgi_temp_path " << f << "/temp/scgi;\n"
        << "  server {\n    listen 127.0.0.1:" << port_ << ";\n    root " << f << "/www;\n"
        << "    location / { dav_methods PUT; create_full_put_path on; client_max_body_size 64m; }\n  }\n}\n";
    // A child of this process (not a daemon): nothing that reaps a
    // command's leftovers can take it away.
    std::vector<std::string> argv = {"nginx", "-p", f, "-c", f + "/nginx.conf", "-e", f + "/error.log"};
    std::vector<char*> words;
    for (auto& word : argv) words.push_back(word.data());
    words.push_back(nullptr);
    if (::posix_spawnp(&pid_, "nginx", nullptr, nullptr, words.data(), environ) != 0)
      throw std::runtime_error("nginx cannot be started");
    for (int i = 0; i < 400 && !fs::exists(folder_ / "nginx.pid"); ++i)
      std::this_thread::sleep_for(std::chrono::milliseconds(25));
  }
  ~HttpServer() {
    if (pid_ > 0) {
      ::kill(pid_, SIGQUIT);
      int status = 0;
      ::waitpid(pid_, &status, 0);
    }
    std::error_code error;
    std::filesystem::remove_all(folder_, error);
  }
  HttpServer(const HttpServer&) = delete;
  HttpServer& operator=(const HttpServer&) = delete;

  std::string url() const { return "http://127.0.0.1:" + std::to_string(port_) + "/cache"; }
  const std::filesystem::path& files() const { return folder_; }
  std::filesystem::path www() const { return folder_ / "www"; }

 private:
  static int free_port() {
    const int socket_fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t length = sizeof address;
    if (::bind(socket_fd, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0 ||
        ::getsockname(socket_fd, reinterpret_cast<sockaddr*>(&address), &length) != 0) {
      ::close(socket_fd);
      throw std::runtime_error("no free loopback port");
    }
    ::close(socket_fd);
    return ntohs(address.sin_port);
  }

  std::filesystem::path folder_;
  int port_ = 0;
  pid_t pid_ = -1;
};

}  // namespace remote_test
