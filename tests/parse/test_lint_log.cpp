#include <catch2/catch.hpp>

#include <set>
#include <string>

#include <hydra/error.hpp>
#include <hydra/parse/lint_log.hpp>

#include "parse/parse_fixtures.hpp"

using hydra::model::LintFinding;
using hydra::model::Severity;
using hydra::parse::parse_clang_tidy;
using hydra::parse::parse_clang_tidy_file;
using hydra::parse::parse_compiler_warnings;
using hydra::parse::parse_compiler_warnings_file;
using hydra::test::parse_fixture;
using hydra::test::read_parse_fixture;
using Strings = std::vector<std::string>;

namespace {

const std::string sources = "/tmp/hydra-parse-record/src-tree/src/";

const LintFinding& find(const std::vector<LintFinding>& findings, const std::string& file,
                        std::uint32_t line, std::uint32_t column) {
  for (const auto& finding : findings)
    if (finding.file == file && finding.line == line && finding.column == column) return finding;
  FAIL("no finding at " << file << ":" << line << ":" << column);
  throw;  // unreachable
}

std::size_t count_severity(const std::vector<LintFinding>& findings, Severity severity) {
  return hydra::test::count_if(findings, [severity](const LintFinding& f) { return f.severity == severity; });
}

/// The fingerprint's definition (docs/parsers.md), written out independently:
/// FNV-1a 64 over tool 0x1F file 0x1F checks-joined-by-"," 0x1F message 0x1F source_line.
std::string reference_fingerprint(const LintFinding& finding) {
  std::string bytes = finding.tool + '\x1f' + finding.file + '\x1f';
  for (std::size_t i = 0; i < finding.checks.size(); ++i) bytes += (i ? "," : "") + finding.checks[i];
  bytes += '\x1f' + finding.message + '\x1f' + finding.source_line;
  std::uint64_t hash = 0xcbf29ce484222325ULL;
  for (const unsigned char c : bytes) hash = (hash ^ c) * 0x100000001b3ULL;
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(hash));
  return hex;
}

hydra::InputError error_of(const std::string& log) {
  try {
    parse_clang_tidy(log, "tidy.log");
  } catch (const hydra::InputError& error) {
    return error;
  }
  FAIL("expected an InputError");
  throw;  // unreachable
}

}  // namespace

TEST_CASE("parse_clang_tidy reads clang-tidy output", "[parse]") {
  SECTION("valid input") {
    const auto findings = parse_clang_tidy_file(parse_fixture("clang_tidy.log"));
    // 17 diagnostics in the log (one clang-tidy run per translation unit);
    // geometry.hpp's 5 are printed for both shapes.cpp and area.cpp and kept
    // once: 17 - 5 = 12.
    REQUIRE(findings.size() == 12);
    CHECK(count_severity(findings, Severity::error) == 1);  // WarningsAsErrors: bugprone-integer-division
    CHECK(count_severity(findings, Severity::warning) == 11);

    const auto& division = find(findings, sources + "geometry.hpp", 13, 25);
    CHECK(division.tool == "clang-tidy");
    CHECK(division.severity == Severity::error);
    CHECK(division.checks == Strings{"bugprone-integer-division"});  // "-warnings-as-errors" dropped
    CHECK(division.message == "result of integer division used in a floating point context; possible loss of precision");
    CHECK(division.source_line == "doubleratio=1.0*(numerator/denominator);");
    CHECK(division.fingerprint == reference_fingerprint(division));

    const auto& magic = find(findings, sources + "area.cpp", 5, 16);
    CHECK(magic.checks == Strings{"cppcoreguidelines-avoid-magic-numbers", "readability-magic-numbers"});
    CHECK(magic.source_line == "if(scaled>100){");

    // A fix-it line after the caret line is not the source line.
    const auto& nullptr_finding = find(findings, sources + "geometry.hpp", 17, 35);
    CHECK(nullptr_finding.source_line == "inlineint*no_pointer(){return0;}");

    std::set<std::string> fingerprints;
    for (const auto& finding : findings) {
      CHECK(finding.fingerprint.size() == 16);
      fingerprints.insert(finding.fingerprint);
    }
    CHECK(fingerprints.size() == findings.size());
  }
  SECTION("bad input") {
    const auto binary = error_of(std::string("a.cpp:1:1: warning: x [c]\n\x7f" "ELF\0\0", 32));
    CHECK(binary.file() == "tidy.log");
    CHECK(binary.line() == 2);
    CHECK(binary.column() == 5);
    CHECK_THAT(binary.message(), Catch::Contains("NUL"));

    const auto latin1 = error_of("a.cpp:1:1: warning: caf\xe9 [c]\n");
    CHECK(latin1.line() == 1);
    CHECK(latin1.column() == 24);
    CHECK_THAT(latin1.message(), Catch::Contains("UTF-8"));
  }
}

TEST_CASE("parse_clang_tidy strips ANSI colour", "[parse]") {
  // The same run with --use-color gives the same findings, fingerprints included.
  const auto plain = parse_clang_tidy_file(parse_fixture("clang_tidy.log"));
  const auto colour = parse_clang_tidy_file(parse_fixture("clang_tidy_color.log"));
  REQUIRE(colour.size() == plain.size());
  for (std::size_t i = 0; i < plain.size(); ++i) {
    CAPTURE(i);
    CHECK(colour[i].file == plain[i].file);
    CHECK(colour[i].line == plain[i].line);
    CHECK(colour[i].message == plain[i].message);
    CHECK(colour[i].checks == plain[i].checks);
    CHECK(colour[i].source_line == plain[i].source_line);
    CHECK(colour[i].fingerprint == plain[i].fingerprint);
  }
}

TEST_CASE("parse_clang_tidy reads location-less errors and skips summaries", "[parse]") {
  const auto findings = parse_clang_tidy_file(parse_fixture("clang_tidy_errors.log"));
  // "error: unknown argument ..." plus shapes.cpp's 2 warnings; "Error while
  // processing ...", "Suppressed ...", "Use -header-filter=..." and
  // "N warnings and M errors generated." are not findings.
  REQUIRE(findings.size() == 3);
  const auto& unknown = find(findings, "", 0, 0);
  CHECK(unknown.severity == Severity::error);
  CHECK(unknown.message == "unknown argument: '-fconcepts-diagnostics-depth=2'");
  CHECK(unknown.checks == Strings{"clang-diagnostic-error"});
  CHECK(unknown.source_line.empty());

  // Location-less without a check list.
  const auto job = parse_clang_tidy("error: unable to handle compilation, expected exactly one compiler job in ''\n",
                                    "tidy.log");
  REQUIRE(job.size() == 1);
  CHECK(job[0].checks.empty());
  CHECK(job[0].message == "unable to handle compilation, expected exactly one compiler job in ''");

  // An empty log is valid and has no findings.
  CHECK(parse_clang_tidy("", "tidy.log").empty());
}

TEST_CASE("parse_clang_tidy keeps a source line that looks like a diagnostic", "[parse]") {
  // A goto label named "error:" quoted under a diagnostic, with CRLF line ends.
  const auto findings = parse_clang_tidy(
      "a.cpp:3:1: warning: label at end [check-a]\r\nerror: return 1;\r\n^\r\nb.cpp:1:2: warning: w [check-b]\r\n",
      "tidy.log");
  REQUIRE(findings.size() == 2);
  CHECK(findings[0].source_line == "error:return1;");
  CHECK(findings[1].file == "b.cpp");
  CHECK(findings[1].source_line.empty());
}

TEST_CASE("fingerprint ignores the line number and whitespace", "[parse]") {
  LintFinding finding;
  finding.tool = "clang-tidy";
  finding.file = "src/a.cpp";
  finding.checks = {"bugprone-x", "cert-y"};
  finding.message = "message";
  finding.source_line = "intx=0;";
  const std::string original = hydra::parse::fingerprint(finding);
  CHECK(original == reference_fingerprint(finding));
  // FNV-1a 64 of "clang-tidy\x1fsrc/a.cpp\x1fbugprone-x,cert-y\x1fmessage\x1fintx=0;"
  // (offset basis 0xcbf29ce484222325, prime 0x100000001b3), computed apart in Python.
  CHECK(original == "a7867021b5d7d097");

  // Moved code keeps its fingerprint.
  const auto moved = parse_clang_tidy("x.cpp:10:3: warning: m [c]\n  int  x = 0;\n  ^\n", "a.log");
  const auto original_place = parse_clang_tidy("x.cpp:99:7: warning: m [c]\n      int x=0;\n      ^\n", "a.log");
  REQUIRE(moved.size() == 1);
  REQUIRE(original_place.size() == 1);
  CHECK(moved[0].fingerprint == original_place[0].fingerprint);

  finding.message = "other message";
  CHECK(hydra::parse::fingerprint(finding) != original);
}

TEST_CASE("parse_compiler_warnings reads GCC build logs", "[parse]") {
  const auto findings = parse_compiler_warnings_file(parse_fixture("build_gcc.log"));
  // warnings.cpp: -Wsign-compare, -Wunused-variable, -Wimplicit-fallthrough=;
  // strict.cpp: -Werror=unused-variable (an error). Notes, "In function" and
  // ninja's lines are not findings.
  REQUIRE(findings.size() == 4);
  const auto& sign = find(findings, sources + "warnings.cpp", 6, 21);
  CHECK(sign.tool == "compiler");
  CHECK(sign.checks == Strings{"-Wsign-compare"});
  // GCC's "    6 |" gutter is not part of the source line.
  CHECK(sign.source_line == "for(inti=0;i<values.size();++i){");
  CHECK(sign.fingerprint == reference_fingerprint(sign));

  const auto& fallthrough = find(findings, sources + "warnings.cpp", 11, 13);
  CHECK(fallthrough.checks == Strings{"-Wimplicit-fallthrough"});  // "-Wimplicit-fallthrough=" without "="
  CHECK(fallthrough.message == "this statement may fall through");

  const auto& strict = find(findings, sources + "strict.cpp", 2, 7);
  CHECK(strict.severity == Severity::error);
  CHECK(strict.checks == Strings{"-Wunused-variable"});  // from "-Werror=unused-variable"
  CHECK(strict.source_line == "intleftover=7;");
}

TEST_CASE("parse_compiler_warnings reads Clang build logs", "[parse]") {
  const auto findings = parse_compiler_warnings_file(parse_fixture("build_clang.log"));
  // warnings.cpp: 2 warnings; strict.cpp: 1 -Werror error; the driver's
  // location-less "clang: error: unknown argument" and "clang: warning: ...
  // [-Wignored-optimization-argument]": 2 + 1 + 2 = 5.
  REQUIRE(findings.size() == 5);
  const auto& strict = find(findings, sources + "strict.cpp", 2, 7);
  CHECK(strict.severity == Severity::error);
  CHECK(strict.checks == Strings{"-Wunused-variable"});  // from "-Werror,-Wunused-variable"
  CHECK(strict.source_line == "intleftover=7;");
  CHECK(count_severity(findings, Severity::error) == 2);
  const auto location_less = hydra::test::count_if(findings, [](const LintFinding& f) { return f.file.empty(); });
  CHECK(location_less == 2);
}

TEST_CASE("parse_compiler_warnings ignores build-tool lines and flagless warnings", "[parse]") {
  SECTION("valid input") {
    const auto findings = parse_compiler_warnings(
        "ninja: error: loading 'build.ninja': No such file or directory\n"
        "make[2]: *** [CMakeFiles/a.dir/build.make:76: a.o] Error 1\n"
        "a.c:3: warning: column-less [-Wfoo]\n"
        "a.c:4:1: warning: no flag here\n"
        "a.c:5:1: error: 'x' was not declared in this scope\n"
        "a.c:3: warning: column-less [-Wfoo]\n",
        "build.log");
    REQUIRE(findings.size() == 2);
    CHECK(findings[0].line == 3);
    CHECK(findings[0].column == 0);
    CHECK(findings[1].severity == Severity::error);
    CHECK(findings[1].checks.empty());
  }
  SECTION("bad input") {
    CHECK_THROWS_AS(parse_compiler_warnings(std::string("\0", 1), "build.log"), hydra::InputError);
  }
}
