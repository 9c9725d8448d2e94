// Suppression flags of the compile commands (lint/flag_suppressions.hpp).
#include <hydra/capture/lint/flag_suppressions.hpp>
#include <hydra/capture/lint/build_commands.hpp>

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

#include <hydra/util/files.hpp>
#include <hydra/util/regex.hpp>
#include <hydra/util/text.hpp>

namespace hydra::capture {
namespace fs = std::filesystem;

namespace {

/// `path` (absolute, or relative to `directory`) as "<build>/...",
/// "<source>/..." or absolute; the build tree is looked at first (it may lie
/// inside the source tree).
std::string in_trees(const fs::path& path, const fs::path& directory, const CommandTrees& trees) {
  const fs::path absolute = util::absolute_clean(path.is_absolute() ? path : directory / path);
  for (const auto& [root, name] : {std::pair<fs::path, std::string>{trees.build, "<build>"}, {trees.source, "<source>"}}) {
    if (root.empty() || !util::is_within(absolute, root)) continue;
    const std::string inside = absolute.lexically_relative(root).generic_string();
    return inside.empty() || inside == "." ? name : name + "/" + inside;
  }
  return absolute.generic_string();
}

bool starts_with(const std::string& text, const std::string& prefix) { return text.rfind(prefix, 0) == 0; }

/// Whether a `-fdiagnostics-*`/`-fno-diagnostics-*` flag changes where or
/// whether diagnostics are written (not only how they look).
bool hiding_diagnostics_flag(const std::string& flag) {
  static const char* const kHarmless[] = {"-fdiagnostics-color",          "-fno-diagnostics-color",
                                          "-fdiagnostics-show-option",    "-fdiagnostics-show-template-tree",
                                          "-fdiagnostics-parseable-fixits", "-fdiagnostics-absolute-paths",
                                          "-fdiagnostics-show-caret",     "-fdiagnostics-show-line-numbers",
                                          "-fdiagnostics-show-labels",    "-fdiagnostics-urls"};
  if (!starts_with(flag, "-fdiagnostics-") && !starts_with(flag, "-fno-diagnostics-")) return false;
  return std::none_of(std::begin(kHarmless), std::end(kHarmless),
                      [&](const char* harmless) { return starts_with(flag, harmless); });
}

/// The suppression one word `word` is on its own, or empty.
std::string flag_of_word(const std::string& word) {
  if (word == "-w" || word == "--no-warnings" || word == "-Wp,-w") return word;
  if (starts_with(word, "-Wno-") && word.size() > 5) return word;
  if (starts_with(word, "--warning-suppression-mappings") || starts_with(word, "--system-header-prefix=") ||
      starts_with(word, "--no-system-header-prefix="))
    return word;
  if (hiding_diagnostics_flag(word)) return word;
  return {};
}

/// A warning-enabling flag ("-Wall", "-Wconversion"), or false.
bool enables_warnings(const std::string& word) {
  if (!starts_with(word, "-W") || word.size() < 3 || starts_with(word, "-Wno-") || starts_with(word, "-Werror"))
    return false;
  return word.find(',') == std::string::npos;  // -Wl,... -Wa,... -Wp,...
}

/// The folder of the compile command (for relative paths).
std::string unit_name(const CompileCommand& command, const CommandTrees& trees) {
  return in_trees(command.file, command.directory, trees);
}

/// The object file ("-o" value) of the command, in trees; empty when none.
std::string object_of(const CompileCommand& command, const CommandTrees& trees) {
  const auto& words = command.arguments;
  for (std::size_t index = 0; index + 1 < words.size(); ++index)
    if (words[index] == "-o") return in_trees(words[index + 1], command.directory, trees);
  return {};
}

/// The CMake target an object belongs to (its "CMakeFiles/<target>.dir/"),
/// with the folder of the build tree it lies in; empty when not known.
std::string target_of(const std::string& object) {
  static const util::Regex target(R"(^(.*)CMakeFiles/([^/]+)\.dir/)");
  std::vector<std::string_view> groups;
  if (!target.search(object, groups) || groups.size() < 3) return {};
  return std::string(groups[1]) + std::string(groups[2]);
}

}  // namespace

std::vector<std::string> suppression_flags(const std::vector<std::string>& arguments, const CommandTrees& trees,
                                           const std::function<bool(const fs::path&)>& hides) {
  std::set<std::string> flags;
  // Paths are relative to the command's folder; callers pass absolute trees
  // and the commands CMake writes name include folders absolutely or
  // relative to the build tree.
  const fs::path directory = trees.build;
  for (std::size_t index = 1; index < arguments.size(); ++index) {
    const std::string& word = arguments[index];
    const bool has_next = index + 1 < arguments.size();
    if ((word == "-Xclang" || word == "-Xpreprocessor") && has_next) {
      const std::string inner = arguments[++index];
      if (const std::string flag = flag_of_word(inner); !flag.empty()) flags.insert(word + " " + flag);
      if ((inner == "-system-header-prefix" || inner == "--system-header-prefix") && index + 2 < arguments.size() &&
          arguments[index + 1] == word) {
        flags.insert(word + " " + inner + " " + arguments[index + 2]);
        index += 2;
      }
      continue;
    }
    if (const std::string flag = flag_of_word(word); !flag.empty()) {
      flags.insert(flag);
      continue;
    }
    if (enables_warnings(word)) {
      flags.insert("+" + word);
      continue;
    }
    if (word == "--system-header-prefix" && has_next) {
      flags.insert(word + " " + arguments[++index]);
      continue;
    }
    for (const char* option : {"-isystem", "-idirafter", "-cxx-isystem"}) {
      if (!starts_with(word, option)) continue;
      std::string value = word.substr(std::string(option).size());
      if (value.empty() && has_next) value = arguments[++index];
      const std::string folder = in_trees(value, directory, trees);
      if (starts_with(folder, "<source>")) flags.insert(std::string(option) + " " + folder);
      break;
    }
    for (const char* option : {"-include", "-imacros", "--include"}) {
      if (!starts_with(word, option) || starts_with(word, "-include-pch")) continue;
      std::string value = word.substr(std::string(option).size());
      if (!value.empty() && value.front() == '=') value.erase(0, 1);
      if (value.empty() && has_next) value = arguments[++index];
      const fs::path file = value;
      if (hides && hides(file.is_absolute() ? file : directory / file))
        flags.insert(std::string(option) + " " + in_trees(value, directory, trees));
      break;
    }
  }
  return {flags.begin(), flags.end()};
}

std::vector<FlagSuppression> new_flag_suppressions(const std::vector<CompileCommand>& baseline,
                                                   const CommandTrees& baseline_trees,
                                                   const std::vector<CompileCommand>& candidate,
                                                   const CommandTrees& candidate_trees,
                                                   const std::function<bool(const fs::path&)>& hides) {
  // The baseline's flags by object, by source, by target and over all.
  std::map<std::string, std::set<std::string>> by_object, by_unit, by_target;
  std::set<std::string> all;
  for (const auto& command : baseline) {
    CommandTrees trees = baseline_trees;
    const auto flags = suppression_flags(command.arguments, trees, hides);
    const std::string object = object_of(command, trees);
    const std::string unit = unit_name(command, trees);
    for (const auto& flag : flags) {
      if (!object.empty()) by_object[object].insert(flag);
      by_unit[unit].insert(flag);
      by_target[target_of(object)].insert(flag);
      all.insert(flag);
    }
    if (!object.empty()) by_object.emplace(object, std::set<std::string>{});
    by_unit.emplace(unit, std::set<std::string>{});
    by_target.emplace(target_of(object), std::set<std::string>{});
  }
  std::set<std::tuple<std::string, std::string, std::string>> found;
  for (const auto& command : candidate) {
    const auto flags = suppression_flags(command.arguments, candidate_trees, hides);
    const std::string object = object_of(command, candidate_trees);
    const std::string unit = unit_name(command, candidate_trees);
    const std::string target = target_of(object);
    const std::set<std::string>* before = nullptr;
    bool same_unit = true;
    if (!object.empty() && by_object.count(object)) {
      before = &by_object[object];
    } else if (by_unit.count(unit)) {
      before = &by_unit[unit];
    } else {
      same_unit = false;
      before = by_target.count(target) ? &by_target[target] : &all;
    }
    for (const auto& flag : flags)
      if (flag.front() != '+' && !before->count(flag)) found.emplace(unit, target, flag);
    if (!same_unit) continue;
    // A warning the baseline's same unit was compiled with and this one is not.
    for (const auto& flag : *before)
      if (flag.front() == '+' && !std::binary_search(flags.begin(), flags.end(), flag))
        found.emplace(unit, target, "removed " + flag.substr(1));
  }
  std::vector<FlagSuppression> out;
  for (const auto& [unit, target, flag] : found) out.push_back({unit, target, flag});
  return out;
}

bool holds_diagnostic_pragma(const fs::path& path) {
  std::error_code error;
  if (!fs::is_regular_file(path, error)) return false;
  static const util::Regex pragma(
      R"((#\s*pragma\s+(\w+\s+)?(diagnostic|system_header|warning\s*\(\s*(disable|push)))|_Pragma\s*\(|__pragma\s*\()");
  return pragma.search(util::read_file(path));
}

namespace {

/// The compile commands of the command log `file` (none when absent).
std::vector<CompileCommand> logged_units(const fs::path& file, const std::vector<std::string>& compilers,
                                         const fs::path& build) {
  const std::string text = util::read_file(file);
  std::vector<std::string> lines;
  for (const auto line : util::split(text, '\n'))
    if (!line.empty()) lines.emplace_back(line);
  return compiler_invocations(lines, compilers, build);
}

}  // namespace

void record_flag_suppressions(const Plan& plan, const CaptureRequest& request, const std::vector<std::string>& compilers,
                              Staging& staging) {
  if (!plan.baseline || !request.baseline_run) return;
  const fs::path mine = staging.directory / "build-commands.txt";
  const fs::path theirs = util::absolute_clean(*request.baseline_run) / "build-commands.txt";
  if (!fs::is_regular_file(mine) || !fs::is_regular_file(theirs)) return;
  const CommandTrees baseline_trees{util::absolute_clean(plan.baseline->source_root),
                                    util::absolute_clean(plan.baseline->build_dir)};
  const CommandTrees candidate_trees{plan.seen(plan.source), plan.seen(plan.build_dir)};
  // A forced include of the baseline's counts as had whatever it holds (its
  // tree may be gone); the candidate's is read where HydraScore sees it.
  const auto baseline = logged_units(theirs, compilers, baseline_trees.build);
  const auto candidate = logged_units(mine, compilers, candidate_trees.build);
  const auto hides = [&](const fs::path& seen) {
    if (util::is_within(seen, baseline_trees.source) || util::is_within(seen, baseline_trees.build)) return true;
    return holds_diagnostic_pragma(seen);
  };
  const auto found = new_flag_suppressions(baseline, baseline_trees, candidate, candidate_trees, hides);
  nlohmann::json record = nlohmann::json::array();
  for (const auto& each : found) record.push_back({{"unit", each.unit}, {"target", each.target}, {"flag", each.flag}});
  staging.manifest["compile_flag_suppressions"] = std::move(record);
}

std::vector<std::string> single_word_suppression_flags(const nlohmann::json& manifest) {
  std::set<std::string> flags;
  if (!manifest.is_object() || !manifest.contains("compile_flag_suppressions")) return {};
  for (const auto& each : manifest["compile_flag_suppressions"]) {
    if (!each.is_object() || !each.contains("flag") || !each["flag"].is_string()) continue;
    const std::string flag = each["flag"].get<std::string>();
    if (flag.find(' ') == std::string::npos && !flag.empty() && flag.front() == '-') flags.insert(flag);
  }
  return {flags.begin(), flags.end()};
}

}  // namespace hydra::capture
