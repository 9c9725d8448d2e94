// Anti-gaming: finds what a candidate did to raise its own score rather than
// to do its task (edited the scoring or lint configuration, suppressed lint,
// switched tests off, removed assertions). Pure functions of data already
// captured: the change's diff and both trees' test definitions and results.
// The threat model, and what is and is not defended: docs/threat-model.md.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include <hydra/config/settings.hpp>
#include <hydra/model/test.hpp>
#include <hydra/parse/diff_lines.hpp>

namespace hydra::guard {

/// The [anti_gaming] settings (read by config::parse).
using Settings = config::AntiGaming;

/// A protected configuration file the change touches.
struct ConfigEdit {
  std::string path;
  std::string change;   ///< "modified", "created", "deleted" or "renamed from <old path>"
  std::string pattern;  ///< the protected_config_files entry it matched
};

/// One lint suppression the change adds.
struct Suppression {
  std::string path;
  std::uint64_t line = 0;  ///< in the new file
  std::string text;        ///< the added line, leading and trailing whitespace trimmed
  /// "NOLINT" (also followed by "NEXTLINE" or "BEGIN": clang-tidy's three
  /// suppression comments), "pragma diagnostic ignored",
  /// "pragma warning disable", "pragma system_header", "-Wno-*", "-w",
  /// "MSVC /wd", "MSVC /W0", "SYSTEM include" (a `SYSTEM` keyword in a CMake
  /// file, or `-isystem`/`-idirafter` in a flags line), "line marker" (a GNU
  /// line marker `# 12 "file" 3` or a `#line` directive).
  std::string kind;
};

/// One assertion line the change removes from a test file.
struct RemovedAssertion {
  std::string path;
  std::uint64_t line = 0;  ///< in the old file
  std::string text;        ///< the removed line, trimmed
};

enum class TamperKind {
  dropped,             ///< in the baseline, absent from the candidate (also: renamed)
  disabled,            ///< DISABLED newly set
  newly_skipped,       ///< ran in the baseline, skipped or disabled in the candidate's results
  will_fail_flipped,   ///< WILL_FAIL changed (either way: what "pass" means changed)
  skip_rule_added,     ///< SKIP_RETURN_CODE newly set or changed, or a SKIP_REGULAR_EXPRESSION added
  pass_regex_changed,  ///< PASS_REGULAR_EXPRESSION set, changed or removed, or a FAIL_REGULAR_EXPRESSION removed
  command_changed,     ///< the command differs beyond the build-tree location (see normalize_command)
  command_trivial,     ///< the command became one that cannot fail (see is_trivial_command)
  /// In a run that judges it (held-out, on-baseline, or the candidate's own
  /// when it is the held-out run), the test's command or any property
  /// differs from the reference's (test_recipes.hpp).
  definition_changed,
  /// In such a run, the program the test runs is built otherwise: its
  /// sources, compile settings, link options or libraries (test_recipes.hpp).
  build_changed,
};

/// "dropped", "disabled", "newly_skipped", "will_fail_flipped",
/// "skip_rule_added", "pass_regex_changed", "command_changed", "command_trivial",
/// "definition_changed", "build_changed".
std::string_view to_string(TamperKind kind) noexcept;

/// One switched-off or modified test. A test can appear once per kind.
struct TamperedTest {
  /// The CTest test name; for results of other JUnit files (not CTest's),
  /// the test case's identity `suite::name`.
  std::string name;
  TamperKind kind = TamperKind::dropped;
  std::string detail;  ///< what changed, e.g. "WILL_FAIL false -> true"
};

struct Report {
  std::vector<ConfigEdit> config_edits;
  std::vector<Suppression> suppressions_added;
  std::vector<RemovedAssertion> assertions_removed;
  std::vector<TamperedTest> tests_tampered;
  /// Evidence that the candidate stops building or registering tests, one
  /// line each ("CMakeLists.txt:12: option EXAMPLE_BUILD_TESTS default ON -> OFF: ...").
  std::vector<std::string> tests_not_built;
  /// Evidence that code which is no test reaches into a test framework, one
  /// line each ("src/calc.hpp:12: redefines or undefines ...").
  std::vector<std::string> harness_reach;
  /// Changed files the build compiled or included whose change git shows as
  /// binary (a NUL byte): no check of added lines can read them, one line
  /// each (find_unreadable_code).
  std::vector<std::string> unreadable_code;

  bool empty() const {
    return config_edits.empty() && suppressions_added.empty() && assertions_removed.empty() &&
           tests_tampered.empty() && tests_not_built.empty() && harness_reach.empty() && unreadable_code.empty();
  }
};

/// Where the two trees live, for comparing test commands: the baseline's and
/// the candidate's build (and source) trees are different folders, so the
/// same test's argv differs by these prefixes. Empty members are unknown.
struct TreeRoots {
  std::string baseline_build;
  std::string candidate_build;
  std::string baseline_source;
  std::string candidate_source;
};

/// Runs every detector. `diff` is the candidate's change against the
/// baseline; `baseline_definitions`/`candidate_definitions` come from
/// `ctest --show-only=json-v1` of each tree (either may be empty);
/// `baseline_tests`/`candidate_tests` are the recorded results (nullptr:
/// none recorded). The build roots are inferred from the tests' working
/// directories (see infer_build_roots). Pure: no I/O. The lists are sorted
/// (see to_json).
Report analyze(const Settings& settings, const parse::DiffLines& diff,
               const std::vector<model::TestDefinition>& baseline_definitions,
               const std::vector<model::TestDefinition>& candidate_definitions,
               const std::vector<model::TestCase>* baseline_tests,
               const std::vector<model::TestCase>* candidate_tests);

/// As above with the trees' locations known (`roots`; members left empty are
/// inferred or ignored).
Report analyze(const Settings& settings, const parse::DiffLines& diff,
               const std::vector<model::TestDefinition>& baseline_definitions,
               const std::vector<model::TestDefinition>& candidate_definitions,
               const std::vector<model::TestCase>* baseline_tests,
               const std::vector<model::TestCase>* candidate_tests, const TreeRoots& roots);

/// The report as the score output's evidence, deterministic: keys sorted,
/// every list sorted (config edits by path; suppressions and assertions by
/// path and line; tampered tests by name and kind; evidence lines as
/// recorded), plus "counts" of each list and of distinct tampered tests.
nlohmann::json to_json(const Report& report);

/// The number of distinct test names in `report.tests_tampered` (a test
/// disabled and newly skipped counts once).
std::size_t tampered_test_count(const Report& report);

/// Whether `report` holds tampering that fails the gate when
/// `fail_gate_on_tampering` is set: a protected configuration edit, a
/// tampered test or evidence of tests not built. (Suppressions and removed
/// assertions cost points instead.)
bool has_tampering(const Report& report);

// ---- The detectors, one by one (analyze calls them all) ---------------------

/// Files of `diff` (by new or old path) matching settings.protected_config_files.
std::vector<ConfigEdit> find_config_edits(const Settings& settings, const parse::DiffLines& diff);

/// Lint suppressions on added lines, minus removed lines of the same file
/// with the same whitespace-stripped text (so moved or re-indented
/// suppressions are not new). Markdown, reStructuredText and AsciiDoc files
/// are skipped (prose suppresses nothing) unless `compiled` (diff paths)
/// names them: the build compiled or included them, so they are code. A GNU
/// line marker or `#line` directive (kind "line marker") counts in C and C++
/// files and in files `compiled` names. The "-w" flag counts
/// in CMake files and in lines that mention compile flags or options only
/// (elsewhere `-w` is too common an option of other tools).
std::vector<Suppression> find_added_suppressions(const parse::DiffLines& diff,
                                                 const std::set<std::string>& compiled = {});

/// The files of `diff` that `compiled` names (the build compiled or
/// included them) and that git shows as binary: their added lines, which
/// every line check reads, cannot be read. One line each. Pure.
std::vector<std::string> find_unreadable_code(const parse::DiffLines& diff, const std::set<std::string>& compiled);

/// find_added_suppressions plus the added lines holding a NOLINTEND marker
/// (kind "NOLINTEND"): every added line lint must see without its
/// suppression (capture's lint view strips them; docs/threat-model.md).
std::vector<Suppression> find_added_suppression_markers(const parse::DiffLines& diff,
                                                        const std::set<std::string>& compiled = {});

/// The suppression kind of one line (`text`) of the file `path`, or nullopt;
/// `compiled`: the build compiled or included the file, whatever its name.
std::optional<std::string> suppression_kind(std::string_view path, std::string_view text, bool compiled = false);

/// Removed lines of test files (settings.test_file_globs) that hold an
/// assertion (built-in macros and functions, plus settings.assertion_patterns),
/// minus added lines of the same file with the same whitespace-stripped text.
/// Throws hydra::Error for an invalid extra pattern (read_anti_gaming
/// rejects those first).
std::vector<RemovedAssertion> find_removed_assertions(const Settings& settings,
                                                      const parse::DiffLines& diff);

/// Whether `text` holds an assertion (built-in set only).
bool is_assertion_line(std::string_view text);

/// What the change's added lines of C and C++ files that are no test files
/// (settings.test_file_globs) say about a test framework (GoogleTest,
/// Catch2, doctest, Boost.Test): an assertion macro undefined (or one of
/// GoogleTest's defined), a framework's macro or include guard named in a
/// preprocessor line, a framework's header included, its namespace named
/// (`testing::`, `Catch::`, `doctest::`, `boost::unit_test::`) or opened
/// (`namespace testing`); comment
/// lines and `//` comments are left out. Code that is no test has no
/// business with the harness: with the macros redefined, the tests compile
/// to assertions that cannot fail. One line per finding.
std::vector<std::string> find_harness_reach(const Settings& settings, const parse::DiffLines& diff);

/// Evidence that the change stops building or registering tests: in CMake
/// files (CMakeLists.txt, *.cmake, *.cmake.in; comments ignored), an
/// option(<name with TEST>) whose ON default becomes OFF or disappears, a
/// set(<name with TEST> OFF ...) or an if(FALSE)-like condition added, more
/// enable_testing(), add_test(, include(CTest) or add_subdirectory(<test
/// folder>) removed than added; anywhere, a -D<name with TEST>=OFF added, or
/// a preset's "<name with TEST>": "OFF"; and the number of tests ctest lists
/// falling (`baseline_test_count` -> `candidate_test_count`).
std::vector<std::string> find_tests_not_built(const parse::DiffLines& diff,
                                              std::size_t baseline_test_count,
                                              std::size_t candidate_test_count);

/// The baseline's and the candidate's build roots, inferred from the
/// working directories of tests present in both: ctest runs a test in its
/// directory's binary folder by default, so the two differ only in the
/// build-tree prefix; the common trailing path components are removed and
/// the most frequent remaining pair is returned (empty strings when no
/// working directories differ).
std::pair<std::string, std::string> infer_build_roots(
    const std::vector<model::TestDefinition>& baseline_definitions,
    const std::vector<model::TestDefinition>& candidate_definitions);

/// A test command for comparison across trees: the executable reduced to its
/// file name (without ".exe"), and each argument that is `build_root` or a
/// path under it written relative to it as "<build>/...", likewise
/// "<source>/..." for `source_root` (empty roots are not replaced).
std::vector<std::string> normalize_command(const std::vector<std::string>& command,
                                           std::string_view build_root,
                                           std::string_view source_root);

/// `command` with HydraScore's test launcher named as hydra-score: a capture
/// runs it as hydra-score-step beside hydra-score where that helper is
/// installed (`<dir>/hydra-score-step test-launcher ...`), the same
/// launcher, so runs captured with either compare equal. Other commands are
/// returned as they are. Pure.
std::vector<std::string> launcher_as_hydra_score(std::vector<std::string> command);

/// Whether `command` (argv) cannot fail: `true`, `:`, `echo ...`,
/// `cmake -E true|echo|echo_append|sleep|capabilities`, `cmake --version`,
/// `sh|bash|dash|zsh -c` with a script of only `true`, `:`, `exit 0` or
/// `echo ...`, and any of these behind `env [NAME=VALUE...]`.
bool is_trivial_command(const std::vector<std::string>& command);

/// Switched-off and modified tests (every TamperKind), from the definitions
/// and, when both are given, the results.
std::vector<TamperedTest> find_tampered_tests(
    const std::vector<model::TestDefinition>& baseline_definitions,
    const std::vector<model::TestDefinition>& candidate_definitions,
    const std::vector<model::TestCase>* baseline_tests,
    const std::vector<model::TestCase>* candidate_tests, const TreeRoots& roots);

}  // namespace hydra::guard
