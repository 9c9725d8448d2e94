// Shared by the JSON parsers (ctest json-v1, agent metrics): nlohmann's
// errors turned into hydra::InputError with a line and column.
#pragma once

#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace hydra::parse {

/// Parses `json_text` (`source_name` names it in errors). Throws
/// hydra::InputError with the 1-based line and column of a syntax error; NaN
/// and Infinity (not JSON) and numbers too large for a double get a message
/// that says so.
nlohmann::json parse_json_document(std::string_view json_text, const std::string& source_name);

}  // namespace hydra::parse
