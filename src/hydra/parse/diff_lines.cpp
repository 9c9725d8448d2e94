#include <hydra/parse/diff_lines.hpp>

#include <algorithm>

#include <hydra/error.hpp>
#include <hydra/util/text.hpp>
#include <hydra/util/utf8.hpp>

namespace hydra::parse {
namespace {

using util::starts_with;

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }

}  // namespace

std::string strip_whitespace(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (const char c : text)
    if (!is_space(c)) out += c;
  return out;
}

DiffLinesReader::DiffLinesReader(std::string source_name) : source_name_(std::move(source_name)) {}

void DiffLinesReader::fail(const std::string& message) const {
  throw InputError(source_name_, message, line_number_, 0);
}

void DiffLinesReader::read_line(std::string_view line) {
  ++line_number_;
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  if (state_ == State::hunk) {
    read_hunk_line(line);
    return;
  }
  if (starts_with(line, "diff --git ")) {
    start_file(true);
    read_git_header_paths(line.substr(11));
    return;
  }
  if (starts_with(line, "diff --cc ") || starts_with(line, "diff --combined "))
    fail("combined diffs (of a merge) are not supported; diff against one parent");
  if (state_ == State::binary_patch) return;  // base85 data, "literal N", "delta N", blank lines
  if (starts_with(line, "@@ ")) {
    if (state_ == State::start || !file_) fail("a hunk before any file header");
    start_hunk(line);
    return;
  }
  if (starts_with(line, "--- ")) {
    // In a git diff the "---" line belongs to the current file; elsewhere
    // (diff -u) it starts a new file.
    if (!(state_ == State::header && git_file_ && !seen_old_header_)) start_file(false);
    seen_old_header_ = true;
    const std::string path = header_path(line.substr(4));
    if (path == "/dev/null") file_->created = true;
    else file_->old_path = strip_prefix(path, 'a');
    return;
  }
  if (starts_with(line, "+++ ")) {
    if (state_ != State::header || !seen_old_header_) fail("\"+++\" without a \"---\" line before it");
    const std::string path = header_path(line.substr(4));
    if (path == "/dev/null") file_->deleted = true;
    else file_->path = strip_prefix(path, 'b');
    return;
  }
  if (starts_with(line, "\\ ") && state_ == State::after_hunk) return;  // "\ No newline at end of file"
  if (state_ == State::header && git_file_ && read_extended_header(line)) return;
  fail(state_ == State::start ? "not a unified diff (expected \"diff --git\" or \"---\")"
                              : "unexpected line in a unified diff");
}

DiffLines DiffLinesReader::finish() {
  if (state_ == State::hunk) fail("the diff ends inside a hunk (truncated?)");
  finish_file();
  state_ = State::start;
  return std::move(result_);
}

bool DiffLinesReader::read_extended_header(std::string_view line) {
  if (starts_with(line, "new file mode ")) {
    file_->created = true;
  } else if (starts_with(line, "deleted file mode ")) {
    file_->deleted = true;
  } else if (starts_with(line, "rename from ")) {
    file_->renamed = true;
    file_->old_path = maybe_quoted(line.substr(12));
  } else if (starts_with(line, "rename to ")) {
    file_->renamed = true;
    file_->path = maybe_quoted(line.substr(10));
  } else if (starts_with(line, "copy from ")) {
    copied_ = true;
    file_->old_path = maybe_quoted(line.substr(10));
    file_->created = true;
  } else if (starts_with(line, "copy to ")) {
    copied_ = true;
    file_->path = maybe_quoted(line.substr(8));
    file_->created = true;
  } else if (starts_with(line, "Binary files ")) {
    file_->binary = true;
  } else if (line == "GIT binary patch") {
    file_->binary = true;
    state_ = State::binary_patch;
  } else if (!(starts_with(line, "index ") || starts_with(line, "old mode ") ||
               starts_with(line, "new mode ") || starts_with(line, "similarity index ") ||
               starts_with(line, "dissimilarity index "))) {
    return false;
  }
  return true;
}

void DiffLinesReader::start_file(bool git) {
  finish_file();
  file_ = FileLines{};
  git_file_ = git;
  copied_ = false;
  seen_old_header_ = false;
  hunks_in_file_ = 0;
  state_ = State::header;
}

void DiffLinesReader::finish_file() {
  if (!file_) return;
  FileLines& file = *file_;
  if (file.deleted && !file.old_path.empty()) file.path = file.old_path;
  if (file.path.empty()) file.path = file.old_path;
  if (file.path.empty()) fail("a file entry without a path");
  if (!file.renamed && !copied_) file.old_path = file.path;
  result_.invalid_utf8_replaced += util::replace_invalid_utf8(file.path) + util::replace_invalid_utf8(file.old_path);
  result_.files.push_back(std::move(file));
  file_.reset();
}

void DiffLinesReader::read_git_header_paths(std::string_view rest) {
  std::string old_path;
  std::string new_path;
  if (!rest.empty() && rest.front() == '"') {
    std::size_t consumed = 0;
    old_path = unquote(rest, consumed);
    rest.remove_prefix(std::min(consumed, rest.size()));
    while (!rest.empty() && rest.front() == ' ') rest.remove_prefix(1);
    new_path = maybe_quoted(rest);
  } else if (const auto quote = rest.find(" \""); quote != std::string_view::npos) {
    old_path = std::string(rest.substr(0, quote));
    new_path = maybe_quoted(rest.substr(quote + 1));
  } else if (rest.size() >= 7 && rest.size() % 2 == 1 && rest[rest.size() / 2] == ' ' &&
             rest.substr(2, rest.size() / 2 - 2) == rest.substr(rest.size() / 2 + 3)) {
    // "a/P b/P": the same path twice (spaces in P are allowed).
    old_path = std::string(rest.substr(0, rest.size() / 2));
    new_path = std::string(rest.substr(rest.size() / 2 + 1));
  } else if (const auto split = rest.find(" b/"); split != std::string_view::npos) {
    old_path = std::string(rest.substr(0, split));
    new_path = std::string(rest.substr(split + 1));
  } else {
    fail("cannot read the paths of \"diff --git\"");
  }
  file_->old_path = strip_prefix(old_path, 'a');
  file_->path = strip_prefix(new_path, 'b');
}

std::string DiffLinesReader::header_path(std::string_view rest) const {
  if (!rest.empty() && rest.front() == '"') {
    std::size_t consumed = 0;
    return unquote(rest, consumed);
  }
  return std::string(rest.substr(0, rest.find('\t')));
}

std::string DiffLinesReader::maybe_quoted(std::string_view text) const {
  if (!text.empty() && text.front() == '"') {
    std::size_t consumed = 0;
    return unquote(text, consumed);
  }
  return std::string(text);
}

std::string DiffLinesReader::unquote(std::string_view text, std::size_t& consumed) const {
  std::string out;
  std::size_t i = 1;
  for (; i < text.size() && text[i] != '"'; ++i) {
    if (text[i] != '\\') {
      out += text[i];
      continue;
    }
    if (++i >= text.size()) break;
    const char c = text[i];
    if (c >= '0' && c <= '7') {
      int value = 0;
      int digits = 0;
      while (digits < 3 && i < text.size() && text[i] >= '0' && text[i] <= '7') {
        value = value * 8 + (text[i] - '0');
        ++i;
        ++digits;
      }
      --i;
      out += static_cast<char>(value);
      continue;
    }
    switch (c) {
      case 'a': out += '\a'; break;
      case 'b': out += '\b'; break;
      case 'f': out += '\f'; break;
      case 'n': out += '\n'; break;
      case 'r': out += '\r'; break;
      case 't': out += '\t'; break;
      case 'v': out += '\v'; break;
      default: out += c; break;  // \\ and \"
    }
  }
  if (i >= text.size()) fail("unterminated quoted path");
  consumed = i + 1;
  return out;
}

std::string DiffLinesReader::strip_prefix(const std::string& path, char side) const {
  if (git_file_ && path.size() > 2 && path[0] == side && path[1] == '/') return path.substr(2);
  return path;
}

void DiffLinesReader::start_hunk(std::string_view line) {
  std::size_t i = 3;
  const auto number = [&](std::uint64_t& value) {
    const std::size_t start = i;
    value = 0;
    while (i < line.size() && line[i] >= '0' && line[i] <= '9') {
      // Line numbers and counts past 2^53 cannot be real, and would overflow below.
      if (value > (std::uint64_t{1} << 53) / 10) fail("number in hunk header out of range (above 2^53)");
      value = value * 10 + static_cast<std::uint64_t>(line[i] - '0');
      ++i;
    }
    return i > start;
  };
  const auto range = [&](char sign, std::uint64_t& first, std::uint64_t& count) {
    if (i >= line.size() || line[i] != sign) return false;
    ++i;
    if (!number(first)) return false;
    count = 1;
    if (i < line.size() && line[i] == ',') {
      ++i;
      if (!number(count)) return false;
    }
    return true;
  };
  bool ok = range('-', old_line_, old_remaining_);
  if (ok && i < line.size() && line[i] == ' ') ++i;
  ok = ok && range('+', new_line_, new_remaining_) && starts_with(line.substr(i), " @@");
  if (!ok) fail("malformed hunk header");
  ++hunks_in_file_;
  state_ = (old_remaining_ == 0 && new_remaining_ == 0) ? State::after_hunk : State::hunk;
}

void DiffLinesReader::read_hunk_line(std::string_view line) {
  const char kind = line.empty() ? ' ' : line.front();  // an empty line is blank context
  const std::string_view text = line.empty() ? line : line.substr(1);
  if (kind == ' ' && old_remaining_ > 0 && new_remaining_ > 0) {
    --old_remaining_;
    --new_remaining_;
    ++old_line_;
    ++new_line_;
  } else if (kind == '-' && old_remaining_ > 0) {
    --old_remaining_;
    file_->removed.push_back(ChangedLine{old_line_++, utf8_text(text), hunks_in_file_ - 1});
  } else if (kind == '+' && new_remaining_ > 0) {
    --new_remaining_;
    file_->added.push_back(ChangedLine{new_line_++, utf8_text(text), hunks_in_file_ - 1});
  } else if (kind == '\\') {
    return;  // "\ No newline at end of file"
  } else {
    fail("hunk line does not match the hunk header's line counts");
  }
  if (old_remaining_ == 0 && new_remaining_ == 0) state_ = State::after_hunk;
}

std::string DiffLinesReader::utf8_text(std::string_view text) {
  std::string out(text);
  result_.invalid_utf8_replaced += util::replace_invalid_utf8(out);
  return out;
}

DiffLines parse_diff_lines(std::string_view diff, const std::string& source_name) {
  DiffLinesReader reader(source_name);
  if (diff.find_first_not_of("\r\n") == std::string_view::npos) return reader.finish();
  std::size_t position = 0;
  while (position < diff.size()) {
    const std::size_t newline = diff.find('\n', position);
    const std::size_t end = newline == std::string_view::npos ? diff.size() : newline;
    reader.read_line(diff.substr(position, end - position));
    position = end + 1;
  }
  return reader.finish();
}

}  // namespace hydra::parse
