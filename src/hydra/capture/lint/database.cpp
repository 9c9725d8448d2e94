// The lint database (lint/database.hpp).
#include <hydra/capture/lint/database.hpp>

#include <algorithm>
#include <functional>
#include <map>
#include <set>

#include <hydra/capture/core/plan.hpp>
#include <hydra/capture/lint/cache.hpp>
#include <hydra/util/files.hpp>
#include <hydra/util/path_pattern.hpp>

namespace hydra::capture {
namespace fs = std::filesystem;
using nlohmann::json;

bool is_project_generated(const fs::path& file, const fs::path& build) {
  if (!util::is_within(file, build) || file == build) return false;
  const fs::path relative = file.lexically_relative(build);
  // A unity build's source (CMakeFiles/<target>.dir/Unity/unity_0_cxx.cxx)
  // is CMake's file but holds nothing but the project's sources, which are
  // then no units of their own: it is linted, and they with it.
  const std::vector<fs::path> parts(relative.begin(), relative.end());
  if (parts.size() >= 4 && parts[parts.size() - 4] == "CMakeFiles" && parts[parts.size() - 2] == "Unity" &&
      parts.back().string().rfind("unity_", 0) == 0 &&
      std::none_of(parts.begin(), parts.end(), [](const fs::path& part) { return part == "_deps"; }))
    return true;
  for (const auto& part : relative) {
    const std::string name = part.string();
    // HydraScore's own folders by their exact names, never by a prefix a
    // folder the project's build makes could share (`.hydra-gen/`): the
    // held-out trees (hidden from every step) and the lint view (emptied
    // before lint).
    if (name == "CMakeFiles" || name == "_deps" || name == ".hydra" || name == kLintFolder) return false;
    if (name.size() > 8 && name.compare(name.size() - 8, 8, "_autogen") == 0) return false;
  }
  return true;
}

namespace {

bool is_linted_language(const std::string& language) { return language == "C" || language == "CXX"; }

/// The options that name a SYSTEM include directory, with their joined form.
const std::vector<std::string>& system_include_options() {
  static const std::vector<std::string> options = {"-isystem", "-cxx-isystem", "-idirafter"};
  return options;
}

/// `arguments` with every SYSTEM include directory `is_project` accepts
/// given as -I (recorded in `made_user`), and every include directory and
/// forced include written as an absolute, lexically normal path: the
/// header filter matches the path a header is found by, so `/./src`,
/// `//src` or `/x/../src` spellings would otherwise take a tree's headers
/// out of its reach.
std::vector<std::string> without_project_system(const std::vector<std::string>& arguments, const fs::path& directory,
                                                const std::function<bool(const fs::path&)>& is_project,
                                                std::set<std::string>& made_user) {
  std::vector<std::string> out;
  const auto absolute = [&](const std::string& path) {
    const fs::path value = path;
    return util::absolute_clean(value.is_absolute() ? value : directory / value);
  };
  const auto system = system_include_options();
  // Longer options first: "-I" is a prefix of "-include" and "-iquote" is not.
  static const std::vector<std::string> separate = {"-include", "-imacros", "-iquote", "-isystem", "-cxx-isystem",
                                                    "-idirafter", "-I"};
  static const std::vector<std::string> joined = {"-iquote", "-isystem", "-cxx-isystem", "-idirafter", "-I"};
  // Written as it was (one word or two), a project's SYSTEM folder as -I.
  const auto add = [&](const std::string& option, const std::string& value, bool one_word) {
    const fs::path path = absolute(value);
    const bool made = std::find(system.begin(), system.end(), option) != system.end() && is_project(path);
    if (made) made_user.insert(path.string());
    if (made || one_word) out.push_back((made ? std::string("-I") : option) + path.string());
    else {
      out.push_back(option);
      out.push_back(path.string());
    }
  };
  for (std::size_t index = 0; index < arguments.size(); ++index) {
    const std::string& argument = arguments[index];
    if (index + 1 < arguments.size() && std::find(separate.begin(), separate.end(), argument) != separate.end()) {
      add(argument, arguments[index + 1], false);
      ++index;
      continue;
    }
    const auto option = std::find_if(joined.begin(), joined.end(), [&](const std::string& candidate) {
      return argument.size() > candidate.size() && argument.compare(0, candidate.size(), candidate) == 0;
    });
    if (option != joined.end() && argument.rfind("-include", 0) != 0) add(*option, argument.substr(option->size()), true);
    else out.push_back(argument);
  }
  return out;
}

/// A compile command for `file` made from its target's compile group.
json command_from_group(const model::CompileGroup& group, const std::string& compiler, const fs::path& file,
                        const fs::path& build) {
  std::vector<std::string> arguments = {compiler};
  for (const auto& fragment : group.fragments) {
    const auto split = split_command(fragment);
    arguments.insert(arguments.end(), split.begin(), split.end());
  }
  if (!group.sysroot.empty()) arguments.push_back("--sysroot=" + group.sysroot);
  for (const auto& define : group.defines) arguments.push_back("-D" + define);
  for (const auto& include : group.includes) {
    arguments.push_back(include.system ? "-isystem" : "-I");
    arguments.push_back(include.path);
  }
  arguments.insert(arguments.end(), {"-c", file.string()});
  return {{"directory", build.string()}, {"file", file.string()}, {"arguments", arguments}};
}


}  // namespace

/// What of `arguments` decides the code the preprocessor makes: macro
/// definitions, forced includes and include paths, in order (a value given
/// as the next argument joined to its option).
std::vector<std::string> preprocessor_signature(const std::vector<std::string>& arguments) {
  static const std::vector<std::string> options = {"-D", "-U", "-I", "-include", "-imacros", "-isystem", "-iquote",
                                                   "-idirafter", "-iprefix", "-iwithprefix", "-iwithprefixbefore",
                                                   "-std=", "--std="};
  std::vector<std::string> signature;
  for (std::size_t index = 0; index < arguments.size(); ++index) {
    const std::string& argument = arguments[index];
    for (const auto& option : options) {
      if (argument.compare(0, option.size(), option) != 0) continue;
      const bool separate = argument.size() == option.size() && option.back() != '=';
      signature.push_back(separate && index + 1 < arguments.size() ? argument + arguments[++index] : argument);
      break;
    }
  }
  return signature;
}

LintDatabase lint_database(const json& compile_commands, const model::BuildTargets& targets, const fs::path& source,
                           const fs::path& build, const std::vector<fs::path>& excluded,
                           const std::vector<std::string>& lint_exclude, const std::vector<CompileCommand>& compiled) {
  LintDatabase database;
  const auto in_source = [&](const fs::path& file) {
    if (!util::is_within(file, source)) return false;
    return std::none_of(excluded.begin(), excluded.end(), [&](const fs::path& tree) { return util::is_within(file, tree); });
  };
  const auto lintable = [&](const fs::path& file) {
    if (in_source(file)) return util::first_match(lint_exclude, file.lexically_relative(source).generic_string()) == nullptr;
    return is_project_generated(file, build);
  };
  const auto is_project = [&](const fs::path& directory) {
    return in_source(directory) || is_project_generated(directory, build) || directory == source;
  };
  std::set<std::string> made_user;
  std::set<fs::path> listed, units;
  // What each listed file's commands define: a file the build compiles again
  // with other macros or include paths (a custom command) is linted as each.
  std::map<fs::path, std::set<std::vector<std::string>>> signatures;
  if (compile_commands.is_array()) {
    for (const auto& entry : compile_commands) {
      if (!entry.is_object() || !entry.contains("file") || !entry["file"].is_string()) continue;
      const fs::path directory = entry.contains("directory") && entry["directory"].is_string()
                                     ? fs::path(entry["directory"].get<std::string>())
                                     : build;
      fs::path file = entry["file"].get<std::string>();
      if (file.is_relative()) file = directory / file;
      file = util::absolute_clean(file);
      std::vector<std::string> arguments;
      if (entry.contains("arguments") && entry["arguments"].is_array()) {
        for (const auto& argument : entry["arguments"])
          if (argument.is_string()) arguments.push_back(argument.get<std::string>());
      } else if (entry.contains("command") && entry["command"].is_string()) {
        arguments = split_command(entry["command"].get<std::string>());
      }
      json rewritten = entry;
      rewritten.erase("command");
      rewritten["arguments"] = without_project_system(arguments, directory, is_project, made_user);
      signatures[file].insert(preprocessor_signature(arguments));
      database.commands.push_back(std::move(rewritten));
      listed.insert(file);
      if (lintable(file)) units.insert(file);
    }
  }
  std::map<std::string, std::string> compilers(targets.compilers.begin(), targets.compilers.end());
  for (const auto& target : targets.targets) {
    if (!in_source(target.directory) && fs::path(target.directory) != source) continue;  // fetched or outside
    for (const auto& item : target.sources) {
      if (item.compile_group < 0 || item.compile_group >= static_cast<int>(target.compile_groups.size())) continue;
      const model::CompileGroup& group = target.compile_groups[static_cast<std::size_t>(item.compile_group)];
      const fs::path file = util::absolute_clean(item.path);
      if (!is_linted_language(group.language) || !lintable(file)) continue;
      if (listed.count(file)) {
        units.insert(file);
        continue;
      }
      const auto compiler = compilers.find(group.language);
      if (compiler == compilers.end()) continue;  // no command can be made: compile_commands.json had none either
      units.insert(file);
      json made = command_from_group(group, compiler->second, file, build);
      std::vector<std::string> arguments = made["arguments"].get<std::vector<std::string>>();
      signatures[file].insert(preprocessor_signature(arguments));
      made["arguments"] = without_project_system(arguments, build, is_project, made_user);
      database.commands.push_back(std::move(made));
      database.made_from_codemodel.push_back(file.string());
      listed.insert(file);
    }
  }
  for (const auto& command : compiled) {
    const fs::path file = util::absolute_clean(command.file);
    if (!lintable(file)) continue;
    if (listed.count(file) && !signatures[file].insert(preprocessor_signature(command.arguments)).second) continue;
    if (listed.count(file)) database.compiled_again.push_back(file.string());
    units.insert(file);
    json made = {{"directory", command.directory.string()}, {"file", file.string()}};
    made["arguments"] = without_project_system(command.arguments, command.directory, is_project, made_user);
    database.commands.push_back(std::move(made));
    database.made_from_build_commands.push_back(file.string());
    listed.insert(file);
  }
  database.units.assign(units.begin(), units.end());
  database.system_made_user.assign(made_user.begin(), made_user.end());
  std::sort(database.made_from_codemodel.begin(), database.made_from_codemodel.end());
  std::sort(database.made_from_build_commands.begin(), database.made_from_build_commands.end());
  std::sort(database.compiled_again.begin(), database.compiled_again.end());
  return database;
}

}  // namespace hydra::capture
