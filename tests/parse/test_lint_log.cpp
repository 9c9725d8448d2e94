#include <catch2/catch.hpp>

#include <cstdio>
#include <fstream>
#include <set>
#include <string>

#include <hydra/error.hpp>
#include <hydra/parse/lint_log.hpp>
#include <hydra/util/xxh64.hpp>

#include "parse/parse_fixtures.hpp"

using hydra::model::LintFinding;
using hydra::model::Severity;
using hydra::parse::parse_clang_tidy;
using hydra::parse::parse_clang_tidy_file;
using hydra::parse::parse_compiler_warnings;
using hydra::parse::parse_compiler_warnings_file;
using hydra::parse::LintParseOptions;
using hydra::test::parse_fixture;
using hydra::test::read_parse_fixture;
using Strings = std::vector<std::string>;

namespace {

const std::string sources = "/tmp/hydra-parse-record/src-tree/src/";

const LintFinding& find(const std::vector<LintFinding>& findings, const std::string& file,
                        std::uint32_t line, std::uint32_t column) {
  for (const auto& finding : findings)
    if (finding.file() == file && finding.line() == line && finding.column() == column) return finding;
  FAIL("no finding at " << file << ":" << line << ":" << column);
  throw;  // unreachable
}

std::size_t count_severity(const std::vector<LintFinding>& findings, Severity severity) {
  return hydra::test::count_if(findings, [severity](const LintFinding& f) { return f.severity() == severity; });
}

/// The fingerprint's definition (docs/parsers.md), written out apart from
/// the parser's own byte assembly: xxh64 (seed 0) over
/// tool 0x1F file 0x1F checks-joined-by-"," 0x1F message 0x1F source_line.
std::string reference_fingerprint(const LintFinding& finding) {
  std::string bytes = std::string(finding.tool()) + '\x1f' + std::string(finding.file()) + '\x1f';
  const auto checks = finding.checks();
  for (std::size_t i = 0; i < checks.size(); ++i) bytes += (i ? "," : "") + std::string(checks[i]);
  bytes += '\x1f' + std::string(finding.message()) + '\x1f' + std::string(finding.source_line());
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(hydra::util::xxh64(bytes)));
  return hex;
}

/// The finding's check names, as strings.
Strings checks_of(const LintFinding& finding) {
  Strings names;
  for (const auto name : finding.checks()) names.emplace_back(name);
  return names;
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
    CHECK(division.tool() == "clang-tidy");
    CHECK(division.severity() == Severity::error);
    CHECK(checks_of(division) == Strings{"bugprone-integer-division"});  // "-warnings-as-errors" dropped
    CHECK(division.message() == "result of integer division used in a floating point context; possible loss of precision");
    CHECK(division.source_line() == "doubleratio=1.0*(numerator/denominator);");
    CHECK(division.fingerprint_hex() == reference_fingerprint(division));

    const auto& magic = find(findings, sources + "area.cpp", 5, 16);
    CHECK(checks_of(magic) == Strings{"cppcoreguidelines-avoid-magic-numbers", "readability-magic-numbers"});
    CHECK(magic.source_line() == "if(scaled>100){");

    // A fix-it line after the caret line is not the source line.
    const auto& nullptr_finding = find(findings, sources + "geometry.hpp", 17, 35);
    CHECK(nullptr_finding.source_line() == "inlineint*no_pointer(){return0;}");

    std::set<std::string> fingerprints;
    for (const auto& finding : findings) {
      CHECK(finding.fingerprint_hex().size() == 16);
      fingerprints.insert(finding.fingerprint_hex());
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
    CHECK(colour[i].file() == plain[i].file());
    CHECK(colour[i].line() == plain[i].line());
    CHECK(colour[i].message() == plain[i].message());
    CHECK(colour[i].joined_checks() == plain[i].joined_checks());
    CHECK(colour[i].source_line() == plain[i].source_line());
    CHECK(colour[i].fingerprint_hex() == plain[i].fingerprint_hex());
  }
}

TEST_CASE("parse_clang_tidy reads location-less errors and skips summaries", "[parse]") {
  const auto findings = parse_clang_tidy_file(parse_fixture("clang_tidy_errors.log"));
  // "error: unknown argument ..." plus shapes.cpp's 2 warnings; "Error while
  // processing ...", "Suppressed ...", "Use -header-filter=..." and
  // "N warnings and M errors generated." are not findings.
  REQUIRE(findings.size() == 3);
  const auto& unknown = find(findings, "", 0, 0);
  CHECK(unknown.severity() == Severity::error);
  CHECK(unknown.message() == "unknown argument: '-fconcepts-diagnostics-depth=2'");
  CHECK(checks_of(unknown) == Strings{"clang-diagnostic-error"});
  CHECK(unknown.source_line().empty());

  // Location-less without a check list.
  const auto job = parse_clang_tidy("error: unable to handle compilation, expected exactly one compiler job in ''\n",
                                    "tidy.log");
  REQUIRE(job.size() == 1);
  CHECK(job[0].joined_checks().empty());
  CHECK(job[0].message() == "unable to handle compilation, expected exactly one compiler job in ''");

  // An empty log is valid and has no findings.
  CHECK(parse_clang_tidy("", "tidy.log").empty());
}

TEST_CASE("parse_clang_tidy keeps a source line that looks like a diagnostic", "[parse]") {
  // A goto label named "error:" quoted under a diagnostic, with CRLF line ends.
  const auto findings = parse_clang_tidy(
      "a.cpp:3:1: warning: label at end [check-a]\r\nerror: return 1;\r\n^\r\nb.cpp:1:2: warning: w [check-b]\r\n",
      "tidy.log");
  REQUIRE(findings.size() == 2);
  CHECK(findings[0].source_line() == "error:return1;");
  CHECK(findings[1].file() == "b.cpp");
  CHECK(findings[1].source_line().empty());
}

TEST_CASE("fingerprint ignores the line number and whitespace", "[parse]") {
  LintFinding::Parts parts;
  parts.tool = "clang-tidy";
  parts.file = "src/a.cpp";
  parts.line = 12;
  parts.checks = "bugprone-x,cert-y";
  parts.message = "message";
  parts.source_line = "intx=0;";
  const std::string original = LintFinding(parts).fingerprint_hex();
  CHECK(original == reference_fingerprint(LintFinding(parts)));
  parts.line = 40;  // the line number is not part of it
  CHECK(LintFinding(parts).fingerprint_hex() == original);
  // xxh64 of "clang-tidy\x1fsrc/a.cpp\x1fbugprone-x,cert-y\x1fmessage\x1fintx=0;", computed
  // apart with xxHash's own tool:
  //   printf 'clang-tidy\x1fsrc/a.cpp\x1fbugprone-x,cert-y\x1fmessage\x1fintx=0;' | xxhsum -H1
  CHECK(original == "f5d0f97a246b3934");

  // Moved code keeps its fingerprint.
  const auto moved = parse_clang_tidy("x.cpp:10:3: warning: m [c]\n  int  x = 0;\n  ^\n", "a.log");
  const auto original_place = parse_clang_tidy("x.cpp:99:7: warning: m [c]\n      int x=0;\n      ^\n", "a.log");
  REQUIRE(moved.size() == 1);
  REQUIRE(original_place.size() == 1);
  CHECK(moved[0].fingerprint_hex() == original_place[0].fingerprint_hex());

  parts.message = "other message";
  CHECK(LintFinding(parts).fingerprint_hex() != original);
}

TEST_CASE("parse_compiler_warnings reads GCC build logs", "[parse]") {
  const auto findings = parse_compiler_warnings_file(parse_fixture("build_gcc.log"));
  // warnings.cpp: -Wsign-compare, -Wunused-variable, -Wimplicit-fallthrough=;
  // strict.cpp: -Werror=unused-variable (an error). Notes, "In function" and
  // ninja's lines are not findings.
  REQUIRE(findings.size() == 4);
  const auto& sign = find(findings, sources + "warnings.cpp", 6, 21);
  CHECK(sign.tool() == "compiler");
  CHECK(checks_of(sign) == Strings{"-Wsign-compare"});
  // GCC's "    6 |" gutter is not part of the source line.
  CHECK(sign.source_line() == "for(inti=0;i<values.size();++i){");
  CHECK(sign.fingerprint_hex() == reference_fingerprint(sign));

  const auto& fallthrough = find(findings, sources + "warnings.cpp", 11, 13);
  CHECK(checks_of(fallthrough) == Strings{"-Wimplicit-fallthrough"});  // "-Wimplicit-fallthrough=" without "="
  CHECK(fallthrough.message() == "this statement may fall through");

  const auto& strict = find(findings, sources + "strict.cpp", 2, 7);
  CHECK(strict.severity() == Severity::error);
  CHECK(checks_of(strict) == Strings{"-Wunused-variable"});  // from "-Werror=unused-variable"
  CHECK(strict.source_line() == "intleftover=7;");
}

TEST_CASE("parse_compiler_warnings reads Clang build logs", "[parse]") {
  const auto findings = parse_compiler_warnings_file(parse_fixture("build_clang.log"));
  // warnings.cpp: 2 warnings; strict.cpp: 1 -Werror error; the driver's
  // location-less "clang: error: unknown argument" and "clang: warning: ...
  // [-Wignored-optimization-argument]": 2 + 1 + 2 = 5.
  REQUIRE(findings.size() == 5);
  const auto& strict = find(findings, sources + "strict.cpp", 2, 7);
  CHECK(strict.severity() == Severity::error);
  CHECK(checks_of(strict) == Strings{"-Wunused-variable"});  // from "-Werror,-Wunused-variable"
  CHECK(strict.source_line() == "intleftover=7;");
  CHECK(count_severity(findings, Severity::error) == 2);
  const auto location_less = hydra::test::count_if(findings, [](const LintFinding& f) { return f.file().empty(); });
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
    CHECK(findings[0].line() == 3);
    CHECK(findings[0].column() == 0);
    CHECK(findings[1].severity() == Severity::error);
    CHECK(findings[1].joined_checks().empty());
  }
  SECTION("bad input") {
    CHECK_THROWS_AS(parse_compiler_warnings(std::string("\0", 1), "build.log"), hydra::InputError);
  }
}

namespace {

/// Every field of every finding, in order, as one comparable value.
std::vector<std::string> describe(const std::vector<LintFinding>& findings) {
  std::vector<std::string> out;
  for (const auto& f : findings) {
    std::string text = std::string(f.tool()) + "|" + std::string(f.file()) + "|" + std::to_string(f.line()) + "|" +
                       std::to_string(f.column()) + "|" + std::string(hydra::model::to_string(f.severity())) + "|" +
                       std::string(f.message()) + "|" + std::string(f.joined_checks());
    out.push_back(text + "|" + std::string(f.source_line()) + "|" + f.fingerprint_hex());
  }
  return out;
}

/// Options that split even a tiny log into `threads` parts.
LintParseOptions split_into(std::size_t threads) {
  LintParseOptions options;
  options.threads = threads;
  options.min_bytes_per_thread = 1;
  return options;
}

}  // namespace

TEST_CASE("parse_clang_tidy gives the same findings however the log is split", "[parse]") {
  SECTION("valid input") {
    // The recorded logs, and a log whose quoted source lines look like
    // diagnostics, with header findings repeated in later parts.
    std::vector<std::pair<std::string, std::string>> logs;
    for (const char* name : {"clang_tidy.log", "clang_tidy_color.log", "clang_tidy_errors.log"})
      logs.emplace_back(name, read_parse_fixture(name));
    std::string tricky;
    for (int i = 0; i < 6; ++i) {
      tricky += "a.cpp:3:1: warning: label at end [check-a]\r\nerror: return 1;\r\n^\r\n";
      tricky += "b.hpp:" + std::to_string(i % 3 + 1) + ":2: warning: w [check-b]\n";
      tricky += "c.cpp:4:1: error: x [check-c]\n  c.cpp:9:9: warning: looks like one [q]\n  ^~~\n";
      tricky += "\x1b[1mb.hpp:1:2: warning: \x1b[0mw [check-b]\n   ^\n   ^\n";
    }
    logs.emplace_back("tricky", tricky);
    for (const auto& [name, log] : logs) {
      CAPTURE(name);
      const auto serial = describe(parse_clang_tidy(log, name, split_into(1)));
      REQUIRE(!serial.empty());
      for (std::size_t threads = 2; threads <= 12; ++threads) {
        CAPTURE(threads);
        CHECK(describe(parse_clang_tidy(log, name, split_into(threads))) == serial);
      }
    }
    // The recorded fixture: 12 findings (see "parse_clang_tidy reads clang-tidy
    // output"), also when its translation units are read by different threads.
    CHECK(parse_clang_tidy(read_parse_fixture("clang_tidy.log"), "tidy.log", split_into(3)).size() == 12);

    const std::string build_log = read_parse_fixture("build_gcc.log");
    const auto serial = describe(parse_compiler_warnings(build_log, "build.log", split_into(1)));
    for (std::size_t threads = 2; threads <= 12; ++threads) {
      CAPTURE(threads);
      CHECK(describe(parse_compiler_warnings(build_log, "build.log", split_into(threads))) == serial);
    }
  }
  SECTION("bad input") {
    // The first problem of the whole log is reported, whichever part holds
    // it; a NUL byte anywhere comes before invalid UTF-8.
    std::string log;
    for (int i = 0; i < 40; ++i) log += "a.cpp:" + std::to_string(i + 1) + ":1: warning: w [c]\n";
    std::string late_latin1 = log;
    late_latin1.replace(late_latin1.size() - 6, 1, "\xe9");  // the "w" of line 40, column 22
    std::string two_problems = log;
    two_problems.replace(30, 1, "\xe9");  // line 2 (line 1 is 26 bytes)
    two_problems.replace(two_problems.size() - 6, 1, std::string(1, '\0'));  // line 40, column 22
    for (std::size_t threads = 1; threads <= 6; ++threads) {
      CAPTURE(threads);
      try {
        parse_clang_tidy(late_latin1, "tidy.log", split_into(threads));
        FAIL("expected an InputError");
      } catch (const hydra::InputError& error) {
        CHECK(error.line() == 40);
        CHECK(error.column() == 22);  // "a.cpp:40:1: warning: " is 21 bytes
        CHECK_THAT(error.message(), Catch::Contains("UTF-8"));
      }
      try {
        parse_clang_tidy(two_problems, "tidy.log", split_into(threads));
        FAIL("expected an InputError");
      } catch (const hydra::InputError& error) {
        CHECK(error.line() == 40);
        CHECK(error.column() == 22);
        CHECK_THAT(error.message(), Catch::Contains("NUL"));
      }
    }
  }
}

TEST_CASE("parse_clang_tidy strips ANSI colour in logs of many blocks", "[parse]") {
  // The recorded logs 40 times over (~200 KB, the text is checked in blocks
  // of 16 KB), each copy under its own directory so none is a duplicate.
  const auto copies = [](const std::string& log) {
    std::string out;
    for (int copy = 0; copy < 40; ++copy) {
      std::string text = log;
      const std::string from = "/tmp/hydra-parse-record/";
      const std::string to = "/tmp/copy-" + std::to_string(copy) + "/";
      for (auto at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
        text.replace(at, from.size(), to);
      out += text;
    }
    return out;
  };
  const std::string plain = copies(read_parse_fixture("clang_tidy.log"));
  const std::string colour = copies(read_parse_fixture("clang_tidy_color.log"));
  const auto expected = describe(parse_clang_tidy(plain, "plain.log", split_into(1)));
  CHECK(expected.size() == 40 * 12);  // 12 findings per copy
  for (std::size_t threads = 1; threads <= 3; ++threads) {
    CAPTURE(threads);
    CHECK(describe(parse_clang_tidy(colour, "colour.log", split_into(threads))) == expected);
  }
}

TEST_CASE("parse_clang_tidy_file reads the file mapped into memory", "[parse]") {
  SECTION("valid input") {
    const hydra::util::TempDir directory("hydra-lint");
    const auto empty = directory.path() / "empty.log";
    std::ofstream(empty).close();
    CHECK(parse_clang_tidy_file(empty).empty());
    CHECK(parse_compiler_warnings_file(empty).empty());
  }
  SECTION("bad input") {
    const hydra::util::TempDir directory("hydra-lint");
    const auto missing = directory.path() / "missing.log";
    try {
      parse_clang_tidy_file(missing);
      FAIL("expected an InputError");
    } catch (const hydra::InputError& error) {
      CHECK(error.file() == missing.string());
      CHECK_THAT(error.message(), Catch::Contains("no such file"));
    }
    try {
      parse_compiler_warnings_file(directory.path());
      FAIL("expected an InputError");
    } catch (const hydra::InputError& error) {
      CHECK(error.file() == directory.path().string());
      CHECK_THAT(error.message(), Catch::Contains("directory"));
    }
  }
}

TEST_CASE("LintFinding keeps its parts apart in one text", "[parse]") {
  LintFinding::Parts parts;
  parts.tool = "clang-tidy";
  parts.file = "/src/project/a.cpp";
  parts.line = 7;
  parts.column = 3;
  parts.severity = Severity::error;
  parts.message = "use nullptr";
  parts.checks = "modernize-use-nullptr,hicpp-use-nullptr";
  parts.source_line = "int*p=0;";
  LintFinding finding(parts);
  CHECK(finding.tool() == "clang-tidy");
  CHECK(finding.file() == "/src/project/a.cpp");
  CHECK(finding.line() == 7);
  CHECK(finding.column() == 3);
  CHECK(finding.severity() == Severity::error);
  CHECK(finding.message() == "use nullptr");
  CHECK(checks_of(finding) == Strings{"modernize-use-nullptr", "hicpp-use-nullptr"});
  CHECK(finding.source_line() == "int*p=0;");
  CHECK(finding.fingerprint_bytes() ==
        "clang-tidy\x1f/src/project/a.cpp\x1fmodernize-use-nullptr,hicpp-use-nullptr\x1fuse nullptr\x1fint*p=0;");
  CHECK(finding.fingerprint_hex() == reference_fingerprint(finding));

  SECTION("set_file replaces the file and the fingerprint follows") {
    const std::string before = finding.fingerprint_hex();
    finding.set_file(finding.file().substr(std::string_view("/src/project/").size()));  // a view into itself
    CHECK(finding.file() == "a.cpp");
    CHECK(finding.message() == "use nullptr");
    CHECK(finding.line() == 7);
    CHECK(checks_of(finding) == Strings{"modernize-use-nullptr", "hicpp-use-nullptr"});
    CHECK(finding.source_line() == "int*p=0;");
    CHECK(finding.fingerprint_hex() != before);
    parts.file = "a.cpp";
    CHECK(finding.fingerprint() == LintFinding(parts).fingerprint());
  }
  SECTION("empty parts") {
    const LintFinding empty;
    CHECK(empty.tool().empty());
    CHECK(empty.file().empty());
    CHECK(empty.checks().empty());
    CHECK(empty.message().empty());
    CHECK(empty.source_line().empty());
    CHECK(empty.fingerprint() == LintFinding(LintFinding::Parts{}).fingerprint());
    CHECK(empty.fingerprint_bytes() == "\x1f\x1f\x1f\x1f");
  }
}

TEST_CASE("stripping an escape never cuts a UTF-8 character in two", "[parse][hostile]") {
  // Found by fuzzing (tests/fuzz/crashes/compiler_warnings/): GCC's quotes
  // around a stray ESC byte, "‘ ESC ’". ESC and "the one character after it"
  // took only the first byte of "’", leaving invalid UTF-8 in the message,
  // which then could not be written as JSON.
  const std::string log = "src/a.cpp:1:22: error: expected \xE2\x80\x98\x1b\xE2\x80\x99 before \xE2\x80\x98}\xE2\x80\x99 token\n";
  for (const auto& findings : {parse_compiler_warnings(log, "build.log"), parse_clang_tidy(log, "lint.log")}) {
    REQUIRE(findings.size() == 1);
    // ESC and the whole "’" after it are removed.
    CHECK(findings[0].message() == "expected \xE2\x80\x98 before \xE2\x80\x98}\xE2\x80\x99 token");
  }
}
