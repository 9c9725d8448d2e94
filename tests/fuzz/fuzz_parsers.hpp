// The parsers as the fuzz targets and the corpus replay test drive them: one
// function per parser, taking any bytes. Bad input may only end in
// hydra::InputError (the tool's exit 2); any other exception escapes (for
// libFuzzer, a crash; for the replay test, a failure), as would "internal
// error". What a parser returns must also be writable as JSON (valid UTF-8)
// and must not depend on how a log is split across threads.
#pragma once

#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include <hydra/compare/task_set.hpp>
#include <hydra/config/config.hpp>
#include <hydra/error.hpp>
#include <hydra/parse/ctest_json.hpp>
#include <hydra/parse/diff.hpp>
#include <hydra/parse/diff_lines.hpp>
#include <hydra/parse/junit.hpp>
#include <hydra/parse/libtest.hpp>
#include <hydra/parse/lint_formats.hpp>
#include <hydra/parse/lint_log.hpp>
#include <hydra/parse/metrics.hpp>

namespace hydra::fuzz {

/// Aborts unless `text` can be written as JSON (nlohmann throws on invalid UTF-8).
inline void require_json_text(const std::string& text) { static_cast<void>(nlohmann::json(text).dump()); }

inline void junit(std::string_view input) {
  for (const model::TestCase& test : parse::parse_junit(input, "fuzz.xml")) {
    require_json_text(test.suite);
    require_json_text(test.name);
    require_json_text(test.message);
  }
}

inline void ctest_json(std::string_view input) { parse::parse_ctest_json(input, "fuzz.json"); }

/// Parses `input` serially and split across two threads (every part at
/// least one byte): the results must be the same.
template <class Parse>
void lint(std::string_view input, Parse parse) {
  const std::vector<model::LintFinding> serial = parse(input, "fuzz.log", parse::LintParseOptions{1, 0});
  const std::vector<model::LintFinding> split = parse(input, "fuzz.log", parse::LintParseOptions{2, 1});
  if (serial.size() != split.size()) std::abort();
  for (std::size_t index = 0; index < serial.size(); ++index) {
    if (serial[index].fingerprint_bytes() != split[index].fingerprint_bytes() ||
        serial[index].line() != split[index].line() || serial[index].column() != split[index].column())
      std::abort();
    require_json_text(std::string(serial[index].file()));
    require_json_text(std::string(serial[index].message()));
  }
}

inline void clang_tidy_log(std::string_view input) {
  lint(input, [](std::string_view log, const std::string& name, const parse::LintParseOptions& options) {
    return parse::parse_clang_tidy(log, name, options);
  });
}

inline void compiler_warnings(std::string_view input) {
  lint(input, [](std::string_view log, const std::string& name, const parse::LintParseOptions& options) {
    return parse::parse_compiler_warnings(log, name, options);
  });
}

inline void libtest(std::string_view input) {
  const parse::LibtestResult result = parse::parse_libtest(input, "fuzz.log");
  for (const model::TestCase& test : result.tests) {
    require_json_text(test.suite);
    require_json_text(test.name);
    require_json_text(test.selector);
    require_json_text(test.message);
  }
  for (const std::string& problem : result.problems) require_json_text(problem);
}

/// Aborts unless every text part of every finding can be written as JSON.
inline void require_json_findings(const std::vector<model::LintFinding>& findings) {
  for (const model::LintFinding& finding : findings) require_json_text(std::string(finding.fingerprint_bytes()));
}

inline void cargo_diagnostics(std::string_view input) {
  require_json_findings(parse::parse_cargo_diagnostics(input, "fuzz.json"));
}

inline void eslint_json(std::string_view input) { require_json_findings(parse::parse_eslint_json(input, "fuzz.json")); }

inline void flake8(std::string_view input) { require_json_findings(parse::parse_flake8(input, "fuzz.log")); }

inline void diff(std::string_view input) {
  const parse::DiffLines lines = parse::parse_diff_lines(input, "fuzz.diff");
  for (const parse::FileLines& file : lines.files) {
    require_json_text(file.path);
    require_json_text(file.old_path);
    for (const auto& line : file.added) require_json_text(line.text);
    for (const auto& line : file.removed) require_json_text(line.text);
  }
  parse::parse_unified_diff(input, "fuzz.diff");
}

inline void metrics(std::string_view input) { parse::parse_metrics(input, "fuzz.json"); }

inline void task_set(std::string_view input) { compare::parse_task_file(input, "fuzz.json"); }

inline void hydra_toml(std::string_view input) { config::parse(input, "hydra.toml"); }

/// Runs `parse` on `input`; an InputError is the expected outcome of bad input.
template <class Parse>
void run(Parse parse, std::string_view input) {
  try {
    parse(input);
  } catch (const InputError&) {
  }
}

struct Target {
  const char* name;
  void (*parse)(std::string_view);
};

/// Every fuzz target, by the name of its corpus directories
/// (tests/fuzz/seeds/<name>/, tests/fuzz/crashes/<name>/).
inline const std::vector<Target>& targets() {
  static const std::vector<Target> all = {
      {"junit", junit},   {"ctest_json", ctest_json}, {"clang_tidy_log", clang_tidy_log},
      {"compiler_warnings", compiler_warnings}, {"diff", diff}, {"metrics", metrics},
      {"task_set", task_set}, {"hydra_toml", hydra_toml}, {"libtest", libtest},
      {"cargo_diagnostics", cargo_diagnostics}, {"eslint_json", eslint_json}, {"flake8", flake8},
  };
  return all;
}

}  // namespace hydra::fuzz
