// Lint fingerprints hold no positions, also inside messages; severity without
// a rule follows the linter's own; a clippy build stopped by an error is an
// incomplete log. Fixtures: tests/fixtures/identity/ (record.sh there), real
// flake8, ESLint and cargo clippy runs on code with a line inserted above.
#include <catch2/catch.hpp>

#include <set>
#include <string>
#include <vector>

#include <hydra/model/lint.hpp>
#include <hydra/parse/lint_formats.hpp>

#include "test_paths.hpp"

using hydra::model::LintFinding;
using hydra::model::Severity;

namespace {

std::filesystem::path identity_fixture(const std::string& name) {
  return std::filesystem::path(HYDRA_FIXTURES_DIR) / "identity" / name;
}

std::multiset<std::uint64_t> fingerprints(const std::vector<LintFinding>& findings) {
  std::multiset<std::uint64_t> out;
  for (const auto& finding : findings) out.insert(finding.fingerprint());
  return out;
}

std::string normalized(const std::string& message) {
  std::string out;
  return hydra::model::position_free_message(message, out) ? out : message;
}

}  // namespace

TEST_CASE("a line inserted above leaves every fingerprint as it was", "[parse][lint][identity]") {
  SECTION("flake8: F811 \"redefinition of unused 'os' from line N\"") {
    const auto before = hydra::parse::parse_flake8_file(identity_fixture("flake8_base.log"));
    const auto after = hydra::parse::parse_flake8_file(identity_fixture("flake8_inserted.log"));
    REQUIRE(before.size() == 1);
    REQUIRE(after.size() == 1);
    // The message says where, and says it differently...
    CHECK(before[0].message() == "redefinition of unused 'os' from line 1");
    CHECK(after[0].message() == "redefinition of unused 'os' from line 2");
    CHECK(before[0].line() + 1 == after[0].line());
    // ...the fingerprint does not.
    CHECK(fingerprints(before) == fingerprints(after));
  }
  SECTION("ESLint: no-shadow \"... on line N column M\" and a directive without a rule") {
    const auto before = hydra::parse::parse_eslint_json_file(identity_fixture("eslint_base.json"));
    const auto after = hydra::parse::parse_eslint_json_file(identity_fixture("eslint_inserted.json"));
    REQUIRE(before.size() == 2);
    REQUIRE(after.size() == 2);
    CHECK(before[0].message() == "'value' is already declared in the upper scope on line 1 column 7.");
    CHECK(after[0].message() == "'value' is already declared in the upper scope on line 2 column 7.");
    CHECK(fingerprints(before) == fingerprints(after));
    // "Unused eslint-disable directive ...": ruleId null, severity 1. ESLint
    // says warning, and so does HydraScore.
    CHECK(before[1].joined_checks().empty());
    CHECK(before[1].severity() == Severity::warning);
    CHECK(before[0].severity() == Severity::error);  // no-shadow is "error" in the config
  }
}

TEST_CASE("position_free_message replaces positions, not other numbers", "[parse][lint][identity]") {
  CHECK(normalized("redefinition of unused 'x' from line 12") == "redefinition of unused 'x' from line N");
  CHECK(normalized("'v' is already declared in the upper scope on line 3 column 17.") ==
        "'v' is already declared in the upper scope on line N column N.");
  CHECK(normalized("previous definition is at src/a.cpp:12:5") == "previous definition is at src/a.cpp:N:N");
  CHECK(normalized("first defined here (lib.rs:3)") == "first defined here (lib.rs:N)");
  CHECK(normalized("duplicated in Lines 3-5 and Line: 9") == "duplicated in Lines N-N and Line: N");
  CHECK(normalized("see line #4, col 2") == "see line #N, col N");
  // Counts, limits, codes and values are what the finding is about: they stay.
  for (const std::string kept : {"too many blank lines (3)", "function has 52 lines (max 50)",
                                  "'f' is too complex (12)", "C901 uses line2 and E501", "ratio 3:4 expected",
                                  "no position here", "inline 7", "pipeline 3"}) {
    std::string out = "untouched";
    CHECK_FALSE(hydra::model::position_free_message(kept, out));
    CHECK(out == "untouched");
  }
  // The message as printed is kept for reports; only the fingerprint reads it without positions.
  const auto make = [](const std::string& message) {
    LintFinding::Parts parts;
    parts.tool = "flake8";
    parts.file = "a.py";
    parts.message = message;
    parts.checks = "F811";
    return LintFinding(parts);
  };
  const LintFinding one = make("redefinition of unused 'x' from line 1");
  CHECK(one.message() == "redefinition of unused 'x' from line 1");
  CHECK(one.fingerprint() == make("redefinition of unused 'x' from line 7").fingerprint());
  CHECK(one.fingerprint() != make("redefinition of unused 'y' from line 1").fingerprint());
  CHECK(one.fingerprint_bytes() ==
        std::string("flake8\x1f" "a.py\x1f" "F811\x1f" "redefinition of unused 'x' from line N\x1f"));
}

TEST_CASE("cargo clippy under -D warnings: a build stopped by an error is an incomplete log", "[parse][lint]") {
  std::string stopped;
  // The baseline: app's needless_return fails app, the last crate.
  const auto base = hydra::parse::parse_cargo_diagnostics_file(identity_fixture("clippy_base.json"), &stopped);
  CHECK(base.size() == 1);  // printed for the lib and its test target, kept once
  CHECK(stopped.find("\"build-finished\": success false") != std::string::npos);
  // The change adds one in core_math, which app depends on: cargo stops
  // there, app is never linted and its finding is missing, not fixed.
  const auto changed = hydra::parse::parse_cargo_diagnostics_file(identity_fixture("clippy_new_error.json"), &stopped);
  REQUIRE(changed.size() == 1);
  CHECK(changed[0].file() == "core/src/lib.rs");
  CHECK_FALSE(stopped.empty());
  // A build that finished: complete.
  hydra::parse::parse_cargo_diagnostics("{\"reason\":\"build-finished\",\"success\":true}\n", "ok.json", &stopped);
  CHECK(stopped.empty());
  // Messages that end before build-finished: cargo stopped before the end.
  hydra::parse::parse_cargo_diagnostics("{\"reason\":\"compiler-artifact\"}\n", "cut.json", &stopped);
  CHECK(stopped.find("without \"build-finished\"") != std::string::npos);
}
