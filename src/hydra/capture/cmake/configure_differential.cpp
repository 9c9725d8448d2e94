// Two configures of one tree compared (configure_differential.hpp).
#include <hydra/capture/cmake/configure_differential.hpp>

#include <algorithm>
#include <cctype>
#include <fstream>
#include <system_error>

#include <hydra/util/text.hpp>

namespace hydra::capture {
namespace fs = std::filesystem;

namespace {

constexpr std::uintmax_t kLargestGenerated = 4u << 20;

/// The words of `text` (split at white space).
std::vector<std::string> words(const std::string& text) {
  std::vector<std::string> out;
  std::string word;
  for (const char c : text) {
    if (std::isspace(static_cast<unsigned char>(c))) {
      if (!word.empty()) out.push_back(std::move(word));
      word.clear();
    } else {
      word += c;
    }
  }
  if (!word.empty()) out.push_back(std::move(word));
  return out;
}

/// `text` with every `path` in it written `token` (`<build>`).
std::string normalised(std::string text, const std::string& path, const std::string& token = "<build>") {
  if (path.empty()) return text;
  for (std::size_t at = text.find(path); at != std::string::npos; at = text.find(path, at)) {
    const std::size_t end = at + path.size();
    if (end < text.size() && text[end] != '/' && text[end] != '"' && text[end] != ';' && text[end] != ' ' &&
        text[end] != '\n' && text[end] != '\'' && text[end] != ':') {
      at = end;  // a longer name that starts the same
      continue;
    }
    text.replace(at, path.size(), token);
    at += token.size();
  }
  return text;
}

/// Where one configure saw its trees: the build tree and the source tree.
struct Side {
  std::string build, source;
};

/// `text` with `side`'s build tree written `<build>`, then its source tree
/// `<source>` (a plain configure's build tree lies inside its source tree).
std::string normalised(const std::string& text, const Side& side) {
  return normalised(normalised(text, side.build), side.source, "<source>");
}

/// Both sides' differences, one per key.
class Differences {
 public:
  explicit Differences(const ConfigureSides& sides) : captured_(sides.first), plain_(sides.second) {}
  void add(const std::string& key, const std::string& detail) {
    auto [at, fresh] = found_.try_emplace(key, Found{detail, 0});
    if (!fresh) ++at->second.more;
  }
  /// Every element of one of `captured` and `plain` the other lacks (as multisets), under `prefix`.
  void compare(const std::vector<std::string>& captured, const std::vector<std::string>& plain,
               const std::string& prefix, const std::string& where) {
    std::multiset<std::string> left(captured.begin(), captured.end()), right(plain.begin(), plain.end());
    for (const auto& value : left)
      if (right.count(value) < left.count(value)) add(prefix + key_of(prefix, value), where + ": " + value + captured_);
    for (const auto& value : right)
      if (left.count(value) < right.count(value)) add(prefix + key_of(prefix, value), where + ": " + value + plain_);
  }
  std::vector<ConfigureDifference> list() const {
    std::vector<ConfigureDifference> out;
    for (const auto& [key, found] : found_)
      out.push_back({key, found.detail + (found.more ? " (and " + std::to_string(found.more) + " more)" : "")});
    return out;
  }
  const std::string& captured() const { return captured_; }
  const std::string& plain() const { return plain_; }

 private:
  /// A define is keyed by its name: the same macro valued otherwise is one difference.
  static std::string key_of(const std::string& prefix, const std::string& value) {
    if (prefix == "define ") return value.substr(0, value.find('='));
    return value;
  }
  struct Found {
    std::string detail;
    std::size_t more = 0;
  };
  std::map<std::string, Found> found_;
  std::string captured_, plain_;
};

/// A target's sources, each with what its compile group says, paths normalised.
struct SourceView {
  std::vector<std::string> defines, fragments, includes;
  std::string language;
};

/// A source's name on both sides: `<build>/...` for a file of the build tree
/// (a unity source, a generated one), even where the build tree lies inside
/// the source tree (a plain configure's `build/`, named relative to the
/// source tree by the codemodel), else relative to the source tree.
std::string source_name(const std::string& path, const std::string& source_root, const std::string& build) {
  std::string full = path;
  if (!source_root.empty() && !fs::path(path).is_absolute()) full = source_root + "/" + path;
  if (!build.empty() && util::starts_with(full, build + "/")) return normalised(full, build);
  if (!source_root.empty() && util::starts_with(full, source_root + "/")) return full.substr(source_root.size() + 1);
  return normalised(full, build);
}

std::map<std::string, SourceView> sources_of(const model::BuildTarget& target, const Side& side) {
  const std::string& source_root = side.source;
  const std::string& build = side.build;
  std::map<std::string, SourceView> sources;
  for (const auto& source : target.sources) {
    SourceView view;
    if (source.compile_group >= 0 && static_cast<std::size_t>(source.compile_group) < target.compile_groups.size()) {
      const model::CompileGroup& group = target.compile_groups[static_cast<std::size_t>(source.compile_group)];
      view.language = group.language;
      for (const auto& define : group.defines) view.defines.push_back(normalised(define, side));
      for (const auto& fragment : group.fragments)
        for (const auto& token : words(normalised(fragment, side))) view.fragments.push_back(token);
      for (const auto& include : group.includes) {
        // `-I/a/b/` is `-I/a/b`: the codemodel writes a folder given as `.` either way.
        std::string folder = normalised(include.path, side);
        while (folder.size() > 1 && folder.back() == '/') folder.pop_back();
        if (util::ends_with(folder, "/.")) folder.resize(folder.size() - 2);
        view.includes.push_back((include.system ? "system " : "") + folder);
      }
      if (!group.sysroot.empty()) view.fragments.push_back("--sysroot=" + normalised(group.sysroot, side));
      for (const auto& header : group.precompile_headers) view.fragments.push_back("precompiled " + normalised(header, side));
    } else {
      view.language = "(not compiled)";
    }
    sources[source_name(source.path, source_root, build)] = std::move(view);
  }
  return sources;
}

std::vector<std::string> normalised_all(const std::vector<std::string>& values, const Side& side) {
  std::vector<std::string> out;
  for (const auto& value : values) out.push_back(normalised(value, side));
  return out;
}

void compare_target(const model::BuildTarget& captured, const Side& captured_side, const model::BuildTarget& plain,
                    const Side& plain_side, Differences& found) {
  const std::string& name = captured.name;
  if (captured.type != plain.type)
    found.add("target " + name, "target " + name + ": " + captured.type + " in HydraScore's capture, " + plain.type +
                                    " in a plain configure");
  const auto left = sources_of(captured, captured_side);
  const auto right = sources_of(plain, plain_side);
  for (const auto& [path, view] : left) {
    const auto other = right.find(path);
    if (other == right.end()) {
      found.add("source " + path, "target " + name + ": " + path + found.captured());
      continue;
    }
    const std::string where = "target " + name + ", " + path;
    if (view.language != other->second.language)
      found.add("source " + path, where + ": compiled as " + view.language + " in HydraScore's capture, as " +
                                      other->second.language + " in a plain configure");
    found.compare(view.defines, other->second.defines, "define ", where);
    found.compare(view.fragments, other->second.fragments, "flag ", where);
    found.compare(view.includes, other->second.includes, "include ", where);
  }
  for (const auto& [path, view] : right)
    if (!left.count(path)) found.add("source " + path, "target " + name + ": " + path + found.plain());
  std::vector<std::string> left_link, right_link;
  for (const auto& fragment : captured.link)
    for (const auto& token : words(normalised(fragment.fragment, captured_side))) left_link.push_back(token);
  for (const auto& fragment : plain.link)
    for (const auto& token : words(normalised(fragment.fragment, plain_side))) right_link.push_back(token);
  found.compare(left_link, right_link, "link ", "target " + name);
  found.compare(captured.dependencies, plain.dependencies, "dependency ", "target " + name);
  found.compare(normalised_all(captured.artifacts, captured_side), normalised_all(plain.artifacts, plain_side),
                "artifact ", "target " + name);
}

bool is_digit(char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; }

/// Whether `text` at `at` matches `shape` ('9' a digit, anything else itself).
bool matches_shape(const std::string& text, std::size_t at, const std::string& shape) {
  if (at + shape.size() > text.size()) return false;
  for (std::size_t index = 0; index < shape.size(); ++index) {
    const char want = shape[index];
    if (want == '9' ? !is_digit(text[at + index]) : text[at + index] != want) return false;
  }
  return true;
}

}  // namespace

bool is_cmake_own_file(const std::string& relative) {
  const std::string first = relative.substr(0, relative.find('/'));
  static const std::set<std::string> folders = {"CMakeFiles", ".cmake", "Testing"};
  if (first != relative && folders.count(first)) return true;
  if (util::starts_with(first, ".hydra")) return true;
  const std::string name = fs::path(relative).filename().string();
  static const std::set<std::string> files = {
      "CMakeCache.txt",    "cmake_install.cmake", "CTestTestfile.cmake", "compile_commands.json",
      "build.ninja",       "rules.ninja",         "Makefile",            "DartConfiguration.tcl",
      "CPackConfig.cmake", "CPackSourceConfig.cmake", "install_manifest.txt", ".ninja_deps",
      ".ninja_log",        "CTestCustom.cmake"};
  return files.count(name) > 0;
}

std::map<std::string, std::string> read_generated_files(const fs::path& build_dir, const fs::path& seen_build,
                                                        std::optional<fs::file_time_type> since,
                                                        const std::set<std::string>& also) {
  std::map<std::string, std::string> files;
  std::error_code error;
  fs::recursive_directory_iterator it(build_dir, fs::directory_options::skip_permission_denied, error), end;
  for (; !error && it != end; it.increment(error)) {
    const fs::path relative_path = it->path().lexically_relative(build_dir);
    const std::string relative = relative_path.generic_string();
    if (it->is_directory(error) && !it->is_symlink(error)) {
      if (is_cmake_own_file(relative + "/x")) it.disable_recursion_pending();
      continue;
    }
    if (!it->is_regular_file(error) || it->is_symlink(error) || is_cmake_own_file(relative)) continue;
    if (it->file_size(error) > kLargestGenerated) continue;
    if (since && !also.count(relative) && it->last_write_time(error) < *since) continue;
    std::ifstream in(it->path(), std::ios::binary);
    std::string content((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    files[relative] = normalised(std::move(content), seen_build.string());
  }
  return files;
}

std::string mask_times(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t at = 0; at < text.size();) {
    const bool starts = at == 0 || !is_digit(text[at - 1]);
    if (starts && matches_shape(text, at, "9999-99-99")) {
      out += "<date>";
      at += 10;
    } else if (starts && matches_shape(text, at, "99:99:99")) {
      out += "<time>";
      at += 8;
    } else {
      out += text[at++];
    }
  }
  return out;
}

std::vector<ConfigureDifference> compare_configures(const ConfigureOutputs& captured, const ConfigureOutputs& plain,
                                                   const ConfigureSides& sides) {
  Differences found(sides);
  // Each side's trees where its configure saw them: a plain configure may
  // see the source tree at another path (a user's clone).
  const Side captured_side{captured.build.string(), captured.targets.source_root};
  const Side plain_side{plain.build.string(),
                        plain.targets.source_root.empty() ? captured.targets.source_root : plain.targets.source_root};
  std::map<std::string, const model::BuildTarget*> right;
  for (const auto& target : plain.targets.targets) right[target.name] = &target;
  std::set<std::string> seen;
  for (const auto& target : captured.targets.targets) {
    seen.insert(target.name);
    const auto other = right.find(target.name);
    if (other == right.end()) {
      found.add("target " + target.name, "target " + target.name + found.captured());
      continue;
    }
    compare_target(target, captured_side, *other->second, plain_side, found);
  }
  for (const auto& target : plain.targets.targets)
    if (!seen.count(target.name)) found.add("target " + target.name, "target " + target.name + found.plain());
  for (const auto& [path, content] : captured.generated) {
    const auto other = plain.generated.find(path);
    if (other == plain.generated.end()) found.add("generated " + path, path + found.captured());
    else if (mask_times(normalised(content, captured_side.source, "<source>")) !=
             mask_times(normalised(other->second, plain_side.source, "<source>")))
      found.add("generated " + path, path + ": generated with other content in HydraScore's capture than in a plain configure");
  }
  for (const auto& [path, content] : plain.generated)
    if (!captured.generated.count(path)) found.add("generated " + path, path + found.plain());
  return found.list();
}

}  // namespace hydra::capture
