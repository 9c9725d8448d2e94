// The File API reply (codemodel.hpp).
#include <hydra/capture/cmake/codemodel.hpp>
#include <hydra/parse/cmake_cache.hpp>
#include <hydra/capture/core/json_members.hpp>

#include <algorithm>
#include <map>
#include <mutex>
#include <set>

#include <nlohmann/json.hpp>

#include <hydra/error.hpp>
#include <hydra/util/files.hpp>
#include <hydra/util/process.hpp>
#include <hydra/util/text.hpp>

namespace hydra::capture {
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

constexpr const char* client = "client-hydrascore";

const json& list_member(const json& object, const char* key) {
  static const json empty = json::array();
  const json& value = member(object, key);
  return value.is_array() ? value : empty;
}

json read_json_file(const fs::path& file) { return json::parse(util::read_file(file)); }

/// `path` made absolute against `base` and cleaned.
std::string absolute_against(const std::string& path, const fs::path& base) {
  if (path.empty()) return {};
  const fs::path value = path;
  return util::absolute_clean(value.is_absolute() ? value : base / value).string();
}

/// The files of a backtrace chain (`backtrace` indexes `graph`'s nodes).
std::vector<std::string> backtrace_files(const json& graph, const json& backtrace, const fs::path& source) {
  std::set<std::string> files;
  const json& nodes = member(graph, "nodes");
  const json& names = member(graph, "files");
  if (!backtrace.is_number_unsigned() || !nodes.is_array() || !names.is_array()) return {};
  std::size_t index = backtrace.get<std::size_t>();
  for (std::size_t steps = 0; index < nodes.size() && steps < nodes.size(); ++steps) {
    const json& node = nodes[index];
    const json& file = member(node, "file");
    if (file.is_number_unsigned() && file.get<std::size_t>() < names.size() && names[file.get<std::size_t>()].is_string())
      files.insert(absolute_against(names[file.get<std::size_t>()].get<std::string>(), source));
    const json& parent = member(node, "parent");
    if (!parent.is_number_unsigned()) break;
    index = parent.get<std::size_t>();
  }
  return {files.begin(), files.end()};
}

/// The reply index (the newest), with the answers to HydraScore's queries.
json reply_index(const fs::path& reply) {
  std::error_code error;
  if (!fs::is_directory(reply, error)) throw Error("no File API reply in " + reply.string());
  fs::path index;
  for (const auto& entry : fs::directory_iterator(reply, error)) {
    const std::string name = entry.path().filename().string();
    if (name.rfind("index-", 0) == 0 && entry.path().extension() == ".json" && entry.path() > index) index = entry.path();
  }
  if (index.empty()) throw Error("no File API reply index in " + reply.string());
  return read_json_file(index);
}

model::BuildTarget read_target(const json& target_json, const fs::path& source, const fs::path& build,
                               const std::map<std::string, std::string>& names_by_id) {
  model::BuildTarget target;
  target.name = string_member(target_json, "name");
  target.type = string_member(target_json, "type");
  const json& paths = member(target_json, "paths");
  target.directory = absolute_against(string_member(paths, "source").empty() ? "." : string_member(paths, "source"), source);
  for (const json& artifact : list_member(target_json, "artifacts"))
    if (const std::string path = string_member(artifact, "path"); !path.empty())
      target.artifacts.push_back(absolute_against(path, build));
  for (const json& source_entry : list_member(target_json, "sources")) {
    model::TargetSource item;
    item.path = absolute_against(string_member(source_entry, "path"), source);
    item.generated = member(source_entry, "isGenerated").is_boolean() && member(source_entry, "isGenerated").get<bool>();
    const json& group = member(source_entry, "compileGroupIndex");
    item.compile_group = group.is_number_unsigned() ? group.get<int>() : -1;
    if (!item.path.empty()) target.sources.push_back(std::move(item));
  }
  for (const json& group_json : list_member(target_json, "compileGroups")) {
    model::CompileGroup group;
    group.language = string_member(group_json, "language");
    for (const json& fragment : list_member(group_json, "compileCommandFragments"))
      group.fragments.push_back(string_member(fragment, "fragment"));
    for (const json& define : list_member(group_json, "defines")) group.defines.push_back(string_member(define, "define"));
    for (const json& include : list_member(group_json, "includes"))
      group.includes.push_back({absolute_against(string_member(include, "path"), source),
                                member(include, "isSystem").is_boolean() && member(include, "isSystem").get<bool>()});
    for (const json& header : list_member(group_json, "precompileHeaders"))
      group.precompile_headers.push_back(string_member(header, "header"));
    group.sysroot = string_member(member(group_json, "sysroot"), "path");
    target.compile_groups.push_back(std::move(group));
  }
  for (auto& source_item : target.sources)
    if (source_item.compile_group >= static_cast<int>(target.compile_groups.size())) source_item.compile_group = -1;
  const json& link = member(target_json, "link");
  for (const json& fragment : list_member(link, "commandFragments")) {
    const std::string text = string_member(fragment, "fragment");
    if (text.empty()) continue;
    target.link.push_back({text, string_member(fragment, "role")});
  }
  target.link_sysroot = string_member(member(link, "sysroot"), "path");
  for (const json& dependency : list_member(target_json, "dependencies")) {
    const auto found = names_by_id.find(string_member(dependency, "id"));
    if (found != names_by_id.end()) target.dependencies.push_back(found->second);
  }
  target.definition_files =
      backtrace_files(member(target_json, "backtraceGraph"), member(target_json, "backtrace"), source);
  return target;
}

/// A link fragment naming a project target's artifact (relative to the top
/// build tree, where Ninja links, or to the target's folder, where
/// Makefiles do) becomes "<target:NAME>": the comparison then names the
/// target, wherever the tree is.
void name_project_artifacts(model::BuildTargets& targets) {
  std::map<std::string, std::string> by_artifact;
  for (const auto& target : targets.targets)
    for (const auto& artifact : target.artifacts) by_artifact[artifact] = target.name;
  for (auto& target : targets.targets) {
    const fs::path folder = target.directory.empty()
                                ? fs::path(targets.build_root)
                                : fs::path(targets.build_root) /
                                      fs::path(target.directory).lexically_relative(targets.source_root);
    for (auto& fragment : target.link) {
      if (fragment.role != "libraries") continue;
      for (const fs::path& base : {fs::path(targets.build_root), folder}) {
        const auto found = by_artifact.find(absolute_against(fragment.fragment, base));
        if (found == by_artifact.end()) continue;
        fragment.fragment = "<target:" + found->second + ">";
        break;
      }
    }
  }
}

}  // namespace

bool write_file_api_queries(const fs::path& build_dir) {
  bool added = false;
  for (const char* object : {"codemodel-v2", "toolchains-v1"}) {
    const fs::path query = build_dir / ".cmake" / "api" / "v1" / "query" / client / object;
    std::error_code error;
    if (fs::exists(query, error)) continue;
    fs::create_directories(query.parent_path());
    util::write_file_atomic(query, "");
    added = true;
  }
  return added;
}

model::BuildTargets read_build_targets(const fs::path& build_dir, const std::string& build_config) {
  model::BuildTargets targets;
  const fs::path reply = build_dir / ".cmake" / "api" / "v1" / "reply";
  try {
    const json index = reply_index(reply);
    const json& answers = member(member(index, "reply"), client);
    const std::string codemodel_file = string_member(member(answers, "codemodel-v2"), "jsonFile");
    if (codemodel_file.empty()) throw Error("the File API reply in " + reply.string() + " holds no codemodel-v2 answer");
    const json codemodel = read_json_file(reply / codemodel_file);
    const json& paths = member(codemodel, "paths");
    targets.source_root = util::absolute_clean(string_member(paths, "source")).string();
    targets.build_root = util::absolute_clean(string_member(paths, "build")).string();
    if (targets.source_root.empty() || targets.build_root.empty())
      throw Error(codemodel_file + " names no source or build folder");
    const json* configuration = nullptr;
    for (const json& candidate : list_member(codemodel, "configurations")) {
      if (!configuration) configuration = &candidate;
      if (!build_config.empty() && string_member(candidate, "name") == build_config) {
        configuration = &candidate;
        break;
      }
    }
    if (!configuration) throw Error(codemodel_file + " lists no configuration");
    std::map<std::string, std::string> names_by_id;
    for (const json& entry : list_member(*configuration, "targets"))
      names_by_id[string_member(entry, "id")] = string_member(entry, "name");
    for (const json& entry : list_member(*configuration, "targets")) {
      const std::string file = string_member(entry, "jsonFile");
      if (file.empty()) continue;
      targets.targets.push_back(
          read_target(read_json_file(reply / file), targets.source_root, targets.build_root, names_by_id));
    }
    name_project_artifacts(targets);
    const std::string toolchains_file = string_member(member(answers, "toolchains-v1"), "jsonFile");
    if (!toolchains_file.empty()) {
      const json toolchains = read_json_file(reply / toolchains_file);
      for (const json& toolchain : list_member(toolchains, "toolchains")) {
        const std::string path = string_member(member(toolchain, "compiler"), "path");
        if (!path.empty()) targets.compilers.emplace_back(string_member(toolchain, "language"), path);
      }
    }
  } catch (const Error& error) {
    targets.targets.clear();
    targets.problem = error.what();
  } catch (const json::exception& error) {
    targets.targets.clear();
    targets.problem = std::string("the File API reply cannot be read: ") + error.what();
  }
  return targets;
}

namespace {

/// The ninja program for the Ninja build tree `build_dir`: the one on
/// HydraScore's own PATH, never the cache's CMAKE_MAKE_PROGRAM (the tree's
/// configure and test programs may write the cache, and this program runs
/// outside the sandbox); nullopt for a tree of another generator or none.
/// The cache is read once per configure of the tree: the answer is kept
/// while CMakeCache.txt keeps its modification time and size.
std::optional<std::string> ninja_of(const fs::path& build_dir) {
  struct Known {
    fs::file_time_type modified;
    std::uintmax_t size = 0;
    std::optional<std::string> ninja;
  };
  static std::mutex mutex;
  static std::map<fs::path, Known> known;
  std::error_code error;
  const fs::path file = build_dir / "CMakeCache.txt";
  const auto modified = fs::last_write_time(file, error);
  const auto size = error ? 0 : fs::file_size(file, error);
  const std::lock_guard<std::mutex> lock(mutex);
  if (!error)
    if (const auto found = known.find(build_dir);
        found != known.end() && found->second.modified == modified && found->second.size == size)
      return found->second.ninja;
  std::optional<std::string> ninja;
  const std::optional<parse::CMakeCache> cache = parse::read_cmake_cache(build_dir);
  if (cache && cache->value_or_empty("CMAKE_GENERATOR") == "Ninja")
    if (const auto found = util::find_program("ninja")) ninja = found->string();
  if (!error) known[build_dir] = {modified, size, ninja};
  return ninja;
}

/// `command` without the whitespace-separated words of `words`.
std::string without_words(const std::string& command, const std::set<std::string>& words) {
  std::string out;
  std::size_t start = 0;
  while (start < command.size()) {
    std::size_t end = command.find(' ', start);
    if (end == std::string::npos) end = command.size();
    const std::string word = command.substr(start, end - start);
    if (!word.empty() && !words.count(word)) out += (out.empty() ? "" : " ") + word;
    start = end + 1;
  }
  return out;
}

}  // namespace

void add_build_commands(model::BuildTargets& targets, const fs::path& build_dir, const std::string& launcher) {
  if (!targets.problem.empty()) return;
  const std::optional<std::string> found = ninja_of(build_dir);
  if (!found) return;
  const std::string& ninja = *found;
  // The project's libraries, as link lines name them (the codemodel's
  // comparison judges those).
  std::set<std::string> libraries;
  for (const auto& target : targets.targets) {
    if (target.type == "EXECUTABLE") continue;
    for (const auto& artifact : target.artifacts) {
      libraries.insert(artifact);
      libraries.insert(fs::path(artifact).lexically_relative(targets.build_root).generic_string());
    }
  }
  for (auto& target : targets.targets) {
    if (target.type != "EXECUTABLE" || target.artifacts.empty()) continue;
    const std::string artifact = fs::path(target.artifacts.front()).lexically_relative(targets.build_root).generic_string();
    const fs::path folder = fs::path(target.directory).lexically_relative(targets.source_root);
    std::string objects = (folder.empty() || folder == "." ? fs::path() : folder).generic_string();
    objects = (objects.empty() ? "" : objects + "/") + "CMakeFiles/" + target.name + ".dir/";
    util::ProcessRequest request;
    request.argv = {ninja, "-C", build_dir.string(), "-t", "commands", artifact};
    request.separate_stderr = true;
    request.keep_output_bytes = std::size_t(1) << 28;
    request.timeout = std::chrono::seconds(60);
    const auto listed = util::run_process(request);
    if (!listed.started || listed.exit_code != 0) continue;
    std::vector<std::string> lines;
    std::size_t start = 0;
    while (start < listed.output.size()) {
      std::size_t end = listed.output.find('\n', start);
      if (end == std::string::npos) end = listed.output.size();
      std::string line = listed.output.substr(start, end - start);
      start = end + 1;
      if (!launcher.empty() && line.rfind(launcher + " ", 0) == 0) line.erase(0, launcher.size() + 1);
      if (!line.empty()) lines.push_back(std::move(line));
    }
    if (lines.empty()) continue;
    std::vector<std::string> own;
    for (std::size_t index = 0; index + 1 < lines.size(); ++index)
      if (lines[index].find(" -o " + objects) != std::string::npos) own.push_back(lines[index]);
    std::sort(own.begin(), own.end());
    own.push_back(without_words(lines.back(), libraries));  // the link
    target.build_commands = std::move(own);
  }
}

std::vector<std::string> build_command_lines(const fs::path& build_dir) {
  std::vector<std::string> lines;
  const std::optional<std::string> listed = ninja_tool(build_dir, {"commands"});
  if (!listed) return lines;
  for (std::string_view line : util::split(*listed, '\n')) {
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (!line.empty()) lines.emplace_back(line);
  }
  return lines;
}

std::optional<std::string> ninja_tool(const fs::path& build_dir, const std::vector<std::string>& tool) {
  const std::optional<std::string> ninja = ninja_of(build_dir);
  if (!ninja) return std::nullopt;
  util::ProcessRequest request;
  request.argv = {*ninja, "-C", build_dir.string(), "-t"};
  request.argv.insert(request.argv.end(), tool.begin(), tool.end());
  request.separate_stderr = true;
  request.keep_output_bytes = std::size_t(1) << 30;
  request.timeout = std::chrono::seconds(120);
  auto listed = util::run_process(request);
  if (!listed.started || listed.exit_code != 0) return std::nullopt;
  return std::move(listed.output);
}

std::set<std::string> configure_inputs(const fs::path& build_dir) {
  std::set<std::string> inputs;
  const std::optional<std::string> query = ninja_tool(build_dir, {"query", "build.ninja"});
  if (!query) return inputs;
  // "build.ninja:", "  input: RERUN_CMAKE", then "    [| |||]path" a line,
  // then "  outputs:" and its own lines.
  bool in_inputs = false;
  for (std::string_view line : util::split(*query, '\n')) {
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.rfind("  input:", 0) == 0) { in_inputs = true; continue; }
    if (line.rfind("  ", 0) == 0 && line.rfind("    ", 0) != 0) { in_inputs = false; continue; }
    if (!in_inputs || line.rfind("    ", 0) != 0) continue;
    line.remove_prefix(4);
    while (!line.empty() && line.front() == '|') line.remove_prefix(1);
    while (!line.empty() && line.front() == ' ') line.remove_prefix(1);
    if (!line.empty()) inputs.emplace(line);
  }
  return inputs;
}

std::map<std::string, std::set<std::string>> header_users(const fs::path& build_dir) {
  std::map<std::string, std::set<std::string>> users;
  const std::optional<std::string> deps = ninja_tool(build_dir, {"deps"});
  if (!deps) return users;
  const std::string& output = *deps;
  // "<object>: #deps N, deps mtime T (VALID)" then one indented path a line;
  // CMake puts a target's objects under ".../CMakeFiles/<target>.dir/".
  std::string target;
  std::size_t start = 0;
  const std::string marker = "CMakeFiles/";
  while (start < output.size()) {
    std::size_t end = output.find('\n', start);
    if (end == std::string::npos) end = output.size();
    const std::string line = output.substr(start, end - start);
    start = end + 1;
    if (line.empty()) continue;
    if (line[0] != ' ') {
      target.clear();
      const std::size_t colon = line.find(": #deps");
      const std::string object = line.substr(0, colon);
      const std::size_t at = object.rfind(marker);
      if (colon == std::string::npos || at == std::string::npos) continue;
      const std::size_t dir = object.find(".dir/", at);
      if (dir != std::string::npos) target = object.substr(at + marker.size(), dir - at - marker.size());
      continue;
    }
    if (target.empty()) continue;
    const std::size_t first = line.find_first_not_of(' ');
    if (first != std::string::npos) users[line.substr(first)].insert(target);
  }
  return users;
}

namespace {

/// The compilers' implicit include directories CMake recorded in `build_dir`.
std::vector<fs::path> implicit_include_directories(const fs::path& build_dir) {
  std::vector<fs::path> directories;
  std::error_code error;
  for (const auto& entry : fs::directory_iterator(build_dir / "CMakeFiles", error)) {
    if (!entry.is_directory(error)) continue;
    for (const char* file : {"CMakeCXXCompiler.cmake", "CMakeCCompiler.cmake"}) {
      const fs::path recorded = entry.path() / file;
      if (!fs::is_regular_file(recorded, error)) continue;
      const std::string text = util::read_file(recorded);
      for (const char* name : {"set(CMAKE_CXX_IMPLICIT_INCLUDE_DIRECTORIES \"", "set(CMAKE_C_IMPLICIT_INCLUDE_DIRECTORIES \""}) {
        const std::size_t at = text.find(name);
        if (at == std::string::npos) continue;
        const std::size_t start = at + std::string(name).size();
        const std::size_t end = text.find('"', start);
        if (end == std::string::npos) continue;
        const std::string list = text.substr(start, end - start);
        std::size_t from = 0;
        while (from <= list.size()) {
          const std::size_t semicolon = std::min(list.find(';', from), list.size());
          if (semicolon > from) {
            const fs::path directory = list.substr(from, semicolon - from);
            if (std::find(directories.begin(), directories.end(), directory) == directories.end())
              directories.push_back(directory);
          }
          from = semicolon + 1;
        }
      }
    }
  }
  return directories;
}

}  // namespace

std::vector<ShadowingHeader> shadowing_headers(const fs::path& build_dir, const fs::path& seen_source,
                                               const fs::path& seen_build) {
  std::vector<ShadowingHeader> found;
  const auto users = header_users(build_dir);
  if (users.empty()) return found;
  const std::vector<fs::path> system = implicit_include_directories(build_dir);
  std::set<std::string> seen;
  for (const auto& [path, targets] : users) {
    fs::path header = path;
    if (header.is_relative()) header = seen_build / header;
    header = header.lexically_normal();
    if (!util::is_within(header, seen_source) || util::is_within(header, seen_build)) continue;
    const fs::path relative = header.lexically_relative(seen_source);
    if (relative.empty() || seen.count(relative.generic_string())) continue;
    // Every trailing part of its path, the file name first: the name an
    // #include could have found it by.
    std::vector<fs::path> parts(relative.begin(), relative.end());
    bool shadowing = false;
    for (std::size_t first = parts.size(); first-- > 0 && !shadowing;) {
      fs::path tail;
      for (std::size_t index = first; index < parts.size(); ++index) tail /= parts[index];
      for (const auto& directory : system) {
        std::error_code error;
        if (fs::is_regular_file(directory / tail, error)) {
          found.push_back({relative.generic_string(), (directory / tail).generic_string()});
          seen.insert(relative.generic_string());
          shadowing = true;
          break;
        }
      }
    }
  }
  return found;
}

}  // namespace hydra::capture
