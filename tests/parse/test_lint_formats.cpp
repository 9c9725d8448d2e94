#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include <hydra/error.hpp>
#include <hydra/parse/lint_formats.hpp>

#include "parse/parse_fixtures.hpp"

using hydra::model::LintFinding;
using hydra::model::Severity;
using hydra::parse::parse_cargo_diagnostics;
using hydra::parse::parse_cargo_diagnostics_file;
using hydra::parse::parse_eslint_json;
using hydra::parse::parse_eslint_json_file;
using hydra::parse::parse_flake8;
using hydra::parse::parse_flake8_file;
using hydra::test::parse_fixture;

namespace {

std::size_t count_severity(const std::vector<LintFinding>& findings, Severity severity) {
  return hydra::test::count_if(findings, [severity](const LintFinding& f) { return f.severity() == severity; });
}

/// The InputError `parse` throws.
template <typename Parse>
hydra::InputError error_of(Parse parse) {
  try {
    parse();
  } catch (const hydra::InputError& error) {
    return error;
  }
  FAIL("expected an InputError");
  throw;  // unreachable
}

}  // namespace

TEST_CASE("parse_cargo_diagnostics reads cargo clippy's JSON messages", "[parse][lint_formats]") {
  // tests/fixtures/parse/sources/rust, `cargo clippy --all-targets
  // --message-format=json -- -D warnings` (clippy 0.1.95): 4 compiler-messages,
  // each finding printed for the lib and again for the lib's test build, kept once.
  const auto findings = parse_cargo_diagnostics_file(parse_fixture("clippy.json"));
  REQUIRE(findings.size() == 2);

  const LintFinding& unused = findings[0];
  CHECK(unused.tool() == "rustc");  // a rustc lint, not "clippy::..."
  CHECK(unused.file() == "src/lib.rs");
  CHECK(unused.line() == 22);
  CHECK(unused.column() == 9);
  CHECK(unused.severity() == Severity::error);  // -D warnings
  CHECK(unused.message() == "unused variable: `unused_value`");
  CHECK(unused.joined_checks() == "unused_variables");
  CHECK(unused.source_line() == "letunused_value=3;");  // "    let unused_value = 3;"

  const LintFinding& needless = findings[1];
  CHECK(needless.tool() == "clippy");
  CHECK(needless.file() == "src/lib.rs");
  CHECK(needless.line() == 17);
  CHECK(needless.column() == 5);
  CHECK(needless.message() == "unneeded `return` statement");
  CHECK(needless.joined_checks() == "clippy::needless_return");
  CHECK(needless.source_line() == "returna+b;");
}

TEST_CASE("parse_cargo_diagnostics reads cargo build's JSON messages", "[parse][lint_formats]") {
  // `cargo build --message-format=json`: compiler-artifact and build-finished
  // lines skipped; the unused variable as a warning.
  const auto findings = parse_cargo_diagnostics_file(parse_fixture("cargo_build.json"));
  REQUIRE(findings.size() == 1);
  CHECK(findings[0].severity() == Severity::warning);
  CHECK(findings[0].tool() == "rustc");
  CHECK(findings[0].joined_checks() == "unused_variables");
  // The fingerprint leaves out line and severity: the same as clippy's finding.
  CHECK(findings[0].fingerprint() == parse_cargo_diagnostics_file(parse_fixture("clippy.json"))[0].fingerprint());
}

TEST_CASE("parse_cargo_diagnostics skips notes and summaries, keeps span-less errors", "[parse][lint_formats]") {
  const std::string text =
      R"({"reason":"compiler-message","message":{"level":"error","message":"aborting due to 2 previous errors","code":null,"spans":[]}})"
      "\n"
      R"({"reason":"compiler-message","message":{"level":"warning","message":"2 warnings emitted","code":null,"spans":[]}})"
      "\n"
      R"({"reason":"compiler-message","message":{"level":"note","message":"a note","code":null,"spans":[]}})"
      "\n\n"
      R"({"reason":"compiler-message","message":{"level":"error","message":"linking with `cc` failed","code":null,"spans":[]}})"
      "\n";
  const auto findings = parse_cargo_diagnostics(text, "clippy.json");
  REQUIRE(findings.size() == 1);
  CHECK(findings[0].message() == "linking with `cc` failed");
  CHECK(findings[0].file().empty());
  CHECK(findings[0].line() == 0);
  CHECK(findings[0].joined_checks().empty());
  CHECK(findings[0].severity() == Severity::error);
}

TEST_CASE("parse_cargo_diagnostics rejects lines that are not cargo messages", "[parse][lint_formats]") {
  const std::string ok = R"({"reason":"build-finished","success":true})";
  SECTION("not JSON: the line of the file") {
    const auto error = error_of([&] { parse_cargo_diagnostics(ok + "\n" + ok + "\nwarning: x\n", "clippy.json"); });
    CHECK(error.file() == "clippy.json");
    CHECK(error.line() == 3);
    CHECK(error.message().rfind("malformed JSON", 0) == 0);
  }
  SECTION("not an object") {
    const auto error = error_of([&] { parse_cargo_diagnostics("[1, 2]\n", "clippy.json"); });
    CHECK(error.line() == 1);
    CHECK(error.message() == "expected a JSON object (one cargo message per line)");
  }
  SECTION("a compiler-message of the wrong shape") {
    const auto error = error_of([&] {
      parse_cargo_diagnostics(ok + "\n" +
                                  R"({"reason":"compiler-message","message":{"level":"warning","message":"m","code":null,"spans":{}}})",
                              "clippy.json");
    });
    CHECK(error.line() == 2);
    CHECK(error.message() == "/message/spans: expected an array");
  }
  SECTION("a span whose line is negative") {
    const auto error = error_of([&] {
      parse_cargo_diagnostics(
          R"({"reason":"compiler-message","message":{"level":"warning","message":"m","code":{"code":"x"},)"
          R"("spans":[{"is_primary":true,"file_name":"a.rs","line_start":-1,"column_start":1}]}})",
          "clippy.json");
    });
    CHECK(error.message() == "/message/spans/0/line_start: expected a line or column number (0 to 4294967295)");
  }
  SECTION("invalid UTF-8") {
    const auto error = error_of([&] { parse_cargo_diagnostics(ok + "\n{\"reason\":\"\xff\"}\n", "clippy.json"); });
    CHECK(error.line() == 2);
    CHECK(error.message() == "invalid UTF-8");
  }
}

TEST_CASE("parse_eslint_json reads ESLint's JSON", "[parse][lint_formats]") {
  // tests/fixtures/parse/sources/js, `eslint --format json .` (ESLint 9.39):
  // app.js 5 messages, broken.js 1 (a parsing error), clean.js and
  // eslint.config.js none.
  const auto findings = parse_eslint_json_file(parse_fixture("eslint.json"));
  REQUIRE(findings.size() == 6);
  // no-unused-vars is "error" (severity 2) twice, plus the parsing error.
  CHECK(count_severity(findings, Severity::error) == 3);
  // no-var once, eqeqeq twice ("warn", severity 1).
  CHECK(count_severity(findings, Severity::warning) == 3);
  for (const auto& finding : findings) CHECK(finding.tool() == "eslint");

  const LintFinding& no_var = findings[0];
  CHECK(no_var.file() == "/tmp/hydra-parse-record/js/app.js");  // absolute, as ESLint prints it
  CHECK(no_var.line() == 2);
  CHECK(no_var.column() == 3);
  CHECK(no_var.joined_checks() == "no-var");
  CHECK(no_var.message() == "Unexpected var, use let or const instead.");
  CHECK(no_var.source_line() == "varunused=1;");  // line 2 of "source": "  var unused = 1;"

  CHECK(findings[2].joined_checks() == "eqeqeq");
  CHECK(findings[2].source_line() == "if(a==b){");
  CHECK(findings[4].message() == "'helper' is defined but never used.");
  CHECK(findings[4].source_line() == "functionhelper(){}");

  const LintFinding& parsing = findings[5];
  CHECK(parsing.file() == "/tmp/hydra-parse-record/js/broken.js");
  CHECK(parsing.joined_checks().empty());  // ruleId null
  CHECK(parsing.severity() == Severity::error);
  CHECK(parsing.message() == "Parsing error: Unexpected keyword 'return'");
  CHECK(parsing.line() == 2);
  CHECK(parsing.source_line() == "return1;");
}

TEST_CASE("parse_eslint_json names the JSON pointer of a wrong shape", "[parse][lint_formats]") {
  SECTION("not an array") {
    const auto error = error_of([] { parse_eslint_json("{}", "eslint.json"); });
    CHECK(error.file() == "eslint.json");
    CHECK(error.message() == "the document: expected an array");
  }
  SECTION("a severity ESLint never prints") {
    const auto error = error_of([] {
      parse_eslint_json(R"([{"filePath":"/a.js","messages":[]},)"
                        R"({"filePath":"/b.js","messages":[{"ruleId":"x","severity":3,"message":"m","line":1,"column":1}]}])",
                        "eslint.json");
    });
    CHECK(error.message() == "/1/messages/0/severity: expected 1 (warning) or 2 (error)");
  }
  SECTION("a missing filePath") {
    const auto error = error_of([] { parse_eslint_json(R"([{"messages":[]}])", "eslint.json"); });
    CHECK(error.message() == "/0/filePath: expected a member \"filePath\"");
  }
  SECTION("malformed JSON: line and column") {
    const auto error = error_of([] { parse_eslint_json("[\n  {\"filePath\": }\n]", "eslint.json"); });
    CHECK(error.line() == 2);
    CHECK(error.message().rfind("malformed JSON", 0) == 0);
  }
  SECTION("a message without a line (about the whole file)") {
    const auto findings = parse_eslint_json(
        R"([{"filePath":"/a.js","messages":[{"fatal":false,"severity":1,"message":"File ignored"},)"
        R"({"fatal":false,"severity":1,"message":"File ignored"}]}])",
        "eslint.json");
    REQUIRE(findings.size() == 1);  // the duplicate kept once
    CHECK(findings[0].line() == 0);
    // No rule, not fatal: ESLint's own severity (1, a warning).
    CHECK(findings[0].severity() == Severity::warning);
  }
}

TEST_CASE("parse_flake8 reads flake8's default format", "[parse][lint_formats]") {
  // tests/fixtures/parse/sources/python, `flake8 .` (flake8 5.0.4): 10 lines.
  const auto findings = parse_flake8_file(parse_fixture("flake8.log"));
  REQUIRE(findings.size() == 10);
  CHECK(count_severity(findings, Severity::warning) == 10);
  const LintFinding& first = findings[0];
  CHECK(first.tool() == "flake8");
  CHECK(first.file() == "lint_me.py");  // "./lint_me.py"
  CHECK(first.line() == 1);
  CHECK(first.column() == 1);
  CHECK(first.joined_checks() == "F401");
  CHECK(first.message() == "'os' imported but unused");
  CHECK(first.source_line().empty());
  // W191 and E101 at the same place (11:1) are two findings.
  CHECK(findings[6].joined_checks() == "W191");
  CHECK(findings[7].joined_checks() == "E101");
  CHECK(findings[9].message() == "trailing whitespace");
}

TEST_CASE("parse_flake8 reads --show-source's source and caret lines", "[parse][lint_formats]") {
  // `flake8 --show-source .`: the same 10 findings, each with its source line.
  const auto plain = parse_flake8_file(parse_fixture("flake8.log"));
  const auto findings = parse_flake8_file(parse_fixture("flake8_source.log"), "ruff");
  REQUIRE(findings.size() == 10);
  for (std::size_t i = 0; i < findings.size(); ++i) {
    CHECK(findings[i].line() == plain[i].line());
    CHECK(findings[i].column() == plain[i].column());
    CHECK(findings[i].joined_checks() == plain[i].joined_checks());
    CHECK(findings[i].message() == plain[i].message());
    CHECK(findings[i].tool() == "ruff");  // the tool the caller names
  }
  CHECK(findings[0].source_line() == "importos");
  // "def spaced():" under E302, then a caret line with no indentation.
  CHECK(findings[5].source_line() == "defspaced():");
  // "\treturn sys.argv  " (tab, trailing spaces) under a caret line "\t               ^".
  CHECK(findings[9].source_line() == "returnsys.argv");
}

TEST_CASE("parse_flake8 skips what is not a finding", "[parse][lint_formats]") {
  const std::string text =
      "\n"
      "./a.py:3:1: E302 expected 2 blank lines, found 1\n"
      "./a.py:3:1: E302 expected 2 blank lines, found 1\n"  // the same finding again: kept once
      "1     E302 expected 2 blank lines, found 1\n"          // --statistics
      "1\n"                                                    // --count
      "C:\\src\\b.py:7:12: F821 undefined name 'x'\n"          // a path with a colon
      "b.py:1:8: SyntaxError: Expected an expression\n"         // ruff: no code
      "b.py:x:8: E1 not a line number\n";
  const auto findings = parse_flake8(text, "flake8.log");
  REQUIRE(findings.size() == 3);
  CHECK(findings[0].file() == "a.py");
  CHECK(findings[1].file() == "C:\\src\\b.py");
  CHECK(findings[1].line() == 7);
  CHECK(findings[1].column() == 12);
  CHECK(findings[2].joined_checks().empty());
  CHECK(findings[2].message() == "SyntaxError: Expected an expression");
  CHECK(findings[2].severity() == Severity::error);
}

TEST_CASE("parse_flake8 rejects binary and non-UTF-8 input", "[parse][lint_formats]") {
  const auto nul = error_of([] { parse_flake8(std::string("a.py:1:1: E1 x\n\0", 17), "flake8.log"); });
  CHECK(nul.file() == "flake8.log");
  CHECK(nul.line() == 2);
  const auto invalid = error_of([] { parse_flake8("a.py:1:1: E1 caf\xe9\n", "flake8.log"); });
  CHECK(invalid.message() == "invalid UTF-8");
  CHECK_THROWS_AS(parse_flake8_file(parse_fixture("no-such-flake8.log")), hydra::InputError);
}
