#include <hydra/parse/json_error.hpp>

#include <cctype>

#include <hydra/error.hpp>
#include <hydra/util/files.hpp>

namespace hydra::parse {
namespace {

/// nlohmann's what() reads "[json.exception.parse_error.101] parse error at
/// line 1, column 7: syntax error ..."; keep what follows the position.
std::string reason_of(const nlohmann::json::exception& error) {
  const std::string what = error.what();
  const auto column = what.find("column ");
  const auto colon = what.find(": ", column == std::string::npos ? 0 : column);
  if (colon != std::string::npos) return what.substr(colon + 2);
  const auto bracket = what.find("] ");
  return bracket == std::string::npos ? what : what.substr(bracket + 2);
}

/// True when the token around `offset` spells NaN or Infinity (any case,
/// optionally signed), which JSON does not allow.
bool is_non_finite_literal(std::string_view text, std::size_t offset) {
  std::size_t start = std::min(offset, text.size());
  while (start > 0 && (std::isalpha(static_cast<unsigned char>(text[start - 1])) ||
                       text[start - 1] == '-' || text[start - 1] == '+'))
    --start;
  std::string token;
  for (std::size_t i = start; i < text.size() && token.size() < 9; ++i) {
    const char c = text[i];
    if (c == '-' || c == '+') {
      if (!token.empty()) break;
      continue;
    }
    if (!std::isalpha(static_cast<unsigned char>(c))) break;
    token += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  return token.rfind("nan", 0) == 0 || token.rfind("inf", 0) == 0;
}

}  // namespace

nlohmann::json parse_json_document(std::string_view json_text, const std::string& source_name) {
  try {
    return nlohmann::json::parse(json_text.begin(), json_text.end());
  } catch (const nlohmann::json::parse_error& error) {
    const std::size_t offset = error.byte > 0 ? error.byte - 1 : 0;
    const auto at = util::position_of(json_text, offset);
    if (is_non_finite_literal(json_text, offset))
      throw InputError(source_name, "NaN and Infinity are not valid JSON numbers", at.line, at.column);
    throw InputError(source_name, "malformed JSON: " + reason_of(error), at.line, at.column);
  } catch (const nlohmann::json::out_of_range& error) {
    // "number overflow parsing '1e400'": point at the number when it can be found.
    std::string reason = reason_of(error);
    util::TextPosition at;
    if (const auto open = reason.find('\''), close = reason.rfind('\'');
        open != std::string::npos && close > open) {
      const auto literal = reason.substr(open + 1, close - open - 1);
      if (const auto found = json_text.find(literal); found != std::string_view::npos)
        at = util::position_of(json_text, found);
    }
    throw InputError(source_name, "number out of range (not a finite double): " + reason, at.line,
                     at.column);
  }
}

}  // namespace hydra::parse
