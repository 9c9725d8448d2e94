// The compiler's view of a unit against clang-tidy's (lint/compiler_view.hpp):
// reading preprocessed text, a file's conditional branches, and the
// findings of clang-tidy's run over the compiler's view.
#include <hydra/capture/lint/compiler_view.hpp>

#include <algorithm>
#include <cctype>
#include <optional>

#include <hydra/util/text.hpp>

namespace hydra::capture {

namespace {

bool is_blank(std::string_view line) {
  return std::all_of(line.begin(), line.end(), [](unsigned char c) { return std::isspace(c) != 0; });
}

std::string_view trimmed_left(std::string_view text) {
  std::size_t at = 0;
  while (at < text.size() && (text[at] == ' ' || text[at] == '\t')) ++at;
  return text.substr(at);
}

/// The keyword of a conditional directive on `line`, or empty.
std::string conditional_keyword(std::string_view line) {
  std::string_view rest = trimmed_left(line);
  if (rest.empty() || rest.front() != '#') return {};
  rest = trimmed_left(rest.substr(1));
  std::size_t length = 0;
  while (length < rest.size() && std::isalpha(static_cast<unsigned char>(rest[length])) != 0) ++length;
  const std::string keyword(rest.substr(0, length));
  static const std::set<std::string> known = {"if", "ifdef", "ifndef", "elif", "elifdef", "elifndef", "else", "endif"};
  return known.count(keyword) ? keyword : std::string();
}

}  // namespace

std::optional<LineMarker> read_line_marker(std::string_view line) {
  std::string_view rest = trimmed_left(line);
  if (rest.empty() || rest.front() != '#') return std::nullopt;
  rest = trimmed_left(rest.substr(1));
  if (util::starts_with(rest, "line ") || util::starts_with(rest, "line\t")) rest = trimmed_left(rest.substr(4));
  std::size_t digits = 0;
  while (digits < rest.size() && std::isdigit(static_cast<unsigned char>(rest[digits])) != 0) ++digits;
  if (digits == 0 || digits > 18) return std::nullopt;
  LineMarker marker{std::stoull(std::string(rest.substr(0, digits))), {}, {}};
  rest = trimmed_left(rest.substr(digits));
  if (rest.empty() || rest.front() != '"') return std::nullopt;
  for (std::size_t at = 1; at < rest.size(); ++at) {
    const char c = rest[at];
    if (c == '"') {
      for (const std::string_view flag : util::split(rest.substr(at + 1), ' '))
        if (flag.size() == 1 && flag[0] >= '1' && flag[0] <= '4') marker.flags.insert(flag[0] - '0');
      return marker;
    }
    if (c != '\\' || at + 1 >= rest.size()) {
      marker.file += c;
      continue;
    }
    const char next = rest[++at];
    if (next >= '0' && next <= '7') {  // GCC writes unprintable bytes as three octal digits
      int value = 0;
      std::size_t count = 0;
      for (; count < 3 && at < rest.size() && rest[at] >= '0' && rest[at] <= '7'; ++count, ++at)
        value = value * 8 + (rest[at] - '0');
      --at;
      marker.file += static_cast<char>(value);
    } else {
      marker.file += next;
    }
  }
  return std::nullopt;
}

PreprocessedText read_preprocessed(std::string_view text) {
  PreprocessedText read;
  std::map<std::string, std::size_t> indices;
  std::optional<std::size_t> file;
  std::uint64_t next = 0;
  for (const std::string_view line : util::split(text, '\n')) {
    if (auto marker = read_line_marker(line)) {
      const auto [found, added] = indices.emplace(marker->file, read.files.size());
      if (added) read.files.push_back(marker->file);
      file = found->second;
      next = marker->line;
      read.origin.emplace_back(*file, 0);
      continue;
    }
    if (!file) {
      read.origin.emplace_back(0, 0);
      continue;
    }
    read.origin.emplace_back(*file, next);
    if (!is_blank(line)) read.token_lines[*file].insert(next);
    ++next;
  }
  return read;
}

ConditionalBranches conditional_branches(std::string_view source) {
  ConditionalBranches branches;
  branches.innermost.push_back(0);
  branches.own_lines.emplace_back();
  branches.delimiters.emplace_back(0, 0);
  branches.parent.push_back(0);
  std::vector<std::size_t> open;  // the current branch of each open group, innermost last
  const auto current = [&] { return open.empty() ? std::size_t(0) : open.back(); };
  const auto start_branch = [&](std::uint64_t line) {
    branches.own_lines.emplace_back();
    branches.delimiters.emplace_back(line, 0);
    branches.parent.push_back(current());
    return branches.own_lines.size() - 1;
  };
  const std::vector<std::string_view> lines = util::split(source, '\n');
  bool continued = false;  // the previous line ended in a backslash inside a directive
  for (std::size_t index = 0; index < lines.size(); ++index) {
    const std::uint64_t number = index + 1;
    std::string_view line = lines[index];
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    const bool continues = !line.empty() && line.back() == '\\';
    const std::string keyword = continued ? std::string() : conditional_keyword(line);
    if (continued || !keyword.empty() || (!trimmed_left(line).empty() && trimmed_left(line).front() == '#')) {
      // A directive line (or its continuation): no tokens of its own.
      branches.innermost.push_back(current());
      continued = continues;
      if (keyword == "if" || keyword == "ifdef" || keyword == "ifndef") {
        open.push_back(start_branch(number));
      } else if (!open.empty() && (keyword == "elif" || keyword == "elifdef" || keyword == "elifndef" ||
                                   keyword == "else")) {
        branches.delimiters[open.back()].second = number;
        open.pop_back();
        open.push_back(start_branch(number));
      } else if (!open.empty() && keyword == "endif") {
        branches.delimiters[open.back()].second = number;
        open.pop_back();
      }
      continue;
    }
    continued = false;
    branches.innermost.push_back(current());
    if (current() != 0) branches.own_lines[current()].push_back(number);
  }
  return branches;
}

HiddenLines hidden_lines(const ConditionalBranches& branches, const std::set<std::uint64_t>& added,
                         const LinesBySide& sides) {
  HiddenLines hidden;
  for (std::size_t branch = 1; branch < branches.own_lines.size(); ++branch) {
    const auto& own = branches.own_lines[branch];
    const auto any_in = [&](const std::set<std::uint64_t>& lines) {
      return std::any_of(own.begin(), own.end(), [&](std::uint64_t line) { return lines.count(line) != 0; });
    };
    const bool compiled = any_in(sides.compiled);
    const bool linted = any_in(sides.linted);
    if (compiled && !linted) {
      // Opened or closed by the change, or inside a branch that was.
      bool wrapped = false;
      for (std::size_t at = branch; at != 0 && !wrapped; at = branches.parent[at]) {
        const auto [opening, closing] = branches.delimiters[at];
        wrapped = added.count(opening) != 0 || (closing != 0 && added.count(closing) != 0);
      }
      for (const std::uint64_t line : own)
        if (sides.compiled.count(line) && (wrapped || added.count(line))) hidden.compiled_not_linted.insert(line);
    } else if (linted && !compiled) {
      for (const std::uint64_t line : own)
        if (sides.linted.count(line) && added.count(line)) hidden.linted_not_compiled.insert(line);
    }
  }
  return hidden;
}

std::map<std::uint64_t, std::string> line_tokens(std::string_view text, const PreprocessedText& read,
                                                 const std::set<std::size_t>& files) {
  std::map<std::uint64_t, std::string> tokens;
  std::size_t index = 0;
  for (const std::string_view line : util::split(text, '\n')) {
    if (index >= read.origin.size()) break;
    const auto [file, number] = read.origin[index++];
    if (number == 0 || !files.count(file) || is_blank(line)) continue;
    std::string& kept = tokens[number];
    for (const char c : line)
      if (std::isspace(static_cast<unsigned char>(c)) == 0) kept += c;
  }
  return tokens;
}

std::set<std::uint64_t> expanded_differently(const std::map<std::uint64_t, std::string>& compiler,
                                             const std::map<std::uint64_t, std::string>& clang,
                                             const std::set<std::uint64_t>& added, std::uint64_t window) {
  std::set<std::uint64_t> numbers;
  for (const auto& each : compiler) numbers.insert(each.first);
  for (const auto& each : clang) numbers.insert(each.first);
  const std::vector<std::uint64_t> lines(numbers.begin(), numbers.end());
  const auto tokens = [](const std::map<std::uint64_t, std::string>& side, std::uint64_t line) {
    const auto found = side.find(line);
    return found == side.end() ? std::string() : found->second;
  };
  std::set<std::uint64_t> different;
  std::size_t at = 0;
  while (at < lines.size()) {
    std::string by_compiler = tokens(compiler, lines[at]);
    std::string by_clang = tokens(clang, lines[at]);
    std::size_t end = at;  // the last line of a run whose tokens agree together
    while (by_compiler != by_clang && end + 1 < lines.size() && lines[end + 1] - lines[at] < window) {
      ++end;
      by_compiler += tokens(compiler, lines[end]);
      by_clang += tokens(clang, lines[end]);
    }
    if (by_compiler == by_clang) {
      at = end + 1;
      continue;
    }
    if (added.count(lines[at]) && !tokens(compiler, lines[at]).empty()) different.insert(lines[at]);
    ++at;
  }
  return different;
}

std::vector<std::pair<std::uint64_t, std::uint64_t>> line_runs(const std::set<std::uint64_t>& lines,
                                                               const std::set<std::uint64_t>& seen) {
  std::vector<std::pair<std::uint64_t, std::uint64_t>> runs;
  for (const std::uint64_t line : lines) {
    if (!runs.empty()) {
      const auto between = seen.upper_bound(runs.back().second);
      if (between == seen.end() || *between >= line) {
        runs.back().second = line;
        continue;
      }
    }
    runs.emplace_back(line, line);
  }
  return runs;
}

std::string compiler_view_findings(std::string_view output, const std::string& view_file,
                                   const PreprocessedText& view, const std::map<std::string, JudgedFile>& judged,
                                   std::size_t* count) {
  std::string kept;
  std::size_t found = 0;
  const std::string prefix = view_file + ":";
  for (const std::string_view line : util::split(output, '\n')) {
    if (!util::starts_with(line, prefix)) continue;
    // "<view>:<line>:<column>: <severity>: <message> [<checks>]"
    const std::string_view rest = line.substr(prefix.size());
    const std::size_t colon = rest.find(':');
    const std::size_t second = colon == std::string_view::npos ? colon : rest.find(':', colon + 1);
    if (second == std::string_view::npos) continue;
    const std::string_view number = rest.substr(0, colon);
    const std::string_view column = rest.substr(colon + 1, second - colon - 1);
    const std::string_view tail = rest.substr(second + 1);
    const auto digits = [](std::string_view text) {
      return !text.empty() && text.size() < 10 &&
             std::all_of(text.begin(), text.end(), [](unsigned char c) { return std::isdigit(c) != 0; });
    };
    if (!digits(number) || !digits(column)) continue;
    if (!util::starts_with(tail, " warning: ") && !util::starts_with(tail, " error: ")) continue;
    if (tail.find("[clang-diagnostic-error") != std::string_view::npos) continue;
    const std::size_t view_line = std::stoul(std::string(number));
    if (view_line == 0 || view_line > view.origin.size()) continue;
    const auto [file_index, source_line] = view.origin[view_line - 1];
    if (source_line == 0 || file_index >= view.files.size()) continue;
    const auto file = judged.find(view.files[file_index]);
    if (file == judged.end()) continue;
    const auto text = file->second.lines.find(source_line);
    if (text == file->second.lines.end()) continue;
    const std::size_t column_number = std::max<std::size_t>(1, std::stoul(std::string(column)));
    kept += file->second.shown + ":" + std::to_string(source_line) + ":" + std::to_string(column_number) + ":" +
            std::string(tail) + "\n" + text->second + "\n" + std::string(column_number - 1, ' ') + "^\n";
    ++found;
  }
  if (count) *count = found;
  return kept;
}

}  // namespace hydra::capture
