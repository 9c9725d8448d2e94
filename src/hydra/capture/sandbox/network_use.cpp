// Steps that needed the network (network_use.hpp).
#include <hydra/capture/sandbox/network_use.hpp>
#include <hydra/util/text.hpp>

#include <algorithm>
#include <cctype>
#include <set>

namespace hydra::capture {
using nlohmann::json;

namespace {

/// cargo's reminder after an error of a build in offline mode; the error
/// itself ("no matching package named `itoa` found") is the line to show.
const char* const offline_reminder = "you're using offline mode";

/// What curl, git, cargo, npm, pip and CMake's downloads print when there is
/// no network (lower case).
const char* const failure_signatures[] = {
    "could not resolve host",          // curl, git, cargo ("Could not resolve hostname")
    "couldn't resolve host",           // CMake file(DOWNLOAD), curl
    "temporary failure in name resolution",
    "name or service not known",
    "network is unreachable",
    "getaddrinfo enotfound",           // npm, node
    "getaddrinfo eai_again",
    "enotcached",                      // npm --offline: not in the cache
    offline_reminder,                  // cargo --offline: not in the registry cache
    "failed to download from",         // cargo
    "newconnectionerror",              // pip
};

std::string lower(std::string_view text) {
  std::string out(text);
  std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

/// `line` without the white space around it.
std::string trimmed(std::string_view line) { return std::string(util::trim(line, " \t\r")); }

}  // namespace

std::string network_failure_line(std::string_view log) {
  std::size_t start = 0;
  // The last "error: ..." line before: what cargo's offline reminder is about.
  std::string last_error;
  while (start < log.size()) {
    std::size_t end = log.find('\n', start);
    if (end == std::string_view::npos) end = log.size();
    const std::string line = trimmed(log.substr(start, end - start));
    start = end + 1;
    const std::string text = lower(line);
    for (const char* signature : failure_signatures) {
      if (text.find(signature) == std::string::npos) continue;
      if (signature == offline_reminder && !last_error.empty()) return last_error.substr(0, 300);
      return line.substr(0, 300);
    }
    if (text.rfind("error:", 0) == 0) last_error = line;
  }
  return {};
}

std::vector<std::string> declared_packages(const std::string& package_json) {
  std::set<std::string> names;
  try {
    const json document = json::parse(package_json);
    if (!document.is_object()) return {};
    for (const char* key : {"dependencies", "devDependencies", "optionalDependencies", "peerDependencies"}) {
      const auto found = document.find(key);
      if (found == document.end() || !found->is_object()) continue;
      for (const auto& item : found->items()) names.insert(item.key());
    }
  } catch (const json::exception&) {
    return {};
  }
  return {names.begin(), names.end()};
}

std::string network_needed_message(const std::string& what, const std::string& evidence) {
  return what + " needs the network (" + evidence +
         "), which the steps that run candidate code do not have: provide the dependencies beforehand (vendored, "
         "installed, or in the tool's cache), or set `[sandbox] network = true` in hydra.toml to let candidate code "
         "reach the network (every report then says so)";
}

}  // namespace hydra::capture
