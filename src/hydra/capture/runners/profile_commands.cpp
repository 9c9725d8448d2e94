#include <hydra/capture/runners/profile_commands.hpp>
#include <hydra/capture/runners/runner_helpers.hpp>

#include <cctype>

#include <nlohmann/json.hpp>

#include <hydra/error.hpp>
#include <hydra/parse/json_error.hpp>

namespace hydra::capture {
namespace fs = std::filesystem;

namespace {

/// The words of a shell command split at blanks (quotes are not
/// interpreted: only the leading words are looked at).
std::vector<std::string> words(const std::string& shell) {
  std::vector<std::string> result;
  std::string word;
  for (const char c : shell) {
    if (c == ' ' || c == '\t' || c == '\n') {
      if (!word.empty()) result.push_back(std::move(word));
      word.clear();
    } else {
      word += c;
    }
  }
  if (!word.empty()) result.push_back(std::move(word));
  return result;
}

bool is_assignment(const std::string& word) {
  const auto equals = word.find('=');
  if (equals == std::string::npos || equals == 0) return false;
  for (std::size_t i = 0; i < equals; ++i)
    if (!(std::isalnum(static_cast<unsigned char>(word[i])) || word[i] == '_')) return false;
  return true;
}

/// The words after any leading assignments.
std::vector<std::string> command_words(const std::string& shell) {
  std::vector<std::string> all = words(shell);
  std::size_t first = 0;
  while (first < all.size() && is_assignment(all[first])) ++first;
  return {all.begin() + static_cast<std::ptrdiff_t>(first), all.end()};
}

/// The Python module a `python -m module` command runs, else the program.
std::string python_tool(const std::string& shell) {
  const std::vector<std::string> list = command_words(shell);
  if (list.size() >= 3 && list[0].rfind("python", 0) == 0 && list[1] == "-m") return list[2];
  return list.empty() ? std::string() : fs::path(list[0]).filename().string();
}

bool mentions(const std::string& text, const std::string& word) {
  for (std::size_t at = text.find(word); at != std::string::npos; at = text.find(word, at + 1)) {
    const bool starts = at == 0 || !(std::isalnum(static_cast<unsigned char>(text[at - 1])) || text[at - 1] == '-');
    const std::size_t end = at + word.size();
    const bool ends = end == text.size() || !(std::isalnum(static_cast<unsigned char>(text[end])) || text[end] == '-');
    if (starts && ends) return true;
  }
  return false;
}

/// The npm script a command runs (`npm test`, `npm run lint`, `npm run-script x`); empty for other commands.
std::string npm_script(const std::string& shell) {
  const std::vector<std::string> list = command_words(shell);
  if (list.size() < 2 || fs::path(list[0]).filename() != "npm") return {};
  std::size_t at = 1;
  while (at < list.size() && list[at].rfind("-", 0) == 0) ++at;  // npm's own options
  if (at >= list.size()) return {};
  const std::string& verb = list[at];
  if (verb == "test" || verb == "t" || verb == "tst") return "test";
  if ((verb == "run" || verb == "run-script" || verb == "rum" || verb == "urn") && at + 1 < list.size()) {
    std::size_t name = at + 1;
    while (name < list.size() && list[name].rfind("-", 0) == 0) ++name;
    return name < list.size() ? list[name] : std::string();
  }
  return {};
}

/// What actually runs: the npm script's text for `npm test` / `npm run x`, else the command itself.
std::string what_runs(const ProfileContext& context, const std::string& command) {
  const std::string script = npm_script(command);
  if (script.empty()) return command;
  const auto found = context.npm_scripts.find(script);
  return found == context.npm_scripts.end() ? command : found->second + " " + command;
}

/// Arguments for the program behind `npm test` / `npm run x`: after a `--`.
std::string npm_arguments(const std::string& command, const std::string& arguments) {
  if (npm_script(command).empty()) return command + " " + arguments;
  const bool has_separator = mentions(command, "--") || command.find(" -- ") != std::string::npos ||
                             (command.size() >= 3 && command.compare(command.size() - 3, 3, " --") == 0);
  return command + (has_separator ? " " : " -- ") + arguments;
}

std::string replace_all(std::string text, const std::string& what, const std::string& with) {
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + with.size()))
    text.replace(at, what.size(), with);
  return text;
}

}  // namespace

std::string first_program(const std::string& shell) {
  const std::vector<std::string> list = command_words(shell);
  return list.empty() ? std::string() : list.front();
}

std::string insert_option(const std::string& shell, const std::string& argument) {
  std::size_t separator = shell.find(" -- ");
  if (separator == std::string::npos && shell.size() >= 3 && shell.compare(shell.size() - 3, 3, " --") == 0)
    separator = shell.size() - 3;
  if (separator == std::string::npos) return shell + " " + argument;
  return shell.substr(0, separator) + " " + argument + shell.substr(separator);
}

std::string npm_script_name(const std::string& shell) { return npm_script(shell); }

std::string shell_quote(const std::string& text) { return "'" + replace_all(text, "'", "'\\''") + "'"; }

StepCommand build_command(const std::string& command) {
  StepCommand step;
  step.shell = command;
  step.program = first_program(command);
  return step;
}

StepCommand test_command(const ProfileContext& context, const std::string& command, const fs::path& junit) {
  StepCommand step;
  step.program = first_program(command);
  const std::string quoted = shell_quote(junit.string());
  if (context.profile == "rust") {
    // Every test binary runs even when one fails; libtest's console lines are the results.
    step.shell = command.find("--no-fail-fast") == std::string::npos ? insert_option(command, "--no-fail-fast")
                                                                       : command;
    step.source = ResultSource::combined;
    step.role = "libtest_log";
    const std::vector<std::string> list = command_words(command);
    if (list.size() >= 2 && fs::path(list[0]).filename() == "cargo") step.cargo_subcommand = list[1];
    // cargo's JSON messages name each test binary's package: two packages of
    // a workspace with the same test names stay apart (docs/parsers.md).
    if ((step.cargo_subcommand == "test" || step.cargo_subcommand == "t") &&
        command.find("--message-format") == std::string::npos)
      step.shell = insert_option(step.shell, "--message-format=json");
    return step;
  }
  step.source = ResultSource::file;
  step.result_file = junit;
  step.role = "junit";
  if (command.find("{junit}") != std::string::npos) {
    step.shell = replace_all(command, "{junit}", quoted);
    return step;
  }
  if (context.profile == "python") {
    // No .pytest_cache in the tree: the cache provider is off.
    step.shell = command + " --junitxml=" + quoted + " -p no:cacheprovider";
    return step;
  }
  // js-node: jest (with jest-junit) or node's own test runner.
  const std::string runs = what_runs(context, command);
  if (mentions(runs, "jest")) {
    if (context.jest_junit.empty())
      throw StepFailed("the js-node profile's test step runs jest, whose JUnit output needs jest-junit; install it "
                  "in the project (npm install --save-dev jest-junit) or globally (npm install -g jest-junit)");
    step.shell = npm_arguments(command, "--ci --reporters=default --reporters=" +
                                            shell_quote(context.jest_junit.string()));
    step.environment = {{"JEST_JUNIT_OUTPUT_DIR", junit.parent_path().string()},
                        {"JEST_JUNIT_OUTPUT_NAME", junit.filename().string()},
                        // A test's identity: its file, then its describe blocks
                        // (nested ones apart: " > " between them) and title.
                        {"JEST_JUNIT_CLASSNAME", "{filepath}"},
                        {"JEST_JUNIT_TITLE", "{classname} {title}"},
                        {"JEST_JUNIT_ANCESTOR_SEPARATOR", " > "}};
    if (!context.runner_helpers.empty()) {
      // todo tests marked as such (jest-junit writes them like passing ones).
      step.environment["JEST_JUNIT_TEST_CASE_PROPERTIES_DIR"] = context.runner_helpers.string();
      step.environment["JEST_JUNIT_TEST_CASE_PROPERTIES_JSON_FILE"] = kJestStatusModule;
    }
    return step;
  }
  if (runs.find("node --test") != std::string::npos || runs.find("node --experimental-test") != std::string::npos) {
    // node's JUnit reporter, through HydraScore's wrapper that names each test's file.
    const std::string reporter =
        context.runner_helpers.empty() ? "junit" : shell_quote((context.runner_helpers / kNodeJunitReporter).string());
    step.shell = npm_arguments(command, "--test-reporter=spec --test-reporter-destination=stdout --test-reporter=" +
                                            reporter + " --test-reporter-destination=" + quoted);
    return step;
  }
  throw UsageError("the js-node profile cannot tell how to get JUnit results from the test command \"" + command +
                  "\" (it reads jest through jest-junit and node --test); put {junit} where the command "
                  "should write a JUnit file, in hydra.toml's [scoring.profile] test");
}

StepCommand lint_command(const ProfileContext& context, const std::string& command, const fs::path& output) {
  StepCommand step;
  step.program = first_program(command);
  const std::string quoted = shell_quote(output.string());
  const bool placeholder = command.find("{output}") != std::string::npos;
  const std::string with_output = replace_all(command, "{output}", quoted);
  if (context.profile == "rust") {
    step.shell = command.find("--message-format") == std::string::npos
                     ? insert_option(with_output, "--message-format=json")
                     : with_output;
    step.source = placeholder ? ResultSource::file : ResultSource::stdout_;
    step.result_file = output;
    step.role = "clippy_json";
    const std::vector<std::string> list = command_words(command);
    if (list.size() >= 2 && fs::path(list[0]).filename() == "cargo") step.cargo_subcommand = list[1];
    return step;
  }
  if (context.profile == "python") {
    const std::string tool = python_tool(command);
    if (tool == "ruff") {
      step.shell = placeholder ? with_output : insert_option(command, "--output-format concise");
      step.role = "ruff_log";
    } else if (tool == "flake8") {
      step.shell = placeholder ? with_output : command + " --show-source";
      step.role = "flake8_log";
    } else {
      throw UsageError("the python profile reads lint findings from ruff and flake8, not from \"" + command +
                      "\" (hydra.toml's [scoring.profile] lint)");
    }
    step.source = placeholder ? ResultSource::file : ResultSource::stdout_;
    step.result_file = output;
    return step;
  }
  // js-node: ESLint, directly or through an npm script.
  if (!mentions(what_runs(context, command), "eslint"))
    throw UsageError("the js-node profile reads lint findings from ESLint, not from \"" + command +
                    "\" (hydra.toml's [scoring.profile] lint, or package.json's lint script)");
  step.shell = placeholder ? with_output : npm_arguments(command, "--format json --output-file " + quoted);
  step.source = ResultSource::file;
  step.result_file = output;
  step.role = "eslint_json";
  return step;
}

std::map<std::string, std::string> npm_scripts(const std::string& package_json, const std::string& source_name) {
  const nlohmann::json document = parse::parse_json_document(package_json, source_name);
  std::map<std::string, std::string> scripts;
  if (!document.is_object() || !document.contains("scripts")) return scripts;
  const nlohmann::json& list = document["scripts"];
  if (!list.is_object()) throw InputError(source_name, "\"scripts\" is not an object");
  for (const auto& [name, text] : list.items()) {
    if (!text.is_string()) throw InputError(source_name, "scripts." + name + " is not a string");
    scripts[name] = text.get<std::string>();
  }
  return scripts;
}

}  // namespace hydra::capture
