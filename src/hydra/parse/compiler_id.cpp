#include <hydra/parse/compiler_id.hpp>

namespace hydra::parse {
namespace {

std::string_view trimmed(std::string_view text) {
  while (!text.empty() && (text.back() == '\r' || text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  return text;
}

/// The quoted value of `set(<variable> "value")` in `text`, or nullopt.
std::optional<std::string> set_value(std::string_view text, std::string_view variable) {
  const std::string needle = "set(" + std::string(variable) + " \"";
  const auto start = text.find(needle);
  if (start == std::string_view::npos) return std::nullopt;
  const auto value_start = start + needle.size();
  const auto end = text.find('"', value_start);
  if (end == std::string_view::npos) return std::nullopt;
  return std::string(text.substr(value_start, end - value_start));
}

}  // namespace

std::optional<std::string> compiler_identification_from_log(std::string_view configure_log) {
  for (const std::string_view language : {"CXX", "C"}) {
    const std::string needle = "The " + std::string(language) + " compiler identification is ";
    const auto start = configure_log.find(needle);
    if (start == std::string_view::npos) continue;
    const auto value_start = start + needle.size();
    const auto end = configure_log.find('\n', value_start);
    const std::string_view value =
        trimmed(configure_log.substr(value_start, end == std::string_view::npos ? std::string_view::npos : end - value_start));
    if (!value.empty() && value != "unknown") return std::string(value);
  }
  return std::nullopt;
}

std::optional<std::string> compiler_identification_from_cmake_file(std::string_view text) {
  for (const std::string_view language : {"CXX", "C"}) {
    const auto id = set_value(text, "CMAKE_" + std::string(language) + "_COMPILER_ID");
    if (!id || id->empty()) continue;
    const auto version = set_value(text, "CMAKE_" + std::string(language) + "_COMPILER_VERSION");
    return version && !version->empty() ? *id + " " + *version : *id;
  }
  return std::nullopt;
}

}  // namespace hydra::parse
