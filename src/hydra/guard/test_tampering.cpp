// The detectors that compare the baseline's and the candidate's tests: their
// definitions (ctest --show-only=json-v1) and their results.
#include <hydra/guard/guard.hpp>
#include <hydra/util/path_pattern.hpp>
#include <hydra/util/text.hpp>

#include <algorithm>
#include <map>
#include <set>
#include <unordered_map>

namespace hydra::guard {
using util::path_components;
namespace {


/// `path` without its last `drop` components ("/a/b/c", 1 -> "/a/b").
std::string leading_part(std::string_view path, std::size_t keep) {
  std::string out = !path.empty() && path.front() == '/' ? "/" : "";
  const auto parts = path_components(path);
  for (std::size_t i = 0; i < keep && i < parts.size(); ++i) {
    if (i > 0) out += '/';
    out += parts[i];
  }
  return out;
}

std::string_view file_name(std::string_view path) {
  const auto slash = path.find_last_of("/\\");
  return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

/// The program's name: its file name without ".exe".
std::string program_name(std::string_view argument) {
  std::string name(file_name(argument));
  if (name.size() > 4 && name.compare(name.size() - 4, 4, ".exe") == 0) name.resize(name.size() - 4);
  return name;
}

/// Replaces each occurrence of `root` in `text` that ends at a path boundary
/// by `marker`.
void replace_root(std::string& text, std::string_view root, std::string_view marker) {
  if (root.size() < 2) return;  // "" or "/": nothing meaningful to replace
  std::size_t position = text.find(root);
  while (position != std::string::npos) {
    const std::size_t end = position + root.size();
    if (end == text.size() || text[end] == '/' || text[end] == '\\') {
      text.replace(position, root.size(), marker);
      position = text.find(root, position + marker.size());
    } else {
      position = text.find(root, end);
    }
  }
}


/// A shell script (of `sh -c`) that cannot fail: statements separated by
/// ";", "&&" or newlines, each `true`, `:`, `exit`, `exit 0` or `echo ...`
/// without pipes or substitutions.
bool is_trivial_script(std::string_view script) {
  if (script.find_first_of("|`") != std::string_view::npos ||
      script.find("$(") != std::string_view::npos)
    return false;
  std::string text(script);
  for (std::size_t at = text.find("&&"); at != std::string::npos; at = text.find("&&"))
    text.replace(at, 2, ";");
  std::replace(text.begin(), text.end(), '\n', ';');
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t end = std::min(text.find(';', start), text.size());
    const std::string statement(util::trim(std::string_view(text).substr(start, end - start)));
    const bool trivial = statement.empty() || statement == "true" || statement == ":" ||
                         statement == "exit" || statement == "exit 0" || statement == "echo" ||
                         statement.rfind("echo ", 0) == 0;
    if (!trivial) return false;
    start = end + 1;
  }
  return true;
}

std::string join_command(const std::vector<std::string>& argv) {
  std::string out;
  for (const std::string& argument : argv) {
    if (!out.empty()) out += ' ';
    out += argument.find(' ') == std::string::npos && !argument.empty() ? argument
                                                                         : "\"" + argument + "\"";
  }
  return out;
}

std::string join_list(const std::vector<std::string>& values) {
  std::string out = "[";
  for (std::size_t i = 0; i < values.size(); ++i) out += (i ? ", \"" : "\"") + values[i] + "\"";
  return out + "]";
}

std::string yes_no(bool value) { return value ? "true" : "false"; }

bool skipped(model::TestStatus status) {
  return status == model::TestStatus::skipped || status == model::TestStatus::disabled;
}

/// How tampered tests are named from results: the CTest name for CTest's
/// own results (as in the definitions), `suite::name` otherwise.
std::string result_name(const model::TestCase& test) {
  return test.suite == "ctest" ? test.name : test.id();
}

}  // namespace

std::pair<std::string, std::string> infer_build_roots(
    const std::vector<model::TestDefinition>& baseline_definitions,
    const std::vector<model::TestDefinition>& candidate_definitions) {
  std::unordered_map<std::string_view, const model::TestDefinition*> candidate_by_name;
  for (const auto& definition : candidate_definitions)
    candidate_by_name.emplace(definition.name, &definition);
  std::map<std::pair<std::string, std::string>, std::size_t> votes;
  for (const auto& baseline : baseline_definitions) {
    const auto found = candidate_by_name.find(baseline.name);
    if (found == candidate_by_name.end()) continue;
    const std::string& before = baseline.working_directory;
    const std::string& after = found->second->working_directory;
    if (before.empty() || after.empty() || before == after) continue;
    const auto before_parts = path_components(before);
    const auto after_parts = path_components(after);
    std::size_t common = 0;
    while (common < before_parts.size() && common < after_parts.size() &&
           before_parts[before_parts.size() - 1 - common] ==
               after_parts[after_parts.size() - 1 - common])
      ++common;
    if (common == before_parts.size() || common == after_parts.size()) continue;
    ++votes[{leading_part(before, before_parts.size() - common),
             leading_part(after, after_parts.size() - common)}];
  }
  std::pair<std::string, std::string> best;
  std::size_t best_votes = 0;
  for (const auto& [roots, count] : votes) {  // map order: ties go to the smaller pair
    if (count > best_votes) {
      best = roots;
      best_votes = count;
    }
  }
  return best;
}

std::vector<std::string> launcher_as_hydra_score(std::vector<std::string> command) {
  if (command.size() >= 2 && command[1] == "test-launcher" && file_name(command[0]) == "hydra-score-step")
    command[0].replace(command[0].size() - std::string_view("hydra-score-step").size(), std::string::npos,
                       "hydra-score");
  return command;
}

std::vector<std::string> normalize_command(const std::vector<std::string>& given,
                                           std::string_view build_root,
                                           std::string_view source_root) {
  std::vector<std::string> normalized;
  if (given.empty()) return normalized;
  const std::vector<std::string> command = launcher_as_hydra_score(given);
  normalized.push_back(program_name(command.front()));
  // The longer root first: a build tree often lies inside the source tree.
  const bool build_first = build_root.size() >= source_root.size();
  for (std::size_t i = 1; i < command.size(); ++i) {
    std::string argument = command[i];
    if (build_first) {
      replace_root(argument, build_root, "<build>");
      replace_root(argument, source_root, "<source>");
    } else {
      replace_root(argument, source_root, "<source>");
      replace_root(argument, build_root, "<build>");
    }
    normalized.push_back(std::move(argument));
  }
  return normalized;
}

bool is_trivial_command(const std::vector<std::string>& command) {
  std::size_t i = 0;
  const auto program = [&]() { return program_name(command[i]); };
  while (i < command.size() && program() == "env") {  // env [-i] [NAME=VALUE...] program...
    ++i;
    while (i < command.size() &&
           (command[i].find('=') != std::string::npos || command[i].rfind('-', 0) == 0))
      ++i;
  }
  if (i >= command.size()) return i > 0;  // `env` alone prints the environment
  const std::string name = program();
  if (name == "true" || name == ":" || name == "echo") return true;
  if (name == "cmake") {
    if (i + 1 < command.size() && command[i + 1] == "--version") return true;
    if (i + 2 < command.size() && command[i + 1] == "-E") {
      const std::string& tool = command[i + 2];
      if (tool == "true" || tool == "echo" || tool == "echo_append" || tool == "sleep" ||
          tool == "capabilities")
        return true;
      if (tool == "env") {  // cmake -E env [NAME=VALUE...] program...
        std::vector<std::string> rest = {"env"};
        rest.insert(rest.end(), command.begin() + static_cast<std::ptrdiff_t>(i + 3), command.end());
        return is_trivial_command(rest);
      }
    }
    return false;
  }
  if (name == "sh" || name == "bash" || name == "dash" || name == "zsh" || name == "ksh") {
    for (std::size_t j = i + 1; j + 1 < command.size(); ++j)
      if (command[j] == "-c") return is_trivial_script(command[j + 1]);
  }
  return false;
}

std::vector<TamperedTest> find_tampered_tests(
    const std::vector<model::TestDefinition>& baseline_definitions,
    const std::vector<model::TestDefinition>& candidate_definitions,
    const std::vector<model::TestCase>* baseline_tests,
    const std::vector<model::TestCase>* candidate_tests, const TreeRoots& roots) {
  std::vector<TamperedTest> found;
  std::set<std::string> dropped;
  const auto add = [&](const std::string& name, TamperKind kind, std::string detail) {
    found.push_back(TamperedTest{name, kind, std::move(detail)});
  };

  std::string baseline_build = roots.baseline_build;
  std::string candidate_build = roots.candidate_build;
  if (baseline_build.empty() || candidate_build.empty()) {
    const auto inferred = infer_build_roots(baseline_definitions, candidate_definitions);
    if (baseline_build.empty()) baseline_build = inferred.first;
    if (candidate_build.empty()) candidate_build = inferred.second;
  }

  std::unordered_map<std::string_view, const model::TestDefinition*> candidate_by_name;
  for (const auto& definition : candidate_definitions)
    candidate_by_name.emplace(definition.name, &definition);

  for (const model::TestDefinition& before : baseline_definitions) {
    const auto found_after = candidate_by_name.find(before.name);
    if (found_after == candidate_by_name.end()) {
      dropped.insert(before.name);
      add(before.name, TamperKind::dropped, "defined in the baseline, not in the candidate (removed or renamed)");
      continue;
    }
    const model::TestDefinition& after = *found_after->second;

    if (!before.disabled && after.disabled) add(before.name, TamperKind::disabled, "DISABLED set");
    if (before.will_fail != after.will_fail)
      add(before.name, TamperKind::will_fail_flipped,
          "WILL_FAIL " + yes_no(before.will_fail) + " -> " + yes_no(after.will_fail));

    std::vector<std::string> skip_changes;
    if (after.skip_return_code && after.skip_return_code != before.skip_return_code)
      skip_changes.push_back(
          "SKIP_RETURN_CODE " +
          (before.skip_return_code ? std::to_string(*before.skip_return_code) : std::string("unset")) +
          " -> " + std::to_string(*after.skip_return_code));
    for (const std::string& expression : after.skip_regular_expression)
      if (std::find(before.skip_regular_expression.begin(), before.skip_regular_expression.end(),
                    expression) == before.skip_regular_expression.end())
        skip_changes.push_back("SKIP_REGULAR_EXPRESSION \"" + expression + "\" added");
    if (!skip_changes.empty()) {
      std::string detail;
      for (const std::string& change : skip_changes) detail += (detail.empty() ? "" : "; ") + change;
      add(before.name, TamperKind::skip_rule_added, detail);
    }

    std::vector<std::string> regex_changes;
    if (before.pass_regular_expression != after.pass_regular_expression)
      regex_changes.push_back("PASS_REGULAR_EXPRESSION " + join_list(before.pass_regular_expression) +
                              " -> " + join_list(after.pass_regular_expression));
    for (const std::string& expression : before.fail_regular_expression)
      if (std::find(after.fail_regular_expression.begin(), after.fail_regular_expression.end(),
                    expression) == after.fail_regular_expression.end())
        regex_changes.push_back("FAIL_REGULAR_EXPRESSION \"" + expression + "\" removed");
    if (!regex_changes.empty()) {
      std::string detail;
      for (const std::string& change : regex_changes) detail += (detail.empty() ? "" : "; ") + change;
      add(before.name, TamperKind::pass_regex_changed, detail);
    }

    const bool trivial_now = is_trivial_command(after.command) && !is_trivial_command(before.command);
    const auto before_command = normalize_command(before.command, baseline_build, roots.baseline_source);
    const auto after_command = normalize_command(after.command, candidate_build, roots.candidate_source);
    const std::string was = before.command.empty() ? std::string("its executable not found")
                                                   : "`" + join_command(before_command) + "`";
    if (trivial_now) {
      add(before.name, TamperKind::command_trivial,
          "runs `" + join_command(after_command) + "`, which cannot fail (was " + was + ")");
    } else if (!before.command.empty() && !after.command.empty() && before_command != after_command) {
      add(before.name, TamperKind::command_changed,
          "`" + join_command(before_command) + "` -> `" + join_command(after_command) + "`");
    }
  }

  if (baseline_tests != nullptr && candidate_tests != nullptr) {
    std::unordered_map<std::string, const model::TestCase*> candidate_by_id;
    for (const auto& test : *candidate_tests) candidate_by_id.emplace(test.id(), &test);
    for (const model::TestCase& before : *baseline_tests) {
      const std::string name = result_name(before);
      const auto found_after = candidate_by_id.find(before.id());
      if (found_after == candidate_by_id.end()) {
        if (dropped.insert(name).second)
          add(name, TamperKind::dropped, "in the baseline's results, not in the candidate's");
        continue;
      }
      const model::TestCase& after = *found_after->second;
      if (!skipped(before.status) && skipped(after.status)) {
        std::string detail = std::string(model::to_string(before.status)) + " -> " +
                             std::string(model::to_string(after.status));
        if (!after.message.empty()) detail += " (" + after.message + ")";
        add(name, TamperKind::newly_skipped, detail);
      }
    }
  }
  return found;
}

}  // namespace hydra::guard
