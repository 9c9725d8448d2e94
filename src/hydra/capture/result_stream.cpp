// Verdicts streamed to the launcher (result_stream.hpp).
#include <hydra/capture/result_stream.hpp>

#include <arpa/inet.h>
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
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>

#include <pugixml.hpp>

namespace hydra::capture {

namespace {

/// The value of `key` in a stream line's "&"-separated fields, URL-decoded.
std::optional<std::string> field(const std::string& line, const std::string& key) {
  std::size_t at = 0;
  while (at <= line.size()) {
    const std::size_t end = std::min(line.find('&', at), line.size());
    const std::string part = line.substr(at, end - at);
    if (part.rfind(key + "=", 0) == 0) {
      std::string value;
      const std::string raw = part.substr(key.size() + 1);
      for (std::size_t index = 0; index < raw.size(); ++index) {
        if (raw[index] == '%' && index + 2 < raw.size()) {
          value += static_cast<char>(std::strtol(raw.substr(index + 1, 2).c_str(), nullptr, 16));
          index += 2;
        } else {
          value += raw[index];
        }
      }
      return value;
    }
    at = end + 1;
  }
  return std::nullopt;
}

/// Report case "Suite.Name" -> "failed", "skipped" or "passed".
std::map<std::string, std::string> report_cases(const pugi::xml_document& document) {
  std::map<std::string, std::string> cases;
  for (const auto& found : document.select_nodes("//testcase")) {
    const pugi::xml_node node = found.node();
    const std::string key = std::string(node.attribute("classname").value()) + "." + node.attribute("name").value();
    std::string verdict = "passed";
    if (node.child("failure") || node.child("error"))
      verdict = "failed";
    else if (node.child("skipped") || std::string(node.attribute("result").value()) == "skipped" ||
             std::string(node.attribute("status").value()) == "notrun")
      verdict = "skipped";
    auto [it, inserted] = cases.emplace(key, verdict);
    if (!inserted && verdict == "failed") it->second = verdict;
  }
  return cases;
}

}  // namespace

StreamedResults parse_result_stream(const std::string& text) {
  StreamedResults streamed;
  std::string suite, test;
  std::istringstream lines(text);
  std::string line;
  while (std::getline(lines, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    const auto event = field(line, "event");
    if (!event) continue;
    if (*event == "TestCaseStart") {
      suite = field(line, "name").value_or("");
    } else if (*event == "TestStart") {
      test = field(line, "name").value_or("");
    } else if (*event == "TestEnd") {
      streamed.cases.emplace_back(suite + "." + test, field(line, "passed").value_or("0") == "1");
    } else if (*event == "TestProgramEnd") {
      streamed.program_passed = field(line, "passed").value_or("0") == "1";
    }
  }
  return streamed;
}

std::vector<std::string> stream_disagreements(const StreamedResults& streamed, int connections, int exit_code,
                                              const std::optional<std::string>& report_xml) {
  std::vector<std::string> why;
  if (!report_xml && (connections == 0 || !streamed.program_passed))
    return why;  // no report: the capture fails the program and says so
  if (connections == 0 || !streamed.program_passed) {
    // GoogleTest writes its report and its stream from the same place (the
    // end of the test program): a report without the stream was not
    // written by the run HydraScore watched.
    why.push_back(connections == 0 ? "the program wrote its report but streamed no results to HydraScore"
                                   : "the program wrote its report but its result stream ended early");
    return why;
  }
  if (!*streamed.program_passed && exit_code == 0)
    why.push_back("GoogleTest streamed failing cases while the program ran, yet the program exited 0");
  if (report_xml) {
    pugi::xml_document document;
    if (!document.load_string(report_xml->c_str())) return why;
    const auto cases = report_cases(document);
    for (const auto& [name, passed] : streamed.cases) {
      if (passed) continue;
      const auto found = cases.find(name);
      if (found == cases.end())
        why.push_back("case " + name + " failed while the program ran, and its report does not list it");
      else if (found->second == "passed")
        why.push_back("case " + name + " failed while the program ran, and its report says it passed");
    }
  }
  return why;
}

std::optional<std::string> mark_tampered_report(const std::string& report_xml, const StreamedResults& streamed,
                                                const std::string& reason) {
  pugi::xml_document document;
  if (!document.load_string(report_xml.c_str())) return std::nullopt;
  std::map<std::string, bool> failed;
  for (const auto& [name, passed] : streamed.cases)
    if (!passed) failed[name] = true;
  const bool every = failed.empty();
  for (const auto& found : document.select_nodes("//testcase")) {
    pugi::xml_node node = found.node();
    const std::string key = std::string(node.attribute("classname").value()) + "." + node.attribute("name").value();
    if (!every && !failed.count(key)) continue;
    if (node.child("failure") || node.child("error")) continue;
    pugi::xml_node failure = node.append_child("failure");
    failure.append_attribute("message") = ("hydra-score: tampering: " + reason).c_str();
    failure.append_attribute("type") = "tampering";
    failure.append_child(pugi::node_pcdata).set_value(("hydra-score: tampering: " + reason).c_str());
  }
  std::ostringstream out;
  document.save(out, "  ");
  return out.str();
}

std::optional<int> run_with_result_stream(const std::vector<std::string>& argv, const std::string& report) {
  const int listener = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (listener < 0) return std::nullopt;
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  address.sin_port = 0;
  socklen_t length = sizeof address;
  if (::bind(listener, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0 || ::listen(listener, 4) != 0 ||
      ::getsockname(listener, reinterpret_cast<sockaddr*>(&address), &length) != 0) {
    ::close(listener);
    return std::nullopt;
  }
  ::setenv("GTEST_STREAM_RESULT_TO", ("127.0.0.1:" + std::to_string(ntohs(address.sin_port))).c_str(), 1);
  ::signal(SIGPIPE, SIG_IGN);
  std::vector<char*> words;
  for (const auto& word : argv) words.push_back(const_cast<char*>(word.c_str()));
  words.push_back(nullptr);
  const pid_t parent = ::getpid();
  const pid_t child = ::fork();
  if (child < 0) {
    ::close(listener);
    return std::nullopt;
  }
  if (child == 0) {
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (::getppid() != parent) ::_exit(127);
    ::signal(SIGPIPE, SIG_DFL);
    ::execvp(words[0], words.data());
    std::fprintf(stderr, "hydra-score test-launcher: cannot run %s\n", words[0]);
    ::_exit(127);
  }

  std::vector<int> connections;
  std::vector<std::string> received;  // per connection
  int accepted = 0;
  int status = 0;
  bool exited = false;
  const auto read_from = [&](std::size_t index) {
    char buffer[4096];
    const ssize_t got = ::read(connections[index], buffer, sizeof buffer);
    if (got > 0) {
      received[index].append(buffer, static_cast<std::size_t>(got));
      return true;
    }
    if (got < 0 && (errno == EINTR || errno == EAGAIN)) return false;
    ::close(connections[index]);
    connections[index] = -1;
    return false;
  };
  while (!exited) {
    std::vector<pollfd> watched = {{listener, POLLIN, 0}};
    for (int connection : connections) watched.push_back({connection, POLLIN, 0});
    ::poll(watched.data(), watched.size(), 50);
    if (watched[0].revents & POLLIN) {
      const int connection = ::accept4(listener, nullptr, nullptr, SOCK_CLOEXEC | SOCK_NONBLOCK);
      if (connection >= 0) {
        connections.push_back(connection);
        received.emplace_back();
        ++accepted;
      }
    }
    for (std::size_t index = 0; index + 1 < watched.size(); ++index)
      if (connections[index] >= 0 && (watched[index + 1].revents & (POLLIN | POLLHUP | POLLERR))) read_from(index);
    const pid_t done = ::waitpid(child, &status, WNOHANG);
    exited = done == child || (done < 0 && errno != EINTR);
  }
  // What the program sent before it ended, to the last byte.
  for (std::size_t index = 0; index < connections.size(); ++index)
    while (connections[index] >= 0 && read_from(index)) {
    }
  for (int connection : connections)
    if (connection >= 0) ::close(connection);
  ::close(listener);

  const int exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : WIFSIGNALED(status) ? 128 + WTERMSIG(status) : 1;
  std::optional<std::string> report_xml;
  if (std::ifstream in{report}) {
    std::ostringstream text;
    text << in.rdbuf();
    report_xml = text.str();
  }
  // Every connection's verdicts count (a death test's child connects too,
  // and sends nothing): a failure any of them streamed stays a failure.
  StreamedResults streamed;
  for (const auto& text : received) {
    StreamedResults one = parse_result_stream(text);
    streamed.cases.insert(streamed.cases.end(), one.cases.begin(), one.cases.end());
    if (one.program_passed)
      streamed.program_passed = streamed.program_passed.value_or(true) && *one.program_passed;
  }
  const std::vector<std::string> why = stream_disagreements(streamed, accepted, exit_code, report_xml);
  if (why.empty()) return exit_code;
  std::string reason;
  for (const auto& sentence : why) reason += (reason.empty() ? "" : "; ") + sentence;
  std::cerr << "hydra-score: tampering: " << reason << "\n";
  if (report_xml)
    if (const auto marked = mark_tampered_report(*report_xml, streamed, reason)) std::ofstream(report) << *marked;
  return exit_code == 0 ? 1 : exit_code;
}

}  // namespace hydra::capture
