// How each judged test is defined and built, compared with the reference
// (test_recipes.hpp).
#include <hydra/guard/test_recipes.hpp>

#include <algorithm>
#include <iterator>
#include <map>
#include <set>

#include <nlohmann/json.hpp>

#include <hydra/util/files.hpp>

namespace hydra::guard {

using nlohmann::json;

std::string replace_root_in(std::string text, std::string_view root, std::string_view marker) {
  if (root.size() < 2) return text;  // "" or "/": nothing meaningful to replace
  std::size_t position = text.find(root);
  while (position != std::string::npos) {
    const std::size_t end = position + root.size();
    const bool boundary = end == text.size() || text[end] == '/' || text[end] == '\\' || text[end] == '"' ||
                          text[end] == '\'' || text[end] == ';' || text[end] == ' ';
    if (boundary) {
      text.replace(position, root.size(), marker);
      position = text.find(root, position + marker.size());
    } else {
      position = text.find(root, end);
    }
  }
  return text;
}

namespace {

/// A tree's paths written relative to its roots (the longer root first, so
/// a build tree inside the source tree is `<build>`).
class Relative {
 public:
  explicit Relative(const TreeTests& tree) {
    if (!tree.build_root.empty()) roots_.emplace_back(tree.build_root, "<build>");
    if (!tree.source_root.empty()) roots_.emplace_back(tree.source_root, "<source>");
    std::stable_sort(roots_.begin(), roots_.end(),
                     [](const auto& left, const auto& right) { return left.first.size() > right.first.size(); });
  }
  std::string operator()(std::string text) const {
    for (const auto& [root, marker] : roots_) text = replace_root_in(std::move(text), root, marker);
    return text;
  }
  std::vector<std::string> operator()(const std::vector<std::string>& texts) const {
    std::vector<std::string> out;
    out.reserve(texts.size());
    for (const auto& text : texts) out.push_back((*this)(text));
    return out;
  }

 private:
  std::vector<std::pair<std::string, std::string>> roots_;
};

/// A value as a detail shows it, at most 300 bytes.
std::string shown(const std::string& text) {
  if (text.size() <= 300) return text;
  return text.substr(0, 297) + "...";
}
std::string shown(const std::vector<std::string>& values) { return shown(json(values).dump()); }

const model::TestDefinition* find_definition(const std::vector<model::TestDefinition>* definitions,
                                             const std::string& name) {
  if (!definitions) return nullptr;
  for (const auto& definition : *definitions)
    if (definition.name == name) return &definition;
  return nullptr;
}

/// The targets whose artifacts `test`'s command names (in order, each once).
std::vector<const model::BuildTarget*> programs_of(const model::BuildTargets& targets,
                                                   const model::TestDefinition& test) {
  std::map<std::string, const model::BuildTarget*> by_artifact;
  for (const auto& target : targets.targets)
    for (const auto& artifact : target.artifacts) by_artifact[artifact] = &target;
  std::vector<const model::BuildTarget*> programs;
  for (const auto& argument : test.command) {
    if (argument.empty() || argument.front() != '/') continue;
    const auto found = by_artifact.find(util::absolute_clean(argument).string());
    if (found != by_artifact.end() && std::find(programs.begin(), programs.end(), found->second) == programs.end())
      programs.push_back(found->second);
  }
  return programs;
}

/// The properties of `test` as compared: name -> value with the tree's roots replaced.
std::map<std::string, std::string> properties_of(const model::TestDefinition& test, const Relative& relative) {
  std::map<std::string, std::string> properties;
  for (const auto& [name, value] : test.properties) properties[name] = relative(value);
  return properties;
}

std::vector<std::string> definition_differences(const model::TestDefinition& before, const Relative& relative_before,
                                                const model::TestDefinition& after, const Relative& relative_after) {
  std::vector<std::string> differences;
  const auto command_before = relative_before(launcher_as_hydra_score(before.command));
  const auto command_after = relative_after(launcher_as_hydra_score(after.command));
  // ctest lists no command for a test whose program was not built (a new
  // test on the baseline's code that does not compile there): such a test
  // fails when run, whoever defines it, so only two known commands compare.
  if (!command_before.empty() && !command_after.empty() && command_before != command_after)
    differences.push_back("command " + shown(command_before) + " -> " + shown(command_after));
  const auto properties_before = properties_of(before, relative_before);
  const auto properties_after = properties_of(after, relative_after);
  std::set<std::string> names;
  for (const auto& [name, value] : properties_before) names.insert(name);
  for (const auto& [name, value] : properties_after) names.insert(name);
  for (const auto& name : names) {
    const auto was = properties_before.find(name);
    const auto is = properties_after.find(name);
    const std::string was_text = was == properties_before.end() ? "unset" : shown(was->second);
    const std::string is_text = is == properties_after.end() ? "unset" : shown(is->second);
    if (was_text != is_text) differences.push_back(name + " " + was_text + " -> " + is_text);
  }
  return differences;
}

/// What a source is compiled with, field by field, as compared.
std::vector<std::pair<std::string, std::string>> compile_fields(const model::CompileGroup& group, const Relative& relative) {
  std::vector<std::string> includes;
  for (const auto& include : group.includes) includes.push_back((include.system ? "SYSTEM " : "") + relative(include.path));
  return {{"language", group.language},
          {"compile options", shown(relative(group.fragments))},
          {"compile definitions", shown(relative(group.defines))},
          {"include directories", shown(includes)},
          {"precompiled headers", shown(relative(group.precompile_headers))},
          {"sysroot", relative(group.sysroot)}};
}

/// The sources of `target` with their compile fields (unset for a source not compiled).
std::map<std::string, std::vector<std::pair<std::string, std::string>>> sources_of(const model::BuildTarget& target,
                                                                                     const Relative& relative) {
  std::map<std::string, std::vector<std::pair<std::string, std::string>>> sources;
  for (const auto& source : target.sources) {
    auto& fields = sources[relative(source.path)];
    if (source.compile_group >= 0 && source.compile_group < static_cast<int>(target.compile_groups.size()))
      fields = compile_fields(target.compile_groups[static_cast<std::size_t>(source.compile_group)], relative);
  }
  return sources;
}

bool is_project_link(const std::string& fragment) {
  return fragment.rfind("<target:", 0) == 0 && !fragment.empty() && fragment.back() == '>';
}

std::string project_name(const std::string& fragment) { return fragment.substr(8, fragment.size() - 9); }

void compare_links(const model::BuildTarget& before, const Relative& relative_before, const model::BuildTarget& after,
                   const Relative& relative_after, const model::BuildTargets& after_targets,
                   std::vector<std::string>& differences) {
  std::vector<std::string> other_before, other_after;
  std::vector<std::string> projects_before, projects_after;
  for (const auto& fragment : before.link) {
    if (is_project_link(fragment.fragment)) projects_before.push_back(project_name(fragment.fragment));
    else other_before.push_back(fragment.role + " " + relative_before(fragment.fragment));
  }
  for (const auto& fragment : after.link) {
    if (is_project_link(fragment.fragment)) projects_after.push_back(project_name(fragment.fragment));
    else other_after.push_back(fragment.role + " " + relative_after(fragment.fragment));
  }
  if (other_before != other_after)
    differences.push_back(before.name + ": link " + shown(other_before) + " -> " + shown(other_after));
  if (relative_before(before.link_sysroot) != relative_after(after.link_sysroot))
    differences.push_back(before.name + ": link sysroot \"" + relative_before(before.link_sysroot) + "\" -> \"" +
                          relative_after(after.link_sysroot) + "\"");
  // The project's own libraries are the code under test: one the test did
  // not link before counts only when a library it linked depends on it (the
  // code brought it), never when the test's own definition added it.
  std::set<std::string> explained;
  for (const auto& name : projects_after)
    if (std::find(projects_before.begin(), projects_before.end(), name) != projects_before.end()) explained.insert(name);
  for (bool grown = true; grown;) {
    grown = false;
    for (const auto& name : std::set<std::string>(explained)) {
      const model::BuildTarget* library = after_targets.find(name);
      if (!library) continue;
      for (const auto& dependency : library->dependencies)
        if (std::find(projects_after.begin(), projects_after.end(), dependency) != projects_after.end() &&
            explained.insert(dependency).second)
          grown = true;
    }
  }
  for (const auto& name : projects_after)
    if (!explained.count(name))
      differences.push_back(before.name + ": links the project's " + name +
                            ", which it did not link and no library it links depends on");
}

/// The words of `command` (split at spaces) as a multiset.
std::multiset<std::string> words_of(const std::string& command) {
  std::multiset<std::string> words;
  std::size_t start = 0;
  while (start < command.size()) {
    std::size_t end = command.find(' ', start);
    if (end == std::string::npos) end = command.size();
    if (end > start) words.insert(command.substr(start, end - start));
    start = end + 1;
  }
  return words;
}

/// The generator's commands for the program (compiler launchers, rule
/// overrides, pre-link and post-build steps): the words each differing
/// command lost and gained.
void compare_build_commands(const model::BuildTarget& before, const Relative& relative_before,
                            const model::BuildTarget& after, const Relative& relative_after,
                            std::vector<std::string>& differences) {
  if (before.build_commands.empty() || after.build_commands.empty()) return;  // not known on both sides
  const auto was = relative_before(before.build_commands);
  const auto is = relative_after(after.build_commands);
  if (was == is) return;
  std::multiset<std::string> lost, gained;
  for (std::size_t index = 0; index < std::max(was.size(), is.size()); ++index) {
    const auto old_words = index < was.size() ? words_of(was[index]) : std::multiset<std::string>{};
    const auto new_words = index < is.size() ? words_of(is[index]) : std::multiset<std::string>{};
    std::set_difference(old_words.begin(), old_words.end(), new_words.begin(), new_words.end(),
                        std::inserter(lost, lost.end()));
    std::set_difference(new_words.begin(), new_words.end(), old_words.begin(), old_words.end(),
                        std::inserter(gained, gained.end()));
  }
  differences.push_back(before.name + ": build commands (" + std::to_string(was.size()) + " -> " +
                        std::to_string(is.size()) + ") lost " +
                        shown(std::vector<std::string>(lost.begin(), lost.end())) + ", gained " +
                        shown(std::vector<std::string>(gained.begin(), gained.end())));
}

void compare_target(const model::BuildTarget& before, const Relative& relative_before, const model::BuildTarget& after,
                    const Relative& relative_after, const model::BuildTargets& after_targets,
                    std::vector<std::string>& differences) {
  const std::size_t known = differences.size();
  if (before.type != after.type) differences.push_back(before.name + ": type " + before.type + " -> " + after.type);
  const auto sources_before = sources_of(before, relative_before);
  const auto sources_after = sources_of(after, relative_after);
  std::vector<std::string> removed, added;
  for (const auto& [path, fields] : sources_before)
    if (!sources_after.count(path)) removed.push_back(path);
  for (const auto& [path, fields] : sources_after)
    if (!sources_before.count(path)) added.push_back(path);
  if (!removed.empty() || !added.empty())
    differences.push_back(before.name + ": sources " + shown(removed) + " -> " + shown(added));
  // One line per differing field, naming the first source it differs for.
  std::map<std::string, std::pair<std::string, std::size_t>> by_change;  // change -> first source, count
  for (const auto& [path, fields] : sources_before) {
    const auto found = sources_after.find(path);
    if (found == sources_after.end()) continue;
    const auto& other = found->second;
    for (std::size_t index = 0; index < std::max(fields.size(), other.size()); ++index) {
      const std::string name = index < fields.size() ? fields[index].first : other[index].first;
      const std::string was = index < fields.size() ? fields[index].second : "not compiled";
      const std::string is = index < other.size() ? other[index].second : "not compiled";
      if (was == is) continue;
      auto& entry = by_change[name + " " + was + " -> " + is];
      if (entry.second++ == 0) entry.first = path;
    }
  }
  for (const auto& [change, where] : by_change)
    differences.push_back(before.name + ": " + change + " (" + where.first +
                          (where.second > 1 ? " and " + std::to_string(where.second - 1) + " more" : std::string()) +
                          ")");
  compare_links(before, relative_before, after, relative_after, after_targets, differences);
  // What the codemodel does not show (a compiler launcher, a link rule of
  // the project's own, a post-build step), when it showed nothing else.
  if (differences.size() == known) compare_build_commands(before, relative_before, after, relative_after, differences);
}

std::string joined(const std::string& where, const std::vector<std::string>& differences) {
  std::string text = where + ": ";
  for (std::size_t index = 0; index < differences.size(); ++index) text += (index ? "; " : "") + differences[index];
  return text;
}

}  // namespace

std::vector<TamperedTest> compare_test_recipes(const TreeTests& reference, const TreeTests& judged,
                                               const std::vector<std::string>& tests, std::string_view where) {
  std::vector<TamperedTest> found;
  const Relative relative_before(reference), relative_after(judged);
  const std::string place(where);
  for (const auto& name : tests) {
    const model::TestDefinition* before = find_definition(reference.definitions, name);
    const model::TestDefinition* after = find_definition(judged.definitions, name);
    if (!before || !after) continue;
    const auto defined = definition_differences(*before, relative_before, *after, relative_after);
    if (!defined.empty()) found.push_back({name, TamperKind::definition_changed, joined(place, defined)});
    if (!reference.targets || !reference.targets->problem.empty()) continue;  // nothing to compare with
    const auto programs = programs_of(*reference.targets, *before);
    if (programs.empty()) continue;
    std::vector<std::string> built;
    if (!judged.targets || !judged.targets->problem.empty()) {
      built.push_back("how its program is built is not known (" +
                      (judged.targets ? judged.targets->problem : std::string("no build targets recorded")) + ")");
    } else {
      for (const model::BuildTarget* program : programs)
        if (const model::BuildTarget* other = judged.targets->find(program->name))
          compare_target(*program, relative_before, *other, relative_after, *judged.targets, built);
    }
    if (!built.empty()) found.push_back({name, TamperKind::build_changed, joined(place, built)});
  }
  return found;
}

std::vector<TamperedTest> find_recipe_changes(const model::Run& baseline, const model::Run& candidate) {
  const auto tree = [](const std::vector<model::TestDefinition>& definitions,
                       const std::optional<model::BuildTargets>& targets, const std::string& source,
                       const std::string& build) {
    TreeTests tests;
    tests.definitions = &definitions;
    tests.targets = targets ? &*targets : nullptr;
    tests.source_root = source;
    tests.build_root = build;
    return tests;
  };
  const auto known = [](const TreeTests& tests) {
    return tests.definitions && !tests.definitions->empty() && !tests.build_root.empty();
  };
  std::vector<TamperedTest> found;
  // The baseline's tests as every candidate is judged against them.
  const model::HeldOut& base = baseline.held_out;
  const TreeTests reference =
      base.mode == "built" && base.private_test_patch && !base.definitions.empty()
          ? tree(base.definitions, base.targets, base.roots.first, base.roots.second)
          : tree(baseline.test_definitions, baseline.build_targets, baseline.source_root, baseline.build_root);
  const model::HeldOut& held = candidate.held_out;
  std::optional<TreeTests> judged;
  std::string where;
  if (held.mode == "built") {
    judged = tree(held.definitions, held.targets, held.roots.first, held.roots.second);
    where = "held-out run";
  } else if (held.mode == "candidate" || held.mode == "none") {
    judged = tree(candidate.test_definitions, candidate.build_targets, candidate.source_root, candidate.build_root);
    where = "the candidate's run (its held-out run)";
  }
  std::vector<std::string> reference_names;
  if (reference.definitions)
    for (const auto& definition : *reference.definitions) reference_names.push_back(definition.name);
  if (judged && known(reference) && known(*judged)) {
    auto changes = compare_test_recipes(reference, *judged, reference_names, where);
    found.insert(found.end(), changes.begin(), changes.end());
  }
  // New tests: built and run on the baseline's code as in the candidate's tree.
  if (held.new_tests_mode == "built") {
    const TreeTests own =
        tree(candidate.test_definitions, candidate.build_targets, candidate.source_root, candidate.build_root);
    const TreeTests on_baseline = tree(held.on_baseline_definitions, held.on_baseline_targets,
                                       held.on_baseline_roots.first, held.on_baseline_roots.second);
    std::set<std::string> existing(reference_names.begin(), reference_names.end());
    for (const auto& definition : baseline.test_definitions) existing.insert(definition.name);
    std::vector<std::string> fresh;
    for (const auto& definition : candidate.test_definitions)
      if (!existing.count(definition.name)) fresh.push_back(definition.name);
    if (known(own) && known(on_baseline)) {
      auto changes = compare_test_recipes(own, on_baseline, fresh, "on-baseline run");
      found.insert(found.end(), changes.begin(), changes.end());
    }
  }
  return found;
}

}  // namespace hydra::guard
