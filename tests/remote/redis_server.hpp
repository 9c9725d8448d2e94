// A real Redis server (Debian's redis-server) for a test: started on a Unix
// socket (and, when asked, a loopback TCP port) in a temporary folder,
// persistence off, stopped when the object goes.
#pragma once

#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
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

namespace fs = std::filesystem;

class RedisServer {
 public:
  /// `settings`: extra "name value" pairs for the server (e.g. maxmemory).
  explicit RedisServer(std::vector<std::string> settings = {}, int tcp_port = 0) {
    folder_ = fs::temp_directory_path() / ("hydra-redis-" + std::to_string(::getpid()) + "-" +
                                           std::to_string(counter()++));
    fs::remove_all(folder_);
    fs::create_directories(folder_);
    socket_ = folder_ / "redis.sock";
    std::vector<std::string> argv = {"redis-server", "--port", std::to_string(tcp_port), "--bind", "127.0.0.1",
                                     "--unixsocket", socket_.string(), "--unixsocketperm", "700", "--save", "",
                                     "--appendonly", "no", "--daemonize", "no", "--dir", folder_.string(),
                                     "--logfile", (folder_ / "redis.log").string()};
    for (const auto& setting : settings) {
      const auto space = setting.find(' ');
      argv.push_back("--" + setting.substr(0, space));
      argv.push_back(setting.substr(space + 1));
    }
    // A child of this process (not a daemon): nothing that reaps a
    // command's leftovers can take it away before it is ready.
    std::vector<char*> words;
    for (auto& word : argv) words.push_back(word.data());
    words.push_back(nullptr);
    if (::posix_spawnp(&pid_, "redis-server", nullptr, nullptr, words.data(), environ) != 0)
      throw std::runtime_error("redis-server cannot be started");
    for (int i = 0; i < 400 && !fs::exists(socket_); ++i)
      std::this_thread::sleep_for(std::chrono::milliseconds(25));
    if (!fs::exists(socket_)) {
      stop();
      throw std::runtime_error("redis-server made no socket at " + socket_.string());
    }
  }
  ~RedisServer() {
    stop();
    std::error_code error;
    fs::remove_all(folder_, error);
  }
  RedisServer(const RedisServer&) = delete;
  RedisServer& operator=(const RedisServer&) = delete;

  std::string url() const { return "redis+unix:" + socket_.string(); }
  const fs::path& socket() const { return socket_; }

  /// Kills the server at once (SIGKILL), as a crash would.
  void stop() {
    if (pid_ <= 0) return;
    ::kill(pid_, SIGKILL);
    int status = 0;
    ::waitpid(pid_, &status, 0);
    pid_ = -1;
  }

  /// Runs redis-cli against the server; its output.
  std::string cli(std::vector<std::string> arguments) const {
    hydra::util::ProcessRequest request;
    request.argv = {"redis-cli", "-s", socket_.string()};
    request.argv.insert(request.argv.end(), arguments.begin(), arguments.end());
    request.timeout = std::chrono::seconds(30);
    return hydra::util::run_process(request).output;
  }

 private:
  static int& counter() {
    static int value = 0;
    return value;
  }
  fs::path folder_, socket_;
  pid_t pid_ = -1;
};

}  // namespace remote_test
