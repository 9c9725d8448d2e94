#include <hydra/model/lint.hpp>

#include <limits>

#include <hydra/error.hpp>
#include <hydra/util/xxh64.hpp>

namespace hydra::model {

namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_letter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
char lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

/// Whether `message[0, end)` ends with a position word (a whole word).
bool ends_with_position_word(std::string_view message, std::size_t end) {
  std::size_t start = end;
  while (start > 0 && is_letter(message[start - 1])) --start;
  if (start == end || end - start > 7) return false;
  if (start > 0 && (is_digit(message[start - 1]) || message[start - 1] == '_')) return false;
  std::string word;
  for (std::size_t i = start; i < end; ++i) word += lower(message[i]);
  return word == "line" || word == "lines" || word == "column" || word == "columns" || word == "col" ||
         word == "ln";
}

/// Whether `message[0, end)` ends with a file name with an extension
/// ("src/a.cpp", "lib.rs"): letters or digits after a '.', a name before it.
bool ends_with_file_name(std::string_view message, std::size_t end) {
  std::size_t dot = end;
  while (dot > 0 && (is_letter(message[dot - 1]) || is_digit(message[dot - 1]))) --dot;
  const std::size_t extension = end - dot;
  if (extension == 0 || extension > 5 || dot < 2 || message[dot - 1] != '.') return false;
  const char before = message[dot - 2];
  return is_letter(before) || is_digit(before) || before == '_' || before == '-';
}

/// Whether the digits starting at `at` are a position: after a position
/// word (and blanks, ':' or '#'), or after "file.ext:".
bool starts_position(std::string_view message, std::size_t at) {
  std::size_t end = at;
  if (end > 0 && message[end - 1] == ':' && ends_with_file_name(message, end - 1)) return true;
  while (end > 0 && (message[end - 1] == ' ' || message[end - 1] == ':' || message[end - 1] == '#')) --end;
  return end < at && ends_with_position_word(message, end);
}

}  // namespace

bool position_free_message(std::string_view message, std::string& out) {
  bool changed = false;
  std::string result;
  std::size_t copied = 0;  // message[0, copied) is in `result`
  bool chained = false;    // the digits just passed were a position
  std::size_t i = 0;
  while (i < message.size()) {
    if (!is_digit(message[i])) {
      // A position chains on through "-", ":" or "," straight into digits ("3-5", "12:5").
      const bool link = (message[i] == '-' || message[i] == ':' || message[i] == ',') && i + 1 < message.size() &&
                        is_digit(message[i + 1]);
      chained = chained && link;
      ++i;
      continue;
    }
    std::size_t end = i;
    while (end < message.size() && is_digit(message[end])) ++end;
    const bool part_of_word = i > 0 && (is_letter(message[i - 1]) || message[i - 1] == '_');
    if (!part_of_word && (chained || starts_position(message, i))) {
      if (!changed) result.reserve(message.size());
      result.append(message.substr(copied, i - copied)).append("N");
      copied = end;
      changed = true;
      chained = true;
    } else {
      chained = false;
    }
    i = end;
  }
  if (!changed) return false;
  result.append(message.substr(copied));
  out = std::move(result);
  return true;
}

LintFinding::LintFinding() : text_("\x1f\x1f\x1f\x1f"), fingerprint_(util::xxh64(text_)) {}

LintFinding::LintFinding(const Parts& parts) : line_(parts.line), column_(parts.column), severity_(parts.severity) {
  const std::size_t size = parts.tool.size() + parts.file.size() + parts.checks.size() + parts.message.size() +
                           parts.source_line.size() + 4;
  if (size > std::numeric_limits<std::uint32_t>::max())
    throw Error("a lint finding of more than 4 GiB of text is not supported");
  text_.reserve(size);
  // tool 0x1F file 0x1F checks 0x1F message 0x1F source_line
  const std::string_view pieces[] = {parts.tool, parts.file, parts.checks, parts.message, parts.source_line};
  std::uint32_t* const separators[] = {&tool_end_, &file_end_, &checks_end_, &message_end_};
  text_.append(pieces[0]);
  for (std::size_t i = 0; i < 4; ++i) {
    *separators[i] = static_cast<std::uint32_t>(text_.size());
    text_ += '\x1f';
    text_.append(pieces[i + 1]);
  }
  // Hashed as stored unless the message mentions a position (one copy then).
  std::string message;
  fingerprint_ = position_free_message(this->message(), message) ? util::xxh64(fingerprint_bytes())
                                                                 : util::xxh64(text_);
}

std::string LintFinding::fingerprint_bytes() const {
  std::string message;
  if (!position_free_message(this->message(), message)) return text_;
  std::string bytes;
  bytes.reserve(text_.size() + message.size());
  bytes.append(text_, 0, checks_end_ + 1).append(message).append(text_, message_end_, std::string::npos);
  return bytes;
}

std::vector<std::string_view> LintFinding::checks() const {
  std::vector<std::string_view> names;
  std::string_view rest = joined_checks();
  while (!rest.empty()) {
    const std::size_t comma = rest.find(',');
    names.push_back(rest.substr(0, comma));
    rest.remove_prefix(comma == std::string_view::npos ? rest.size() : comma + 1);
  }
  return names;
}

std::string LintFinding::fingerprint_hex() const { return util::hex64(fingerprint_); }

void LintFinding::set_file(std::string_view file) {
  Parts parts;
  parts.tool = tool();
  parts.file = file;
  parts.line = line_;
  parts.column = column_;
  parts.severity = severity_;
  parts.message = message();
  parts.checks = joined_checks();
  parts.source_line = source_line();
  *this = LintFinding(parts);  // the parts are views into text_, so build apart first
}

}  // namespace hydra::model
