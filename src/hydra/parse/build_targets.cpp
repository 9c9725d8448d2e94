// build-targets.json (build_targets.hpp).
#include <hydra/parse/build_targets.hpp>

#include <hydra/error.hpp>
#include <hydra/parse/json_error.hpp>
#include <hydra/util/files.hpp>

namespace hydra::parse {

using nlohmann::json;

json to_json(const model::BuildTargets& targets) {
  json compilers = json::object();
  for (const auto& [language, path] : targets.compilers) compilers[language] = path;
  json list = json::array();
  for (const auto& target : targets.targets) {
    json sources = json::array();
    for (const auto& source : target.sources)
      sources.push_back({{"path", source.path}, {"generated", source.generated}, {"compile_group", source.compile_group}});
    json groups = json::array();
    for (const auto& group : target.compile_groups) {
      json includes = json::array();
      for (const auto& include : group.includes) includes.push_back({{"path", include.path}, {"system", include.system}});
      groups.push_back({{"language", group.language},
                        {"fragments", group.fragments},
                        {"defines", group.defines},
                        {"includes", std::move(includes)},
                        {"precompile_headers", group.precompile_headers},
                        {"sysroot", group.sysroot}});
    }
    json link = json::array();
    for (const auto& fragment : target.link) link.push_back({{"fragment", fragment.fragment}, {"role", fragment.role}});
    list.push_back({{"name", target.name},
                    {"type", target.type},
                    {"directory", target.directory},
                    {"artifacts", target.artifacts},
                    {"sources", std::move(sources)},
                    {"compile_groups", std::move(groups)},
                    {"link", std::move(link)},
                    {"link_sysroot", target.link_sysroot},
                    {"dependencies", target.dependencies},
                    {"definition_files", target.definition_files},
                    {"build_commands", target.build_commands}});
  }
  json value = {{"source_root", targets.source_root},
                {"build_root", targets.build_root},
                {"compilers", std::move(compilers)},
                {"targets", std::move(list)}};
  if (!targets.problem.empty()) value["problem"] = targets.problem;
  return value;
}

namespace {

class Reader {
 public:
  explicit Reader(const std::string& source_name) : source_name_(source_name) {}

  [[noreturn]] void fail(const std::string& pointer, const std::string& what) const {
    throw InputError(source_name_, pointer + ": " + what);
  }
  const json& member(const json& object, const char* key, const std::string& pointer) const {
    const auto found = object.find(key);
    if (found == object.end()) fail(pointer + "/" + key, "missing");
    return *found;
  }
  std::string text(const json& object, const char* key, const std::string& pointer) const {
    const json& value = member(object, key, pointer);
    if (!value.is_string()) fail(pointer + "/" + key, "expected a string");
    return value.get<std::string>();
  }
  bool flag(const json& object, const char* key, const std::string& pointer) const {
    const json& value = member(object, key, pointer);
    if (!value.is_boolean()) fail(pointer + "/" + key, "expected a boolean");
    return value.get<bool>();
  }
  const json& array(const json& object, const char* key, const std::string& pointer) const {
    const json& value = member(object, key, pointer);
    if (!value.is_array()) fail(pointer + "/" + key, "expected an array");
    return value;
  }
  std::vector<std::string> texts(const json& object, const char* key, const std::string& pointer) const {
    std::vector<std::string> out;
    for (const json& item : array(object, key, pointer)) {
      if (!item.is_string()) fail(pointer + "/" + key, "expected strings");
      out.push_back(item.get<std::string>());
    }
    return out;
  }

 private:
  const std::string& source_name_;
};

}  // namespace

model::BuildTargets parse_build_targets(std::string_view text, const std::string& source_name) {
  const json value = parse_json_document(text, source_name);
  const Reader read(source_name);
  if (!value.is_object()) read.fail("", "expected an object");
  model::BuildTargets targets;
  targets.source_root = read.text(value, "source_root", "");
  targets.build_root = read.text(value, "build_root", "");
  const json& compilers = read.member(value, "compilers", "");
  if (!compilers.is_object()) read.fail("/compilers", "expected an object");
  for (const auto& [language, path] : compilers.items()) {
    if (!path.is_string()) read.fail("/compilers/" + language, "expected a string");
    targets.compilers.emplace_back(language, path.get<std::string>());
  }
  if (const auto problem = value.find("problem"); problem != value.end()) {
    if (!problem->is_string()) read.fail("/problem", "expected a string");
    targets.problem = problem->get<std::string>();
  }
  const json& list = read.array(value, "targets", "");
  for (std::size_t index = 0; index < list.size(); ++index) {
    const json& entry = list[index];
    const std::string at = "/targets/" + std::to_string(index);
    if (!entry.is_object()) read.fail(at, "expected an object");
    model::BuildTarget target;
    target.name = read.text(entry, "name", at);
    target.type = read.text(entry, "type", at);
    target.directory = read.text(entry, "directory", at);
    target.artifacts = read.texts(entry, "artifacts", at);
    const json& sources = read.array(entry, "sources", at);
    for (std::size_t number = 0; number < sources.size(); ++number) {
      const std::string where = at + "/sources/" + std::to_string(number);
      if (!sources[number].is_object()) read.fail(where, "expected an object");
      model::TargetSource source;
      source.path = read.text(sources[number], "path", where);
      source.generated = read.flag(sources[number], "generated", where);
      const json& group = read.member(sources[number], "compile_group", where);
      if (!group.is_number_integer()) read.fail(where + "/compile_group", "expected an integer");
      source.compile_group = group.get<int>();
      target.sources.push_back(std::move(source));
    }
    const json& groups = read.array(entry, "compile_groups", at);
    for (std::size_t number = 0; number < groups.size(); ++number) {
      const std::string where = at + "/compile_groups/" + std::to_string(number);
      const json& group_json = groups[number];
      if (!group_json.is_object()) read.fail(where, "expected an object");
      model::CompileGroup group;
      group.language = read.text(group_json, "language", where);
      group.fragments = read.texts(group_json, "fragments", where);
      group.defines = read.texts(group_json, "defines", where);
      const json& includes = read.array(group_json, "includes", where);
      for (const json& include : includes) {
        if (!include.is_object()) read.fail(where + "/includes", "expected objects");
        group.includes.push_back({read.text(include, "path", where + "/includes"),
                                  read.flag(include, "system", where + "/includes")});
      }
      group.precompile_headers = read.texts(group_json, "precompile_headers", where);
      group.sysroot = read.text(group_json, "sysroot", where);
      target.compile_groups.push_back(std::move(group));
    }
    for (const json& fragment : read.array(entry, "link", at)) {
      if (!fragment.is_object()) read.fail(at + "/link", "expected objects");
      target.link.push_back({read.text(fragment, "fragment", at + "/link"), read.text(fragment, "role", at + "/link")});
    }
    target.link_sysroot = read.text(entry, "link_sysroot", at);
    target.dependencies = read.texts(entry, "dependencies", at);
    target.definition_files = read.texts(entry, "definition_files", at);
    target.build_commands = read.texts(entry, "build_commands", at);
    for (const auto& source : target.sources)
      if (source.compile_group < -1 || source.compile_group >= static_cast<int>(target.compile_groups.size()))
        read.fail(at + "/sources", "compile_group out of range");
    targets.targets.push_back(std::move(target));
  }
  return targets;
}

model::BuildTargets parse_build_targets_file(const std::filesystem::path& file) {
  return parse_build_targets(util::read_file(file), file.string());
}

}  // namespace hydra::parse
