// Lenient reads of tool-written JSON (the CMake File API reply, ctest's test
// list): a member that is missing or of another type reads as null or empty,
// so that a reply HydraScore does not fully understand is reported by its
// reader, never thrown from a lookup.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace hydra::capture {

/// `object[key]`, or null when `object` is not an object or has no `key`.
inline const nlohmann::json& member(const nlohmann::json& object, const char* key) {
  static const nlohmann::json null;
  if (!object.is_object()) return null;
  const auto found = object.find(key);
  return found == object.end() ? null : *found;
}

/// `object[key]` as a string, or "" when it is not one.
inline std::string string_member(const nlohmann::json& object, const char* key) {
  const nlohmann::json& value = member(object, key);
  return value.is_string() ? value.get<std::string>() : std::string();
}

}  // namespace hydra::capture
