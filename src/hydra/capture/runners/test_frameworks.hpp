// Test programs of known frameworks (GoogleTest, Catch2, doctest) and how
// they are made to write their own report (docs/formulas.md, "Test cases";
// docs/run-directory.md, "Framework reports"):
//
//  - the capture's configure makes ctest run every test whose program
//    exists as `<hydra-score> test-launcher -- PROGRAM [ARGUMENTS...]`
//    without any edit of the project's test commands (test_launch_hook.hpp);
//  - before ctest runs, the capture recognises each such program's framework
//    from the program file itself (framework signatures: its runner's option
//    text, its reporter's type name, the symbols it imports; header-only and
//    bundled frameworks and shared libraries alike) and writes the plan
//    (test-programs.json) the launcher reads: which launch (its command's
//    key) gets which framework's report options;
//  - the launcher adds them (GTEST_OUTPUT=xml:FILE; Catch2's `--reporter
//    junit --out FILE`; doctest's `--reporters=junit --out=FILE`) with FILE in
//    the report folder HydraScore chose for that ctest run, then runs the
//    program.
#pragma once

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <hydra/model/test.hpp>
#include <hydra/parse/junit_dialect.hpp>

namespace hydra::capture {

/// The environment variables the launcher reads: the plan file and the
/// folder the reports of one ctest run go to. Without both it adds nothing.
inline constexpr const char* kTestProgramsVariable = "HYDRA_SCORE_TEST_PROGRAMS";
inline constexpr const char* kTestReportsVariable = "HYDRA_SCORE_TEST_REPORTS";
/// The launcher's subcommand word and the word that ends its own arguments.
inline constexpr const char* kLauncherSubcommand = "test-launcher";
inline constexpr const char* kLauncherSeparator = "--";

/// The framework whose signatures the program file `program` holds; nullopt
/// when none or several do (`why_not` then says which, when given), or when
/// the file cannot be read.
std::optional<parse::JunitDialect> recognise_framework(const std::filesystem::path& program,
                                                       std::string* why_not = nullptr);

/// The key of one launch: XXH64 of the program and its arguments (each
/// ended by a NUL byte), as 16 hex digits. The report of the launch is
/// `<key>.xml` in the run's report folder.
std::string launch_key(const std::vector<std::string>& program_and_arguments);

/// What the launcher adds to a program's launch for its framework's report.
struct ReportOptions {
  std::vector<std::string> arguments;               ///< appended to the program's arguments
  std::map<std::string, std::string> environment;   ///< set for the program
};

/// The options that make a program of `framework` write its JUnit report to
/// `report`; nullopt when its `arguments` already choose a reporter or an
/// output of their own, or ask for a listing or help instead of a run (the
/// program then keeps its program-level result).
std::optional<ReportOptions> report_options(parse::JunitDialect framework, const std::vector<std::string>& arguments,
                                            const std::filesystem::path& report);

/// The plan of one tree's test programs (test-programs.json): for each ctest
/// test (`definitions`) whose command runs through `launcher`, its program's
/// framework (recognise_framework) and launch key. A test stays at program
/// level, with the reason recorded under "program_level", when its program
/// is a framework's but it is not launched through the launcher, its
/// command chooses its own reporter, it is WILL_FAIL (its cases are
/// expected to fail) or another test launches the same command.
nlohmann::json plan_test_programs(const std::vector<model::TestDefinition>& definitions,
                                  const std::vector<std::string>& launcher);

}  // namespace hydra::capture
