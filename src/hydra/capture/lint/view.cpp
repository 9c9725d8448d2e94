// The lint view (lint/view.hpp): stripped copies of the files whose added
// suppressions lint must not see, a VFS overlay that shows them to clang-tidy
// at their real paths, a compile database without added -w/-Wno-* flags, and
// the filter that keeps the findings of the source tree.
#include <hydra/capture/lint/view.hpp>

#include <algorithm>
#include <map>
#include <set>

#include <hydra/capture/core/plan.hpp>
#include <hydra/error.hpp>
#include <hydra/parse/diff_lines.hpp>
#include <hydra/util/files.hpp>
#include <hydra/util/git.hpp>
#include <hydra/util/regex.hpp>
#include <hydra/util/sha256.hpp>
#include <hydra/util/text.hpp>

namespace hydra::capture {
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

using util::starts_with;

/// Calls `found(position, length)` for every non-overlapping match of
/// `pattern` in `text`, left to right.
template <typename Found>
void for_each_match(const util::Regex& pattern, std::string_view text, Found found) {
  std::vector<std::string_view> groups;
  std::size_t from = 0;
  while (from <= text.size() && pattern.search(text.substr(from), groups) && !groups.empty()) {
    const std::size_t position = static_cast<std::size_t>(groups[0].data() - text.data());
    found(position, groups[0].size());
    from = position + std::max<std::size_t>(groups[0].size(), 1);
  }
}

/// `line` with every match of `pattern` replaced by as many spaces.
std::string blank_matches(const std::string& line, const util::Regex& pattern) {
  std::string out = line;
  for_each_match(pattern, line, [&](std::size_t position, std::size_t length) {
    std::fill(out.begin() + position, out.begin() + position + length, ' ');
  });
  return out;
}

std::string stripped_line(const std::string& line, const std::string& kind) {
  // clang-tidy reads a NOLINT marker anywhere on the line, with an optional
  // check list in parentheses.
  static const util::Regex nolint(R"(NOLINT(NEXTLINE|BEGIN|END)?(\([^)]*\))?)");
  static const util::Regex inline_pragma(R"((_Pragma\s*\(\s*"(\\.|[^"\\])*"\s*\)|__pragma\s*\([^)]*\)+))");
  if (starts_with(kind, "NOLINT")) return blank_matches(line, nolint);
  if (kind == "line marker") return std::string();
  if (starts_with(kind, "pragma ")) {
    const auto first = line.find_first_not_of(" \t");
    if (first != std::string::npos && line[first] == '#') return std::string();  // continuation lines: see below
    return blank_matches(line, inline_pragma);
  }
  return line;
}

std::string_view without_cr(std::string_view line) {
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  return line;
}

}  // namespace

std::string strip_suppressions(std::string_view content, const std::vector<guard::Suppression>& on_lines) {
  std::map<std::uint64_t, std::vector<std::string>> kinds;
  for (const auto& suppression : on_lines) kinds[suppression.line].push_back(suppression.kind);
  std::string out;
  out.reserve(content.size());
  std::uint64_t number = 0;
  std::size_t start = 0;
  bool blank_continuation = false;  // the lines continuing a blanked directive go too
  while (start < content.size()) {
    std::size_t end = content.find('\n', start);
    const bool has_newline = end != std::string_view::npos;
    if (!has_newline) end = content.size();
    ++number;
    std::string_view raw = content.substr(start, end - start);
    const std::string_view body = without_cr(raw);
    const bool continued = !body.empty() && body.back() == '\\';
    const auto found = kinds.find(number);
    if (blank_continuation) {
      blank_continuation = continued;
      out.append(raw.substr(body.size()));
    } else if (found == kinds.end()) {
      out.append(raw);
    } else {
      std::string line(body);
      for (const auto& kind : found->second) line = stripped_line(line, kind);
      blank_continuation = continued && line.empty();
      out += line;
      out.append(raw.substr(body.size()));  // the "\r" of a CRLF line
    }
    if (has_newline) out += '\n';
    start = end + 1;
  }
  return out;
}

std::vector<std::string> added_warning_flags(const std::vector<guard::Suppression>& suppressions) {
  static const util::Regex no_warning(R"(-Wno-[A-Za-z0-9_=+-]+)");
  static const util::Regex no_warnings(R"((^|[\s"'(;,:>])-w($|[\s"');,>]))");
  std::set<std::string> flags;
  for (const auto& suppression : suppressions) {
    const std::string& text = suppression.text;
    if (suppression.kind == "-Wno-*")
      for_each_match(no_warning, text,
                      [&](std::size_t position, std::size_t length) { flags.insert(text.substr(position, length)); });
    if ((suppression.kind == "-w" || suppression.kind == "-Wno-*") && no_warnings.search(text)) flags.insert("-w");
  }
  return {flags.begin(), flags.end()};
}

json without_flags(const json& compile_commands, const std::vector<std::string>& flags) {
  json out = compile_commands;
  if (flags.empty() || !out.is_array()) return out;
  const std::set<std::string> unwanted(flags.begin(), flags.end());
  for (auto& entry : out) {
    if (!entry.is_object()) continue;
    if (entry.contains("arguments") && entry["arguments"].is_array()) {
      json kept = json::array();
      for (const auto& argument : entry["arguments"])
        if (!argument.is_string() || !unwanted.count(argument.get<std::string>())) kept.push_back(argument);
      entry["arguments"] = std::move(kept);
    }
    if (entry.contains("command") && entry["command"].is_string()) {
      // Arguments are separated by whitespace; a flag is removed where it
      // stands alone (quoted flags are left, which only keeps a warning off).
      const std::string command = entry["command"].get<std::string>();
      std::string kept;
      std::size_t start = 0;
      while (start < command.size()) {
        std::size_t end = command.find_first_of(" \t", start);
        if (end == std::string::npos) end = command.size();
        const std::string word = command.substr(start, end - start);
        if (!word.empty() && !unwanted.count(word)) kept += (kept.empty() ? "" : " ") + word;
        start = end + 1;
      }
      entry["command"] = kept;
    }
  }
  return out;
}

bool LintScope::contains(const std::string& file) const {
  fs::path path(file);
  if (path.is_relative()) path = base / path;
  const auto inside = [](const fs::path& candidate, const fs::path& root, const std::vector<fs::path>& trees) {
    if (!util::is_within(candidate, root)) return false;
    return std::none_of(trees.begin(), trees.end(),
                        [&](const fs::path& tree) { return util::is_within(candidate, tree); });
  };
  const fs::path clean = util::absolute_clean(path);
  if (!build.empty() && is_project_generated(clean, build)) return true;
  if (util::is_within(clean, source)) return inside(clean, source, excluded);
  // Through a symbolic link: compare the resolved paths.
  std::error_code error;
  const fs::path resolved = fs::weakly_canonical(clean, error);
  if (error) return false;
  const fs::path resolved_source = fs::weakly_canonical(source, error);
  if (error) return false;
  std::vector<fs::path> resolved_excluded;
  for (const auto& tree : excluded) {
    std::error_code ignored;
    const fs::path canonical = fs::weakly_canonical(tree, ignored);
    resolved_excluded.push_back(ignored ? tree : canonical);
  }
  if (!build.empty() && is_project_generated(resolved, fs::weakly_canonical(build, error))) return true;
  return inside(resolved, resolved_source, resolved_excluded);
}

std::string filter_lint_log(std::string_view log, const LintScope& scope, std::size_t* dropped) {
  // "path:line:column: warning|error|fatal error|note|remark: message"
  static const util::Regex located(R"(^(.+?):(\d+):(\d+): (warning|error|fatal error|note|remark): )");
  std::string out;
  out.reserve(log.size());
  std::size_t removed = 0;
  bool keeping = true;
  std::size_t start = 0;
  std::vector<std::string_view> match;
  while (start < log.size()) {
    std::size_t end = log.find('\n', start);
    if (end == std::string_view::npos) end = log.size() - 1;
    const std::string line(log.substr(start, end - start + 1));
    start = end + 1;
    const std::string body(without_cr(line.back() == '\n' ? std::string_view(line).substr(0, line.size() - 1) : line));
    if (located.search(body, match) && match.size() > 4) {
      const std::string severity(match[4]);
      if (severity != "note") {
        // Errors stay wherever they are: they say the lint did not work
        // (a unit that does not compile, an unreadable overlay).
        keeping = severity == "error" || severity == "fatal error" || scope.contains(std::string(match[1]));
        if (!keeping) ++removed;
      }
    } else if (starts_with(body, "error: ") || starts_with(body, "warning: ") ||
               body.find(" warning generated") != std::string::npos ||
               body.find(" warnings generated") != std::string::npos ||
               body.find(" and 1 error generated") != std::string::npos ||
               body.find(" errors generated") != std::string::npos || starts_with(body, "Suppressed ")) {
      keeping = true;  // not located: about the unit as a whole
    }
    if (keeping) out += line;
  }
  if (dropped) *dropped = removed;
  return out;
}

std::map<fs::path, std::vector<guard::Suppression>> generated_suppressions(const std::set<fs::path>& built_files,
                                                                           const fs::path& build) {
  std::map<fs::path, std::vector<guard::Suppression>> found;
  for (const auto& built : built_files) {
    const fs::path file = util::absolute_clean(built);
    std::error_code error;
    if (!util::is_within(file, build) || !is_project_generated(file, build) || !fs::is_regular_file(file, error) ||
        fs::file_size(file, error) > (std::size_t(8) << 20))
      continue;
    const std::string content = util::read_file(file);
    // The whole file as added lines of a diff: the detector's every kind.
    parse::DiffLines lines;
    parse::FileLines whole;
    whole.path = file.generic_string();
    whole.created = true;
    std::uint64_t number = 0;
    for (const std::string_view line : util::split(content, '\n'))
      whole.added.push_back({++number, std::string(without_cr(line)), 0});
    lines.files.push_back(std::move(whole));
    std::vector<guard::Suppression> markers = guard::find_added_suppression_markers(lines, {file.generic_string()});
    std::vector<guard::Suppression> kept;
    for (auto& marker : markers)
      if (starts_with(marker.kind, "NOLINT") || starts_with(marker.kind, "pragma ") || marker.kind == "line marker")
        kept.push_back(std::move(marker));
    if (!kept.empty()) found.emplace(file, std::move(kept));
  }
  return found;
}

json LintView::to_json() const {
  json record = {{"options", json::array()},
                 {"stripped_suppressions", json::array()},
                 {"removed_flags", removed_flags},
                 {"units_made_from_codemodel", made_from_codemodel},
                 {"system_includes_linted_as_user", system_made_user},
                 {"units_made_from_build_commands", made_from_build_commands},
                 {"units_compiled_again", compiled_again},
                 {"generated_files_stripped", stripped_generated},
                 {"compiled_changed_files", compiled_changed_files},
                 {"digest", digest}};
  for (const auto& option : options) record["options"].push_back(option);
  for (const auto& suppression : stripped)
    record["stripped_suppressions"].push_back(
        {{"path", suppression.path}, {"line", suppression.line}, {"kind", suppression.kind}});
  return record;
}

/// `text` with every character a POSIX extended regular expression (LLVM's
/// Regex) gives a meaning escaped.
std::string regex_escaped(const std::string& text) {
  std::string out;
  for (const char c : text) {
    if (std::string_view("\\^$.|?*+()[]{}").find(c) != std::string_view::npos) out += '\\';
    out += c;
  }
  return out;
}

std::vector<std::string> changed_files_built(const Plan& plan, const std::set<std::string>& changed,
                                             const std::set<fs::path>& built_files) {
  const fs::path top = plan.in_git ? util::work_tree_root(plan.source) : plan.source;
  std::set<std::string> names;  // resolve only the built files a changed file could be
  for (const auto& path : changed) names.insert(fs::path(path).filename().string());
  std::set<fs::path> known;
  for (const auto& file : built_files) {
    if (!names.count(file.filename().string())) continue;
    known.insert(util::absolute_clean(file));
    std::error_code error;
    const fs::path resolved = fs::weakly_canonical(file, error);
    if (!error) known.insert(resolved);
  }
  std::vector<std::string> built;
  for (const auto& path : changed) {
    const fs::path real = util::absolute_clean(top / path);
    std::error_code error;
    const fs::path resolved = fs::weakly_canonical(real, error);
    if (known.count(real) || (!error && known.count(resolved))) built.push_back(path);
  }
  return built;
}

LintView prepare_lint_view(const Plan& plan, std::string_view diff, const fs::path& scratch,
                           const LintDatabase& database, const std::set<fs::path>& built_files,
                           const std::vector<std::string>& compiled_with) {
  LintView view;
  view.database_dir = scratch / "database";
  view.scope.source = plan.source;
  view.scope.excluded = plan.excluded;
  view.scope.base = plan.build_dir;
  view.scope.build = plan.build_dir;
  view.made_from_codemodel = database.made_from_codemodel;
  view.system_made_user = database.system_made_user;
  view.made_from_build_commands = database.made_from_build_commands;
  view.compiled_again = database.compiled_again;
  std::error_code ignored;
  fs::remove_all(scratch, ignored);

  // Findings in every file of the source and build trees, system headers
  // included: a tree file made a system header (a `#pragma GCC
  // system_header` however it is spelled, a system include flag) is linted
  // like any other, while the real system headers' findings stay out.
  json key = {{"header_filter", "source and build trees"}, {"system_headers", true}};
  if (plan.tidy_config) {
    view.options.push_back("--config-file=" + plan.tidy_config->string());
    key["config"] = util::sha256_hex(util::read_file(*plan.tidy_config));
  } else {
    // clang-tidy's defaults; without --config it would look for .clang-tidy
    // files next to every source file, including ones the change added.
    view.options.push_back("--config={}");
    key["config"] = "{}";
  }
  view.options.push_back("--header-filter=^(" + regex_escaped(plan.seen(plan.source).generic_string()) + "|" +
                         regex_escaped(plan.seen(plan.build_dir).generic_string()) + ")/");
  view.options.push_back("--system-headers");
  // clang-tidy defines __clang_analyzer__, the compiler does not: code in
  // `#ifndef __clang_analyzer__` is built, so it is linted.
  view.options.push_back("--extra-arg=-U__clang_analyzer__");
  key["undefined"] = "__clang_analyzer__";
  view.settings_digest = util::sha256_hex(key.dump());

  const parse::DiffLines lines = parse::parse_diff_lines(diff, "the change's diff");
  // Every changed file is read as code, whatever its name: clang reads a
  // fragment named like a document when a source includes it, and only the
  // files clang opens are seen through the overlay.
  std::set<std::string> every_file;
  for (const auto& file : lines.files) {
    every_file.insert(file.path);
    for (const auto& line : file.added) view.added_lines[file.path].insert(line.number);
  }
  const std::vector<guard::Suppression> added = guard::find_added_suppression_markers(lines, every_file);
  std::map<std::string, std::vector<guard::Suppression>> by_file;
  for (const auto& suppression : added) {
    if (starts_with(suppression.kind, "NOLINT") || starts_with(suppression.kind, "pragma ") ||
        suppression.kind == "line marker")
      by_file[suppression.path].push_back(suppression);
  }
  view.removed_flags = added_warning_flags(guard::find_added_suppression_markers(lines));
  for (const auto& flag : compiled_with)
    if (std::find(view.removed_flags.begin(), view.removed_flags.end(), flag) == view.removed_flags.end())
      view.removed_flags.push_back(flag);
  std::sort(view.removed_flags.begin(), view.removed_flags.end());
  view.compiled_changed_files = changed_files_built(plan, every_file, built_files);

  nlohmann::ordered_json overlay_roots = nlohmann::ordered_json::array();
  json stripped_files = json::object();
  // Every path the build read a file through (an in-tree symbolic link to a
  // changed header among them): the resolved path -> those paths.
  std::map<fs::path, std::set<std::string>> aliases;
  for (const auto& file : built_files) {
    std::error_code error;
    const fs::path resolved = fs::weakly_canonical(file, error);
    if (!error) aliases[resolved].insert(fs::absolute(file).lexically_normal().string());
  }
  // Shows clang-tidy `copy` wherever it opens `real`: at its path, at the
  // source path it lies at, through every alias the build used.
  const auto overlay = [&](const fs::path& real, const fs::path& copy, std::set<std::string> names) {
    names.insert(real.string());
    std::error_code error;
    const fs::path resolved = fs::weakly_canonical(real, error);
    if (!error)
      if (const auto found = aliases.find(resolved); found != aliases.end())
        names.insert(found->second.begin(), found->second.end());
    for (const auto& name : names) {
      view.overlaid[name] = copy;
      overlay_roots.push_back(
          nlohmann::ordered_json{{"type", "file"}, {"name", name}, {"external-contents", copy.string()}});
    }
  };
  if (!by_file.empty()) {
    // Diff paths are relative to the work tree's top level; clang may open a
    // file through the source path as given or through the resolved one.
    const fs::path top = plan.in_git ? util::work_tree_root(plan.source) : plan.source;
    std::error_code error;
    const fs::path resolved_source = fs::weakly_canonical(plan.source, error);
    for (const auto& [relative, suppressions] : by_file) {
      const fs::path real = util::absolute_clean(top / relative);
      if (!fs::is_regular_file(real)) continue;
      const std::string content = util::read_file(real);
      const std::string stripped = strip_suppressions(content, suppressions);
      if (stripped == content) continue;
      const fs::path copy = scratch / "files" / relative;
      fs::create_directories(copy.parent_path());
      util::write_file_atomic(copy, stripped);
      std::set<std::string> names;
      const fs::path inside = real.lexically_relative(resolved_source);
      if (!inside.empty() && !starts_with(inside.generic_string(), "..")) names.insert((plan.source / inside).string());
      overlay(real, copy, names);
      stripped_files[relative] = util::sha256_hex(stripped);
      view.stripped.insert(view.stripped.end(), suppressions.begin(), suppressions.end());
    }
  }
  // The files the project generated in the build tree (configure_file, a
  // custom command): no diff shows their suppressions, whoever wrote them,
  // so lint reads every such file without any, for a baseline and its
  // candidates alike (generated_suppressions).
  for (const auto& [file, suppressions] : generated_suppressions(built_files, plan.build_dir)) {
    const std::string content = util::read_file(file);
    const std::string stripped = strip_suppressions(content, suppressions);
    if (stripped == content) continue;
    const fs::path copy = scratch / "generated" / file.lexically_relative(plan.build_dir);
    fs::create_directories(copy.parent_path());
    util::write_file_atomic(copy, stripped);
    overlay(file, copy, {});
    stripped_files["<build>/" + file.lexically_relative(plan.build_dir).generic_string()] = util::sha256_hex(stripped);
    view.stripped_generated.push_back(file.lexically_relative(plan.build_dir).generic_string());
  }
  if (!overlay_roots.empty()) {
    // Diagnostics name the real path ("use-external-names": false). LLVM's
    // overlay reader wants "version" first: keep the keys in this order.
    const nlohmann::ordered_json overlay = {{"version", 0},
                          {"case-sensitive", "true"},
                          {"use-external-names", false},
                          {"overlay-relative", false},
                          {"roots", overlay_roots}};
    const fs::path file = scratch / "overlay.yaml";  // YAML is a superset of JSON
    util::write_file_atomic(file, overlay.dump(2) + "\n");
    view.options.push_back("--vfsoverlay=" + file.string());
  }
  key["stripped"] = stripped_files;

  fs::create_directories(view.database_dir);
  util::write_file_atomic(view.database_dir / "compile_commands.json",
                          without_flags(database.commands, view.removed_flags).dump(1) + "\n");
  key["removed_flags"] = view.removed_flags;
  view.digest = util::sha256_hex(key.dump());
  return view;
}

}  // namespace hydra::capture
