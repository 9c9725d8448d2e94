// A test program run as the launcher's child (child_run.hpp).
#include <hydra/capture/runners/child_run.hpp>
#include <hydra/capture/runners/witness.hpp>

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>

namespace hydra::capture {

namespace {

/// A loopback listener for GoogleTest's stream: its socket and port; -1 when none.
std::pair<int, int> stream_listener() {
  const int listener = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (listener < 0) return {-1, 0};
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  address.sin_port = 0;
  socklen_t length = sizeof address;
  if (::bind(listener, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0 || ::listen(listener, 4) != 0 ||
      ::getsockname(listener, reinterpret_cast<sockaddr*>(&address), &length) != 0) {
    ::close(listener);
    return {-1, 0};
  }
  return {listener, ntohs(address.sin_port)};
}

/// Reads what `fd` holds now into `into`; false (and `fd` closed, -1) at its end.
bool drain(int& fd, std::string& into) {
  char buffer[4096];
  const ssize_t got = ::read(fd, buffer, sizeof buffer);
  if (got > 0) {
    into.append(buffer, static_cast<std::size_t>(got));
    return true;
  }
  if (got < 0 && errno == EINTR) return true;  // interrupted: read again
  if (got < 0 && errno == EAGAIN) return false;
  ::close(fd);
  fd = -1;
  return false;
}

std::string replaced(std::string word, const std::string& from, const std::string& to) {
  for (std::size_t at = word.find(from); at != std::string::npos; at = word.find(from, at + to.size()))
    word.replace(at, from.size(), to);
  return word;
}

}  // namespace

ChildResult run_child(const ChildRequest& request) {
  ChildResult result;
  int listener = -1;
  int port = 0;
  if (request.result_stream) {
    std::tie(listener, port) = stream_listener();
    if (listener < 0) return result;
  }
  int witness[2] = {-1, -1};
  int report[2] = {-1, -1};
  const auto close_all = [&] {
    for (int fd : {listener, witness[0], witness[1], report[0], report[1]})
      if (fd >= 0) ::close(fd);
  };
  if ((request.witness && ::pipe2(witness, O_CLOEXEC) != 0) || (request.report_pipe && ::pipe2(report, O_CLOEXEC) != 0)) {
    close_all();
    return result;
  }
  std::vector<std::string> argv = request.argv;
  if (request.report_pipe)
    for (auto& word : argv) word = replaced(word, kReportPipeWord, "/dev/fd/" + std::to_string(report[1]));
  std::vector<std::pair<std::string, std::string>> environment = request.environment;
  if (request.result_stream) environment.emplace_back("GTEST_STREAM_RESULT_TO", "127.0.0.1:" + std::to_string(port));
  if (request.witness) {
    result.witness_token = witness_token();
    const char* preload = std::getenv("LD_PRELOAD");
    std::string value = request.witness->string();
    if (preload && *preload) value += std::string(":") + preload;
    environment.emplace_back("LD_PRELOAD", value);
    environment.emplace_back(kWitnessVariable, std::to_string(witness[1]) + ":" + result.witness_token + ":" +
                                                   request.witness_mode);
  }
  std::vector<char*> words;
  for (const auto& word : argv) words.push_back(const_cast<char*>(word.c_str()));
  words.push_back(nullptr);
  ::signal(SIGPIPE, SIG_IGN);
  const pid_t parent = ::getpid();
  const pid_t child = ::fork();
  if (child < 0) {
    close_all();
    return result;
  }
  if (child == 0) {
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (::getppid() != parent) ::_exit(127);
    ::signal(SIGPIPE, SIG_DFL);
    for (int fd : {witness[1], report[1]})
      if (fd >= 0) ::fcntl(fd, F_SETFD, 0);  // inherited by the program
    for (const auto& [variable, value] : environment) ::setenv(variable.c_str(), value.c_str(), 1);
    if (request.quiet) {
      const int null = ::open("/dev/null", O_WRONLY);
      if (null >= 0) {
        ::dup2(null, 1);
        ::dup2(null, 2);
      }
    }
    ::execvp(words[0], words.data());
    std::fprintf(stderr, "hydra-score test-launcher: cannot run %s\n", words[0]);
    ::_exit(127);
  }
  result.started = true;
  result.pid = child;
  for (int* end : {&witness[1], &report[1]})
    if (*end >= 0) {
      ::close(*end);
      *end = -1;
    }

  std::vector<int> connections;
  bool exited = false;
  while (!exited) {
    std::vector<pollfd> watched;
    if (listener >= 0) watched.push_back({listener, POLLIN, 0});
    for (int fd : {witness[0], report[0]})
      if (fd >= 0) watched.push_back({fd, POLLIN, 0});
    for (int connection : connections)
      if (connection >= 0) watched.push_back({connection, POLLIN, 0});
    ::poll(watched.data(), watched.size(), 50);
    if (listener >= 0 && (watched[0].revents & POLLIN)) {
      const int connection = ::accept4(listener, nullptr, nullptr, SOCK_CLOEXEC | SOCK_NONBLOCK);
      if (connection >= 0) {
        connections.push_back(connection);
        result.stream_texts.emplace_back();
        ++result.stream_connections;
      }
    }
    // Pipes are read as they fill (a writer blocks on a full pipe).
    if (witness[0] >= 0) {
      pollfd one = {witness[0], POLLIN, 0};
      if (::poll(&one, 1, 0) > 0) drain(witness[0], result.witness_text);
    }
    if (report[0] >= 0) {
      pollfd one = {report[0], POLLIN, 0};
      if (::poll(&one, 1, 0) > 0) drain(report[0], result.report_text);
    }
    for (std::size_t index = 0; index < connections.size(); ++index) {
      pollfd one = {connections[index], POLLIN, 0};
      if (connections[index] >= 0 && ::poll(&one, 1, 0) > 0) drain(connections[index], result.stream_texts[index]);
    }
    const pid_t done = ::waitpid(child, &result.wait_status, WNOHANG);
    exited = done == child || (done < 0 && errno != EINTR);
  }
  // What arrived before the program ended, to the last byte (a process the
  // program left behind that still holds a pipe is not waited for): a
  // connection made since the last look is accepted too (a program that
  // connects, streams and ends between two looks).
  while (listener >= 0) {
    pollfd one = {listener, POLLIN, 0};
    if (::poll(&one, 1, 0) <= 0) break;
    const int connection = ::accept4(listener, nullptr, nullptr, SOCK_CLOEXEC | SOCK_NONBLOCK);
    if (connection < 0) break;
    connections.push_back(connection);
    result.stream_texts.emplace_back();
    ++result.stream_connections;
  }
  for (int* fd : {&witness[0], &report[0]})
    if (*fd >= 0) {
      ::fcntl(*fd, F_SETFL, O_NONBLOCK);
      std::string& into = fd == &witness[0] ? result.witness_text : result.report_text;
      while (*fd >= 0 && drain(*fd, into)) {
      }
    }
  for (std::size_t index = 0; index < connections.size(); ++index)
    while (connections[index] >= 0 && drain(connections[index], result.stream_texts[index])) {
    }
  for (int connection : connections)
    if (connection >= 0) ::close(connection);
  close_all();
  const int status = result.wait_status;
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : WIFSIGNALED(status) ? 128 + WTERMSIG(status) : 1;
  return result;
}

}  // namespace hydra::capture
