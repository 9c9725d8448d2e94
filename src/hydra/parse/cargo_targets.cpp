// Packages and targets of cargo test binaries (cargo_targets.hpp).
#include <hydra/parse/cargo_targets.hpp>

#include <nlohmann/json.hpp>

#include <hydra/util/text.hpp>

namespace hydra::parse {
namespace {

using nlohmann::json;
using util::ends_with;
using util::starts_with;

using util::trim;

/// The last part of a path ("target/debug/deps/x-hash" -> "x-hash"), without ".exe".
std::string_view file_name(std::string_view path) {
  if (const auto slash = path.find_last_of("/\\"); slash != std::string_view::npos) path.remove_prefix(slash + 1);
  if (ends_with(path, ".exe")) path.remove_suffix(4);
  return path;
}

/// `binary` without cargo's "-<hash>" (at least 8 lower-case hex digits).
std::string_view without_hash(std::string_view binary) {
  const auto dash = binary.rfind('-');
  if (dash == std::string_view::npos || dash + 1 >= binary.size()) return binary;
  const std::string_view hash = binary.substr(dash + 1);
  bool hex = hash.size() >= 8;
  for (const char c : hash) hex = hex && ((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'));
  return hex ? binary.substr(0, dash) : binary;
}

/// The package name in a package id: "alpha 0.1.0 (path+file:///w/alpha)"
/// (cargo before 1.77), "path+file:///w/alpha#0.1.0",
/// "path+file:///w/dir#alpha@0.1.0", "registry+https://...#serde@1.0.0".
std::string package_name(std::string_view id) {
  if (const auto space = id.find(' '); space != std::string_view::npos) return std::string(id.substr(0, space));
  const auto hash = id.rfind('#');
  if (hash == std::string_view::npos) return {};
  const std::string_view fragment = id.substr(hash + 1);
  if (const auto at = fragment.find('@'); at != std::string_view::npos) return std::string(fragment.substr(0, at));
  std::string_view url = id.substr(0, hash);
  while (!url.empty() && url.back() == '/') url.remove_suffix(1);
  const auto slash = url.rfind('/');
  return slash == std::string_view::npos ? std::string() : std::string(url.substr(slash + 1));
}

const std::string* string_member(const json& object, const char* name) {
  const auto found = object.find(name);
  return found != object.end() && found->is_string() ? &found->get_ref<const std::string&>() : nullptr;
}

}  // namespace

std::optional<CargoHeader> cargo_header(std::string_view line) {
  if (line.empty() || line.front() != ' ') return std::nullopt;
  const std::string_view text = trim(line);
  CargoHeader header;
  if (starts_with(text, "Doc-tests ")) {
    header.target = "doc-tests";
    header.doc_crate = std::string(trim(text.substr(10)));
    if (header.doc_crate.empty()) return std::nullopt;
    return header;
  }
  if (!starts_with(text, "Running ")) return std::nullopt;
  std::string_view target = trim(text.substr(8));
  if (target.empty()) return std::nullopt;
  if (target.back() == ')') {
    if (const auto open = target.rfind(" ("); open != std::string_view::npos) {
      header.target = std::string(target.substr(0, open));
      header.binary = std::string(file_name(target.substr(open + 2, target.size() - open - 3)));
      if (header.target.empty()) return std::nullopt;
      return header;
    }
  }
  // A bare binary path, maybe quoted in backticks and followed by arguments (-v).
  if (target.front() == '`') {
    target.remove_prefix(1);
    target = target.substr(0, target.find_first_of("` "));
  } else {
    target = target.substr(0, target.find(' '));
  }
  header.binary = std::string(file_name(target));
  if (header.binary.empty()) return std::nullopt;
  return header;
}

void CargoPackages::read_message(std::string_view line) {
  line = trim(line);
  if (!starts_with(line, "{") || line.find("\"compiler-artifact\"") == std::string_view::npos) return;
  const json message = json::parse(line, nullptr, false);
  if (!message.is_object()) return;
  const std::string* reason = string_member(message, "reason");
  const std::string* id = string_member(message, "package_id");
  if (reason == nullptr || *reason != "compiler-artifact" || id == nullptr) return;
  const std::string package = package_name(*id);
  if (package.empty()) return;
  if (const std::string* executable = string_member(message, "executable"))
    package_of_binary_[std::string(file_name(*executable))] = package;
  const auto target = message.find("target");
  if (target == message.end() || !target->is_object()) return;
  const std::string* name = string_member(*target, "name");
  const auto kinds = target->find("kind");
  if (name == nullptr || kinds == target->end() || !kinds->is_array()) return;
  for (const auto& kind : *kinds)
    if (kind.is_string() && (kind == "lib" || kind == "rlib" || kind == "proc-macro")) package_of_lib_[*name] = package;
}

std::string CargoPackages::suite_of(const CargoHeader& header) const {
  std::string package;
  if (!header.binary.empty()) {
    const auto found = package_of_binary_.find(header.binary);
    package = found != package_of_binary_.end() ? found->second : std::string(without_hash(header.binary));
  } else {
    const auto found = package_of_lib_.find(header.doc_crate);
    package = found != package_of_lib_.end() ? found->second : header.doc_crate;
  }
  return header.target.empty() ? package : package + "/" + header.target;
}

std::string_view without_doc_test_line(std::string_view name, unsigned long& line) {
  line = 0;
  // "... (line N)": libtest's name for a doc test.
  if (!ends_with(name, ")")) return name;
  const auto open = name.rfind(" (line ");
  if (open == std::string_view::npos) return name;
  const std::string_view digits = name.substr(open + 7, name.size() - open - 8);
  if (digits.empty() || digits.size() > 9) return name;
  unsigned long value = 0;
  for (const char c : digits) {
    if (c < '0' || c > '9') return name;
    value = value * 10 + static_cast<unsigned long>(c - '0');
  }
  line = value;
  return name.substr(0, open);
}

}  // namespace hydra::parse
