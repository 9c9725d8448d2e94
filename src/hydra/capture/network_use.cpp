// Steps that needed the network (network_use.hpp).
#include <hydra/capture/network_use.hpp>

#include <algorithm>
#include <cctype>
#include <set>

namespace hydra::capture {
using nlohmann::json;

namespace {

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
    "you're using offline mode",       // cargo --offline: not in the registry cache
    "failed to download from",         // cargo
    "newconnectionerror",              // pip
};

std::string lower(std::string_view text) {
  std::string out(text);
  std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

}  // namespace

std::string network_failure_line(std::string_view log) {
  std::size_t start = 0;
  while (start < log.size()) {
    std::size_t end = log.find('\n', start);
    if (end == std::string_view::npos) end = log.size();
    const std::string_view line = log.substr(start, end - start);
    start = end + 1;
    const std::string text = lower(line);
    for (const char* signature : failure_signatures) {
      if (text.find(signature) == std::string::npos) continue;
      std::string shown(line);
      while (!shown.empty() && std::isspace(static_cast<unsigned char>(shown.back()))) shown.pop_back();
      const auto first = shown.find_first_not_of(" \t");
      return first == std::string::npos ? std::string() : shown.substr(first, 300);
    }
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
