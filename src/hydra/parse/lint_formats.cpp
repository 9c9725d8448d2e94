#include <hydra/parse/lint_formats.hpp>

#include <cstdint>
#include <limits>
#include <optional>
#include <unordered_set>

#include <nlohmann/json.hpp>

#include <hydra/error.hpp>
#include <hydra/parse/json_error.hpp>
#include <hydra/parse/lint_grammar.hpp>
#include <hydra/util/files.hpp>
#include <hydra/util/mapped_file.hpp>
#include <hydra/util/text.hpp>

// Three lint formats read into model::LintFinding (see docs/parsers.md):
// cargo's --message-format=json lines, ESLint's --format json array, and
// flake8's text lines. The findings are de-duplicated as the clang-tidy
// parser does: the same file, line, column, checks and message once.
namespace hydra::parse {
namespace {

using model::LintFinding;
using model::Severity;
using nlohmann::json;

using util::ends_with;
using util::starts_with;

/// The findings of one input, each (file, line, column, checks, message) once, in input order.
class Findings {
 public:
  void add(const LintFinding::Parts& parts) {
    std::string key;
    key.reserve(parts.file.size() + parts.checks.size() + parts.message.size() + 24);
    key.append(parts.file).append(1, '\x1f');
    key.append(std::to_string(parts.line)).append(1, ':').append(std::to_string(parts.column)).append(1, '\x1f');
    key.append(parts.checks).append(1, '\x1f').append(parts.message);
    if (!seen_.insert(std::move(key)).second) return;
    findings_.emplace_back(parts);
  }

  std::vector<LintFinding> take() { return std::move(findings_); }

 private:
  std::vector<LintFinding> findings_;
  std::unordered_set<std::string> seen_;
};

/// `text` with every comma replaced by ';' (a check name never holds a comma:
/// LintFinding joins the names with commas).
std::string check_name(std::string_view text) {
  std::string name(text);
  for (char& c : name)
    if (c == ',') c = ';';
  return name;
}

// --- JSON shapes ------------------------------------------------------------------

/// Reports a value of the wrong shape: its JSON pointer and what was expected.
[[noreturn]] void wrong_shape(const std::string& source_name, std::uint64_t line, const std::string& pointer,
                              const std::string& expected) {
  throw InputError(source_name, (pointer.empty() ? std::string("the document") : pointer) + ": expected " + expected,
                   line);
}

/// A JSON object's member, or nullptr when it is missing.
const json* member(const json& object, const char* name) {
  const auto found = object.find(name);
  return found == object.end() ? nullptr : &*found;
}

/// Reads members of one JSON value, reporting a wrong shape by JSON pointer.
class Shape {
 public:
  Shape(const std::string& source_name, std::uint64_t line) : source_name_(source_name), line_(line) {}

  const json& object(const json& value, const std::string& pointer) const {
    if (!value.is_object()) wrong_shape(source_name_, line_, pointer, "an object");
    return value;
  }

  const json& array(const json& value, const std::string& pointer) const {
    if (!value.is_array()) wrong_shape(source_name_, line_, pointer, "an array");
    return value;
  }

  /// A required member of `object`.
  const json& at(const json& object, const std::string& pointer, const char* name) const {
    const json* value = member(object, name);
    if (value == nullptr) wrong_shape(source_name_, line_, pointer + "/" + name, "a member \"" + std::string(name) + "\"");
    return *value;
  }

  const std::string& string(const json& value, const std::string& pointer) const {
    if (!value.is_string()) wrong_shape(source_name_, line_, pointer, "a string");
    return value.get_ref<const std::string&>();
  }

  bool boolean(const json& value, const std::string& pointer) const {
    if (!value.is_boolean()) wrong_shape(source_name_, line_, pointer, "true or false");
    return value.get<bool>();
  }

  /// A line or column number: an integer from 0 to 2^32 - 1.
  std::uint32_t number(const json& value, const std::string& pointer) const {
    if (value.is_number_unsigned() && value.get<std::uint64_t>() <= std::numeric_limits<std::uint32_t>::max())
      return static_cast<std::uint32_t>(value.get<std::uint64_t>());
    if (value.is_number_integer() && value.get<std::int64_t>() >= 0 &&
        value.get<std::int64_t>() <= std::numeric_limits<std::uint32_t>::max())
      return static_cast<std::uint32_t>(value.get<std::int64_t>());
    wrong_shape(source_name_, line_, pointer, "a line or column number (0 to 4294967295)");
  }

 private:
  const std::string& source_name_;
  std::uint64_t line_;
};

// --- cargo --message-format=json --------------------------------------------------

/// rustc's closing messages, which have no span and are no finding of their own:
/// "aborting due to 2 previous errors", "2 warnings emitted",
/// "aborting due to 1 previous error; 1 warning emitted".
bool is_summary_message(std::string_view message) {
  return starts_with(message, "aborting due to ") || ends_with(message, " warning emitted") ||
         ends_with(message, " warnings emitted");
}

/// Adds the finding of one "compiler-message" object.
void add_compiler_message(const json& object, const Shape& shape, Findings& findings) {
  const json& message = shape.object(shape.at(object, "", "message"), "/message");
  const std::string& level = shape.string(shape.at(message, "/message", "level"), "/message/level");
  Severity severity = Severity::warning;
  if (level == "warning") {
    severity = Severity::warning;
  } else if (starts_with(level, "error")) {  // "error", "error: internal compiler error"
    severity = Severity::error;
  } else {
    return;  // "note", "help", "failure-note"
  }
  const std::string& text = shape.string(shape.at(message, "/message", "message"), "/message/message");
  std::string checks;
  if (const json* code = member(message, "code"); code != nullptr && !code->is_null())
    checks = check_name(shape.string(shape.at(shape.object(*code, "/message/code"), "/message/code", "code"),
                                     "/message/code/code"));
  const json& spans = shape.array(shape.at(message, "/message", "spans"), "/message/spans");

  LintFinding::Parts parts;
  parts.tool = starts_with(checks, "clippy::") ? "clippy" : "rustc";
  parts.severity = severity;
  parts.message = text;
  parts.checks = checks;
  std::string source_line;
  bool located = false;
  for (std::size_t i = 0; i < spans.size(); ++i) {
    const std::string pointer = "/message/spans/" + std::to_string(i);
    const json& span = shape.object(spans[i], pointer);
    if (!shape.boolean(shape.at(span, pointer, "is_primary"), pointer + "/is_primary")) continue;
    parts.file = shape.string(shape.at(span, pointer, "file_name"), pointer + "/file_name");
    parts.line = shape.number(shape.at(span, pointer, "line_start"), pointer + "/line_start");
    parts.column = shape.number(shape.at(span, pointer, "column_start"), pointer + "/column_start");
    if (const json* lines = member(span, "text"); lines != nullptr) {
      const json& array = shape.array(*lines, pointer + "/text");
      if (!array.empty()) {
        const json& first = shape.object(array[0], pointer + "/text/0");
        lint_detail::assign_without_whitespace(
            source_line, shape.string(shape.at(first, pointer + "/text/0", "text"), pointer + "/text/0/text"));
      }
    }
    located = true;
    break;
  }
  if (!located && is_summary_message(text)) return;
  parts.source_line = source_line;
  findings.add(parts);
}

// --- flake8 -------------------------------------------------------------------------

bool all_digits(std::string_view text) {
  if (text.empty()) return false;
  for (const char c : text)
    if (c < '0' || c > '9') return false;
  return true;
}

/// A flake8 caret line: spaces and tabs, then "^" (trailing whitespace allowed).
bool is_flake8_caret(std::string_view line) {
  std::size_t i = 0;
  while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
  if (i == line.size() || line[i] != '^') return false;
  for (++i; i < line.size(); ++i)
    if (!lint_detail::is_space(line[i])) return false;
  return true;
}

/// One `path:line:col: CODE message` line, split.
struct Flake8Line {
  std::string_view file;
  std::uint32_t line = 0;
  std::uint32_t column = 0;
  std::string_view code;
  std::string_view message;
};

/// Reads `text` as a finding line. The path is what comes before the first
/// ":LINE:COL: " (so a path may hold colons, a message anything). CODE is the
/// first word when it is a check code (a letter, then letters, digits, "_" or
/// "-"); otherwise (ruff's "SyntaxError: ...") there is no code and the whole
/// rest is the message.
bool parse_flake8_line(std::string_view text, Flake8Line& out) {
  for (std::size_t colon = text.find(':'); colon != std::string_view::npos; colon = text.find(':', colon + 1)) {
    if (colon == 0) continue;
    const std::size_t line_end = text.find(':', colon + 1);
    if (line_end == std::string_view::npos) return false;
    const std::size_t column_end = text.find(':', line_end + 1);
    if (column_end == std::string_view::npos) return false;
    const std::string_view line = text.substr(colon + 1, line_end - colon - 1);
    const std::string_view column = text.substr(line_end + 1, column_end - line_end - 1);
    if (!all_digits(line) || !all_digits(column) || column_end + 1 >= text.size() || text[column_end + 1] != ' ')
      continue;
    if (!lint_detail::parse_number(line, out.line) || !lint_detail::parse_number(column, out.column)) continue;
    out.file = text.substr(0, colon);
    std::string_view rest = text.substr(column_end + 2);
    const std::size_t space = rest.find(' ');
    const std::string_view word = rest.substr(0, space);
    bool code = !word.empty() && ((word[0] >= 'A' && word[0] <= 'Z') || (word[0] >= 'a' && word[0] <= 'z'));
    for (const char c : word)
      code = code && ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-');
    out.code = code ? word : std::string_view();
    out.message = code ? (space == std::string_view::npos ? std::string_view() : rest.substr(space + 1)) : rest;
    while (!out.message.empty() && lint_detail::is_space(out.message.back())) out.message.remove_suffix(1);
    if (starts_with(out.file, "./")) out.file.remove_prefix(2);
    return !out.file.empty();
  }
  return false;
}

}  // namespace

std::vector<model::LintFinding> parse_cargo_diagnostics(std::string_view text, const std::string& source_name,
                                                        std::string* stopped_early) {
  util::require_text(text, source_name);
  Findings findings;
  std::optional<bool> finished;  // build-finished's "success"
  const std::vector<std::string_view> lines = util::split(text, '\n');
  for (std::size_t index = 0; index < lines.size(); ++index) {
    const std::uint64_t line_number = index + 1;
    std::string_view line = lines[index];
    while (!line.empty() && lint_detail::is_space(line.back())) line.remove_suffix(1);
    while (!line.empty() && lint_detail::is_space(line.front())) line.remove_prefix(1);
    if (line.empty()) continue;
    json object;
    try {
      object = parse_json_document(line, source_name);
    } catch (const InputError& error) {
      // The position in the file, not in the line alone.
      throw InputError(source_name, error.message(), line_number, error.column());
    }
    if (!object.is_object()) throw InputError(source_name, "expected a JSON object (one cargo message per line)", line_number);
    const json* reason = member(object, "reason");
    if (reason == nullptr || !reason->is_string())
      throw InputError(source_name, "/reason: expected a string (a cargo message's kind)", line_number);
    if (reason->get_ref<const std::string&>() == "build-finished") {
      const json* success = member(object, "success");
      finished = success != nullptr && success->is_boolean() && success->get<bool>();
      continue;
    }
    if (reason->get_ref<const std::string&>() != "compiler-message") continue;
    add_compiler_message(object, Shape(source_name, line_number), findings);
  }
  if (stopped_early) {
    if (!finished)
      *stopped_early = "cargo's messages end without \"build-finished\" (cargo stopped before the end)";
    else if (!*finished)
      *stopped_early = "cargo stopped the build at an error (\"build-finished\": success false): the targets that "
                       "depend on the failing one were never checked";
    else
      stopped_early->clear();
  }
  return findings.take();
}

std::vector<model::LintFinding> parse_cargo_diagnostics_file(const std::filesystem::path& file,
                                                             std::string* stopped_early) {
  const util::MappedFile text(file);
  return parse_cargo_diagnostics(text.text(), file.string(), stopped_early);
}

std::vector<model::LintFinding> parse_eslint_json(std::string_view text, const std::string& source_name) {
  util::require_text(text, source_name);
  const json document = parse_json_document(text, source_name);
  const Shape shape(source_name, 0);
  Findings findings;
  const json& files = shape.array(document, "");
  for (std::size_t f = 0; f < files.size(); ++f) {
    const std::string file_pointer = "/" + std::to_string(f);
    const json& entry = shape.object(files[f], file_pointer);
    const std::string& path = shape.string(shape.at(entry, file_pointer, "filePath"), file_pointer + "/filePath");
    const json& messages = shape.array(shape.at(entry, file_pointer, "messages"), file_pointer + "/messages");
    std::vector<std::string_view> source_lines;
    if (const json* source = member(entry, "source"); source != nullptr && !source->is_null())
      source_lines = util::split(shape.string(*source, file_pointer + "/source"), '\n');
    for (std::size_t m = 0; m < messages.size(); ++m) {
      const std::string pointer = file_pointer + "/messages/" + std::to_string(m);
      const json& message = shape.object(messages[m], pointer);
      std::string checks;
      if (const json* rule = member(message, "ruleId"); rule != nullptr && !rule->is_null())
        checks = check_name(shape.string(*rule, pointer + "/ruleId"));
      const json& severity_value = shape.at(message, pointer, "severity");
      const json* fatal_value = member(message, "fatal");
      const bool fatal =
          fatal_value != nullptr && !fatal_value->is_null() && shape.boolean(*fatal_value, pointer + "/fatal");
      Severity severity = Severity::warning;
      if (severity_value == 2) {
        severity = Severity::error;
      } else if (severity_value != 1) {
        wrong_shape(source_name, 0, pointer + "/severity", "1 (warning) or 2 (error)");
      }
      // A fatal message (a parsing error) is an error whatever it says; one
      // without a rule (an unused eslint-disable directive, severity 1)
      // keeps ESLint's own severity.
      if (fatal) severity = Severity::error;
      // A message about the whole file ("File ignored because ...") has no line.
      std::uint32_t line = 0;
      std::uint32_t column = 0;
      if (const json* value = member(message, "line"); value != nullptr && !value->is_null())
        line = shape.number(*value, pointer + "/line");
      if (const json* value = member(message, "column"); value != nullptr && !value->is_null())
        column = shape.number(*value, pointer + "/column");
      std::string source_line;
      if (line >= 1 && line <= source_lines.size())
        lint_detail::assign_without_whitespace(source_line, source_lines[line - 1]);
      LintFinding::Parts parts;
      parts.tool = "eslint";
      parts.file = path;
      parts.line = line;
      parts.column = column;
      parts.severity = severity;
      parts.message = shape.string(shape.at(message, pointer, "message"), pointer + "/message");
      parts.checks = checks;
      parts.source_line = source_line;
      findings.add(parts);
    }
  }
  return findings.take();
}

std::vector<model::LintFinding> parse_eslint_json_file(const std::filesystem::path& file) {
  const util::MappedFile text(file);
  return parse_eslint_json(text.text(), file.string());
}

std::vector<model::LintFinding> parse_flake8(std::string_view text, const std::string& source_name,
                                             std::string_view tool) {
  util::require_text(text, source_name);
  Findings findings;
  std::vector<std::string_view> lines = util::split(text, '\n');
  for (std::string_view& line : lines)
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  std::string source_line;
  for (std::size_t index = 0; index < lines.size(); ++index) {
    Flake8Line finding;
    if (!parse_flake8_line(lines[index], finding)) continue;
    source_line.clear();
    // --show-source: the source line, then a caret line under the column.
    if (index + 2 < lines.size() && is_flake8_caret(lines[index + 2])) {
      lint_detail::assign_without_whitespace(source_line, lines[index + 1]);
      index += 2;
    }
    LintFinding::Parts parts;
    parts.tool = tool;
    parts.file = finding.file;
    parts.line = finding.line;
    parts.column = finding.column;
    // E9: flake8's own failures to read a file (E902) or parse it (E999).
    parts.severity = starts_with(finding.code, "E9") || finding.code.empty() ? Severity::error : Severity::warning;
    parts.message = finding.message;
    parts.checks = finding.code;
    parts.source_line = source_line;
    findings.add(parts);
  }
  return findings.take();
}

std::vector<model::LintFinding> parse_flake8_file(const std::filesystem::path& file, std::string_view tool) {
  const util::MappedFile text(file);
  return parse_flake8(text.text(), file.string(), tool);
}

}  // namespace hydra::parse
