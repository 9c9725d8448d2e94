// How each test runner reruns its failing tests (rerun_commands.hpp).
#include <hydra/capture/runners/rerun_commands.hpp>
#include <hydra/capture/runners/runner_helpers.hpp>

#include <cctype>
#include <string_view>

#include <hydra/util/text.hpp>

namespace hydra::capture {
namespace fs = std::filesystem;

namespace {

/// What test_command appends to a pytest command (docs/config.md).
constexpr std::string_view kNoPytestCache = " -p no:cacheprovider";

/// Whether `shell` runs pytest: `pytest`, `py.test` or `python -m pytest`.
bool runs_pytest(const std::string& shell) {
  const std::string program = fs::path(first_program(shell)).filename().string();
  if (program == "pytest" || program == "py.test") return true;
  if (!util::starts_with(program, "python")) return false;
  const auto at = shell.find(program);
  const std::string rest = shell.substr(at + program.size());
  std::size_t start = rest.find_first_not_of(" \t");
  if (start == std::string::npos || rest.compare(start, 3, "-m ") != 0) return false;
  start = rest.find_first_not_of(" \t", start + 3);
  return start != std::string::npos && rest.compare(start, 6, "pytest") == 0 &&
         (start + 6 == rest.size() || rest[start + 6] == ' ' || rest[start + 6] == '\t');
}

/// `shell` with arguments for the test runner appended: after test_command's
/// own additions, which already put the runner's arguments last (behind an
/// npm `--` where there is one).
std::string appended(const std::string& shell, const std::string& arguments) { return shell + " " + arguments; }

}  // namespace

std::vector<std::string> ctest_selection(const std::vector<unsigned>& numbers) {
  if (numbers.empty()) return {};
  std::string list = "0,0,0";
  for (const unsigned number : numbers) list += "," + std::to_string(number);
  return {"-I", list};
}

std::map<std::string, CtestConsoleResult> ctest_console_results(const std::string& console) {
  std::map<std::string, CtestConsoleResult> results;
  for (const std::string_view line : util::split(console, '\n')) {
    // "  3/12 Test  #3: name ......   Passed    0.01 sec"
    std::size_t at = 0;
    while (at < line.size() && line[at] == ' ') ++at;
    const std::size_t count_start = at;
    while (at < line.size() && std::isdigit(static_cast<unsigned char>(line[at]))) ++at;
    if (at == count_start || at >= line.size() || line[at] != '/') continue;
    ++at;
    const std::size_t total_start = at;
    while (at < line.size() && std::isdigit(static_cast<unsigned char>(line[at]))) ++at;
    if (at == total_start || line.substr(at, 6) != " Test ") continue;
    at += 6;
    while (at < line.size() && line[at] == ' ') ++at;
    if (at >= line.size() || line[at] != '#') continue;
    ++at;
    const std::size_t number_start = at;
    unsigned number = 0;
    while (at < line.size() && std::isdigit(static_cast<unsigned char>(line[at])) && at - number_start < 9)
      number = number * 10 + static_cast<unsigned>(line[at++] - '0');
    if (at == number_start || line.substr(at, 2) != ": ") continue;
    const std::string_view rest = line.substr(at + 2);
    const auto name_end = std::min(rest.find(" ."), rest.find("***"));
    if (name_end == std::string_view::npos) continue;
    std::string_view name = rest.substr(0, name_end);
    while (!name.empty() && name.back() == ' ') name.remove_suffix(1);
    const std::string_view verdict = rest.substr(name_end);
    results[std::string(name)] = {number, verdict.find("***") == std::string_view::npos &&
                                              verdict.find(" Passed") != std::string_view::npos};
  }
  return results;
}

RerunKind rerun_kind(const ProfileContext& context, const StepCommand& first) {
  if (context.profile == "rust") return first.role == "libtest_log" ? RerunKind::exact_names : RerunKind::none;
  if (first.role != "junit") return RerunKind::none;
  if (context.profile == "python") return runs_pytest(first.shell) ? RerunKind::last_failed : RerunKind::none;
  if (context.profile != "js-node") return RerunKind::none;
  // test_command's own jest and node --test commands (a `{junit}` command
  // chose its runner's arguments itself).
  if (first.environment.count("JEST_JUNIT_OUTPUT_DIR")) return RerunKind::only_failures;
  if (first.shell.find("--test-reporter=junit") != std::string::npos ||
      first.shell.find(kNodeJunitReporter) != std::string::npos)
    return RerunKind::name_pattern;
  return RerunKind::none;
}

StepCommand prepare_first_attempt(const ProfileContext& context, StepCommand first, const fs::path& cache_directory) {
  switch (rerun_kind(context, first)) {
    case RerunKind::last_failed:
      if (util::ends_with(first.shell, kNoPytestCache))
        first.shell.resize(first.shell.size() - kNoPytestCache.size());
      first.shell = appended(first.shell, "-o " + shell_quote("cache_dir=" + (cache_directory / "pytest").string()));
      break;
    case RerunKind::only_failures:
      first.shell = appended(first.shell, "--cacheDirectory=" + shell_quote((cache_directory / "jest").string()));
      break;
    default:
      break;
  }
  return first;
}

std::optional<StepCommand> rerun_command(const ProfileContext& context, const std::string& command,
                                         const fs::path& results, const fs::path& cache_directory,
                                         const std::vector<std::string>& failing) {
  const StepCommand plain = test_command(context, command, results);
  const RerunKind kind = rerun_kind(context, plain);
  StepCommand step = prepare_first_attempt(context, plain, cache_directory);
  switch (kind) {
    case RerunKind::none:
      return std::nullopt;
    case RerunKind::last_failed:
      step.shell = appended(step.shell, "--last-failed --last-failed-no-failures none");
      return step;
    case RerunKind::only_failures:
      step.shell = appended(step.shell, "--onlyFailures");
      return step;
    case RerunKind::name_pattern: {
      if (failing.empty()) return std::nullopt;
      std::string pattern;
      for (const auto& name : failing) pattern += (pattern.empty() ? "" : "|") + regex_escape(name);
      step.shell = appended(step.shell, "--test-name-pattern=" + shell_quote("^(?:" + pattern + ")$"));
      return step;
    }
    case RerunKind::exact_names: {
      if (failing.empty()) return std::nullopt;
      // libtest's own arguments come after cargo's ` -- `.
      const bool separated = step.shell.find(" -- ") != std::string::npos || util::ends_with(step.shell, " --");
      std::string names;
      for (const auto& name : failing) names += " " + shell_quote(name);
      step.shell = appended(step.shell, std::string(separated ? "" : "-- ") + "--exact" + names);
      return step;
    }
  }
  return std::nullopt;
}

std::string regex_escape(const std::string& text) {
  // The characters special outside a character class (also with the `u` flag).
  static constexpr std::string_view special = "\\^$.|?*+()[]{}";
  std::string out;
  for (const char c : text) {
    if (special.find(c) != std::string_view::npos) out += '\\';
    out += c;
  }
  return out;
}

}  // namespace hydra::capture
