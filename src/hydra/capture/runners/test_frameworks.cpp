// Framework recognition, report options and the test-program plan
// (test_frameworks.hpp).
#include <hydra/capture/runners/test_frameworks.hpp>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <set>

#include <hydra/util/xxh64.hpp>
#include <hydra/util/text.hpp>

namespace hydra::capture {
namespace fs = std::filesystem;
using nlohmann::json;
using parse::JunitDialect;

namespace {

/// Byte strings only a framework's test runner holds. Kept reversed here, so
/// that a program that contains this recogniser (HydraScore's own tests) is
/// not taken for every framework at once.
struct Signature {
  JunitDialect framework;
  const char* reversed;
};
constexpr Signature kSignatures[] = {
    // GoogleTest: its --help text (static library), UnitTest::Run (imported
    // from a shared libgtest, or in the symbol table).
    {JunitDialect::googletest, "=tuptuo_tsetg--G@"},
    {JunitDialect::googletest, "vEnuR3tseTtinU8gnitset7NZ_"},
    // Catch2 (v2 and v3): its JUnit reporter's type name and description,
    // Session::run (imported from a shared libCatch2, v3).
    {JunitDialect::catch2, "EretropeRtinuJ31hctaC5N"},
    {JunitDialect::catch2, "tegrat tropertinuj s'tnA ekil skool taht tamrof LMX na ni stluser tset stropeR"},
    {JunitDialect::catch2, "vEnur3noisseS7hctaC5NZ_"},
    // doctest: its JUnit reporter's type name, Context::run (a shared
    // implementation, DOCTEST_CONFIG_IMPLEMENTATION_IN_DLL).
    {JunitDialect::doctest, "EretropeRtinUJ311_N__LABOLG_21tsetcod7N"},
    {JunitDialect::doctest, "vEnur3txetnoC7tsetcod7NZ_"},
};

std::string forward(const char* reversed) {
  std::string text(reversed);
  std::reverse(text.begin(), text.end());
  return text;
}

using util::starts_with;

/// Whether one of `arguments` is exactly one of `exact` or starts with one of `prefixes`.
bool any_argument(const std::vector<std::string>& arguments, std::initializer_list<const char*> exact,
                  std::initializer_list<const char*> prefixes) {
  for (const auto& argument : arguments) {
    for (const char* word : exact)
      if (argument == word) return true;
    for (const char* prefix : prefixes)
      if (starts_with(argument, prefix)) return true;
  }
  return false;
}

/// The test's command split at the launcher: the program and its arguments
/// after the separator word; empty when `command` does not run through `launcher`.
std::vector<std::string> launched_program(const std::vector<std::string>& command,
                                          const std::vector<std::string>& launcher) {
  if (launcher.size() < 2 || command.size() < 3) return {};
  if (fs::path(command[0]).filename() != fs::path(launcher[0]).filename() || command[1] != launcher[1]) return {};
  const auto separator = std::find(command.begin() + 2, command.end(), kLauncherSeparator);
  if (separator == command.end() || separator + 1 == command.end()) return {};
  return {separator + 1, command.end()};
}

}  // namespace

std::optional<JunitDialect> recognise_framework(const fs::path& program, std::string* why_not) {
  std::ifstream file(program, std::ios::binary);
  if (!file) {
    if (why_not) *why_not = "cannot read " + program.string();
    return std::nullopt;
  }
  std::vector<std::string> signatures;
  std::size_t longest = 0;
  for (const auto& signature : kSignatures) {
    signatures.push_back(forward(signature.reversed));
    longest = std::max(longest, signatures.back().size());
  }
  std::set<JunitDialect> found;
  // Chunks that overlap by the longest signature less one byte, so a
  // signature across a chunk boundary is still seen whole.
  constexpr std::size_t chunk = std::size_t(1) << 20;
  std::string buffer;
  std::vector<char> block(chunk);
  while (file) {
    file.read(block.data(), static_cast<std::streamsize>(block.size()));
    const auto got = static_cast<std::size_t>(file.gcount());
    if (got == 0) break;
    buffer.append(block.data(), got);
    for (std::size_t index = 0; index < signatures.size(); ++index) {
      const std::string& signature = signatures[index];
      if (::memmem(buffer.data(), buffer.size(), signature.data(), signature.size()) != nullptr)
        found.insert(kSignatures[index].framework);
    }
    if (buffer.size() > longest) buffer.erase(0, buffer.size() - (longest - 1));
  }
  if (found.size() == 1) return *found.begin();
  if (why_not) {
    if (found.empty()) {
      *why_not = "no known test framework";
    } else {
      *why_not = "signatures of several frameworks:";
      for (const auto framework : found) *why_not += " " + std::string(parse::to_string(framework));
    }
  }
  return std::nullopt;
}

std::string launch_key(const std::vector<std::string>& program_and_arguments) {
  std::string joined;
  for (const auto& word : program_and_arguments) {
    joined += word;
    joined += '\0';
  }
  return util::hex64(util::xxh64(joined));
}

std::optional<ReportOptions> report_options(JunitDialect framework, const std::vector<std::string>& arguments,
                                            const fs::path& report) {
  ReportOptions options;
  switch (framework) {
    case JunitDialect::googletest:
      if (any_argument(arguments, {"--help", "-h", "-?", "/?"}, {"--gtest_output", "--gtest_list_tests", "--help"}))
        return std::nullopt;
      options.environment["GTEST_OUTPUT"] = "xml:" + report.string();
      return options;
    case JunitDialect::catch2:
      // Catch2 v2 and v3 alike: -r/--reporter and -o/--out.
      if (any_argument(arguments, {"-r", "-o", "-l", "-h", "-?", "--help"},
                       {"--reporter", "--out", "--list", "-r=", "-o="}))
        return std::nullopt;
      options.arguments = {"--reporter", "junit", "--out", report.string()};
      return options;
    case JunitDialect::doctest:
      if (any_argument(arguments, {"-h", "-?", "--help"},
                       {"--reporters", "-r=", "--out", "-o=", "--dt-reporters", "--dt-r=", "--dt-out", "--dt-o=",
                        "--list", "--dt-list", "-ltc", "-lts", "-lr", "--dt-ltc", "--dt-lts", "--dt-lr"}))
        return std::nullopt;
      options.arguments = {"--reporters=junit", "--out=" + report.string()};
      return options;
    case JunitDialect::generic:
      break;
  }
  return std::nullopt;
}

json plan_test_programs(const std::vector<model::TestDefinition>& definitions,
                        const std::vector<std::string>& launcher) {
  json programs = json::array();
  json program_level = json::array();
  std::map<fs::path, std::pair<std::optional<JunitDialect>, std::string>> recognised;  // per program file
  const auto framework_of = [&](const fs::path& program) -> const std::pair<std::optional<JunitDialect>, std::string>& {
    auto found = recognised.find(program);
    if (found == recognised.end()) {
      std::string why_not;
      auto framework = recognise_framework(program, &why_not);
      found = recognised.emplace(program, std::make_pair(framework, why_not)).first;
    }
    return found->second;
  };
  std::map<std::string, std::vector<std::string>> tests_by_key;
  struct Planned {
    const model::TestDefinition* definition;
    JunitDialect framework;
    std::string key;
    std::string program;
  };
  std::vector<Planned> planned;
  for (const auto& definition : definitions) {
    const std::vector<std::string> launched = launched_program(definition.command, launcher);
    if (launched.empty()) {
      // Not through the launcher (a command naming a file, a script, a
      // project that sets its own launcher): said when it is a framework's program.
      std::error_code error;
      if (!definition.command.empty() && fs::path(definition.command[0]).is_absolute() &&
          fs::is_regular_file(definition.command[0], error))
        if (const auto framework = framework_of(definition.command[0]).first)
          program_level.push_back({{"test", definition.name},
                                   {"framework", parse::to_string(*framework)},
                                   {"reason", "its command does not run through HydraScore's test launcher"}});
      continue;
    }
    const auto& [framework, why_not] = framework_of(launched[0]);
    if (!framework) continue;  // not a known framework's program
    const std::string name(parse::to_string(*framework));
    const std::vector<std::string> arguments(launched.begin() + 1, launched.end());
    if (definition.will_fail) {
      program_level.push_back({{"test", definition.name}, {"framework", name},
                               {"reason", "WILL_FAIL: its cases are expected to fail"}});
      continue;
    }
    if (!report_options(*framework, arguments, "report.xml")) {
      program_level.push_back({{"test", definition.name}, {"framework", name},
                               {"reason", "its command chooses its own reporter, output or listing"}});
      continue;
    }
    const std::string key = launch_key(launched);
    tests_by_key[key].push_back(definition.name);
    planned.push_back({&definition, *framework, key, launched[0]});
  }
  for (const auto& entry : planned) {
    if (const auto& sharing = tests_by_key[entry.key]; sharing.size() > 1) {
      std::string others;
      for (const auto& name : sharing)
        if (name != entry.definition->name) others += (others.empty() ? "" : ", ") + name;
      // Their reports could not be told apart.
      program_level.push_back({{"test", entry.definition->name}, {"framework", parse::to_string(entry.framework)},
                               {"reason", "another test runs the same command (" + others + ")"}});
      continue;
    }
    programs.push_back({{"test", entry.definition->name},
                        {"framework", parse::to_string(entry.framework)},
                        {"key", entry.key},
                        {"program", entry.program}});
  }
  return {{"launcher", launcher}, {"programs", std::move(programs)}, {"program_level", std::move(program_level)}};
}

}  // namespace hydra::capture
