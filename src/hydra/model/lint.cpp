#include <hydra/model/lint.hpp>

#include <limits>

#include <hydra/error.hpp>
#include <hydra/util/xxh64.hpp>

namespace hydra::model {

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
  fingerprint_ = util::xxh64(text_);
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
