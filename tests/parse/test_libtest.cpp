#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include <hydra/error.hpp>
#include <hydra/parse/libtest.hpp>

#include "parse/parse_fixtures.hpp"

using hydra::model::TestCase;
using hydra::model::TestStatus;
using hydra::parse::LibtestResult;
using hydra::parse::parse_libtest;
using hydra::parse::parse_libtest_file;
using hydra::test::parse_fixture;
using Strings = std::vector<std::string>;

namespace {

const TestCase& find(const LibtestResult& result, const std::string& suite, const std::string& name) {
  for (const auto& test : result.tests)
    if (test.suite == suite && test.name == name) return test;
  FAIL("no test " << suite << "::" << name);
  throw;  // unreachable
}

std::size_t count_status(const LibtestResult& result, TestStatus status) {
  return hydra::test::count_if(result.tests, [status](const TestCase& test) { return test.status == status; });
}

hydra::InputError error_of(const std::string& log) {
  try {
    parse_libtest(log, "cargo-test.log");
  } catch (const hydra::InputError& error) {
    return error;
  }
  FAIL("expected an InputError");
  throw;  // unreachable
}

// No JSON messages in these logs: the crate (package) is the binary's name
// without its hash, an integration test's its own name.
const std::string lib = "fixture_crate/unittests src/lib.rs";
const std::string api = "api/tests/api.rs";
const std::string doc = "fixture_crate/doc-tests";

}  // namespace

TEST_CASE("parse_libtest reads cargo test output", "[parse][libtest]") {
  // tests/fixtures/parse/sources/rust, `cargo test --no-fail-fast` 2>&1 (cargo 1.95).
  const LibtestResult result = parse_libtest_file(parse_fixture("libtest.log"));
  CHECK(result.problems.empty());
  // 7 unit tests + 2 in tests/api.rs + 3 doc tests.
  REQUIRE(result.tests.size() == 12);
  // adds, divides_by_zero (should panic), doubles, doubles_negative, add
  // (line 5), add (line 13) (compile_fail).
  CHECK(count_status(result, TestStatus::passed) == 6);
  // fails, panics_with_message, returns_err, add (line 9).
  CHECK(count_status(result, TestStatus::failed) == 4);
  // slow, with_reason.
  CHECK(count_status(result, TestStatus::skipped) == 2);

  // In the order printed; the suite is the crate and the target as cargo names it.
  CHECK(result.tests[0].suite == lib);
  CHECK(result.tests[0].name == "tests::adds");
  CHECK(result.tests[7].suite == api);
  CHECK(result.tests[7].name == "doubles");
  CHECK(result.tests[11].suite == doc);
  // Doc tests without their lines: the doc tests of `add` in line order are
  // "add" (line 5), "add #2" (line 9), "add #3" (line 13); a rerun selects
  // each by the name as printed.
  CHECK(result.tests[11].name == "src/lib.rs - add #2");
  CHECK(result.tests[11].selector == "src/lib.rs - add (line 9)");
  // "test tests::divides_by_zero - should panic ... ok": the name without the mode.
  CHECK(result.tests[1].name == "tests::divides_by_zero");
  CHECK(result.tests[1].status == TestStatus::passed);
  // "test src/lib.rs - add (line 13) - compile fail ... ok".
  CHECK(result.tests[9].name == "src/lib.rs - add #3");
  CHECK(result.tests[9].selector == "src/lib.rs - add (line 13)");
  for (const auto& test : result.tests) CHECK(test.duration_seconds == 0.0);

  // The panic's message, the line after "thread '...' panicked at src/lib.rs:34:9:";
  // not the test's captured output before it.
  CHECK(find(result, lib, "tests::fails").message == "assertion `left == right` failed: one plus one");
  CHECK(find(result, lib, "tests::panics_with_message").message == "something went wrong: 42");
  // A test returning Err: no panic, libtest prints the error.
  CHECK(find(result, lib, "tests::returns_err").message == "Error: \"bad value\"");
  // A doc test: "Test executable failed (exit status: 101)." then the panic.
  CHECK(find(result, doc, "src/lib.rs - add #2").message == "assertion `left == right` failed: doc arithmetic");
  // #[ignore = "needs a network"]: the reason; a plain #[ignore] has none.
  CHECK(find(result, lib, "tests::with_reason").status == TestStatus::skipped);
  CHECK(find(result, lib, "tests::with_reason").message == "needs a network");
  CHECK(find(result, lib, "tests::slow").message.empty());
  CHECK(find(result, lib, "tests::adds").message.empty());
  CHECK(find(result, api, "doubles_negative").status == TestStatus::passed);
}

TEST_CASE("parse_libtest reads an older cargo and libtest (Debian's 1.63)", "[parse][libtest]") {
  // The same crate with /usr/bin/cargo 1.65 and rustc 1.63: the panic message
  // is quoted on the "panicked at" line, and a test returning Err prints
  // `Error: "bad value"` among the result lines (not a result, skipped).
  const LibtestResult result = parse_libtest_file(parse_fixture("libtest_debian.log"));
  CHECK(result.problems.empty());
  REQUIRE(result.tests.size() == 12);
  CHECK(count_status(result, TestStatus::passed) == 6);
  CHECK(count_status(result, TestStatus::failed) == 4);
  CHECK(count_status(result, TestStatus::skipped) == 2);
  // "thread 'tests::fails' panicked at 'assertion failed: `(left == right)`" (first line of three).
  CHECK(find(result, lib, "tests::fails").message == "assertion failed: `(left == right)`");
  // "panicked at 'something went wrong: 42', src/lib.rs:39:9": the message without the location.
  CHECK(find(result, lib, "tests::panics_with_message").message == "something went wrong: 42");
  CHECK(find(result, lib, "tests::returns_err").message == "assertion failed: `(left == right)`");
  CHECK(find(result, doc, "src/lib.rs - add #2").status == TestStatus::failed);
  CHECK(find(result, doc, "src/lib.rs - add").status == TestStatus::passed);
}

TEST_CASE("parse_libtest reports fake result lines and a binary that exits early", "[parse][libtest]") {
  // `cargo test --features fake-lines`: tests::prints_fake_lines writes
  // "test fake ... ok" and "test tests::fails ... ok" straight to stdout,
  // and tests/exits.rs's first test calls std::process::exit(0).
  const LibtestResult result = parse_libtest_file(parse_fixture("libtest_fake.log"));
  const Strings expected = {
      // The second "tests::fails" line (the forged "ok") after the real "FAILED".
      "fixture_crate/unittests src/lib.rs: \"tests::fails\" has more than one result",
      // 8 real result lines + 2 forged.
      "fixture_crate/unittests src/lib.rs: 10 results for \"running 8 tests\"",
      // Passed: adds, divides_by_zero, prints_fake_lines + the forged fake and tests::fails = 5.
      "fixture_crate/unittests src/lib.rs: \"test result:\" says 3 passed, 3 failed, 2 ignored, "
      "the result lines say 5 passed, 3 failed, 2 ignored",
      // The Doc-tests header comes while tests/exits.rs's section is still open.
      "exits/tests/exits.rs: no \"test result:\" line after \"running 2 tests\" (the test binary crashed or exited early)",
  };
  CHECK(result.problems == expected);
  // The first result of a name is kept: tests::fails stays failed.
  CHECK(find(result, lib, "tests::fails").status == TestStatus::failed);
  // "fake" is read as a test too; the problems say the section cannot be believed.
  CHECK(find(result, lib, "fake").status == TestStatus::passed);
  // 9 distinct names in src/lib.rs (8 + "fake"), 2 in tests/api.rs, none in
  // tests/exits.rs, 3 doc tests.
  CHECK(result.tests.size() == 14);
}

TEST_CASE("parse_libtest names suites as older cargos do", "[parse][libtest]") {
  const std::string log =
      "     Running target/debug/deps/mycrate-0123abcd4567ef89\n"
      "\n"
      "running 1 test\n"
      "test it_works ... ok\n"
      "\n"
      "test result: ok. 1 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out\n"
      "\n"
      "     Running `/work/target/debug/deps/api-0123abcd4567ef89`\n"
      "\n"
      "running 0 tests\n"
      "\n"
      "test result: ok. 0 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out\n";
  const LibtestResult result = parse_libtest(log, "cargo-test.log");
  CHECK(result.problems.empty());
  REQUIRE(result.tests.size() == 1);
  CHECK(result.tests[0].suite == "mycrate");  // the binary's name without -hash
  CHECK(result.tests[0].name == "it_works");
}

TEST_CASE("parse_libtest reports summaries and results out of place", "[parse][libtest]") {
  SECTION("a result line before any \"running N tests\"") {
    const LibtestResult result = parse_libtest("test lonely ... ok\n", "cargo-test.log");
    CHECK(result.tests.empty());
    CHECK(result.problems == Strings{"cargo-test.log: \"test lonely ... ok\" outside a test binary's output"});
  }
  SECTION("a summary without a section") {
    const LibtestResult result =
        parse_libtest("test result: ok. 0 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out\n", "x.log");
    REQUIRE(result.problems.size() == 1);
    CHECK(result.problems[0].find("without \"running N tests\" before it") != std::string::npos);
  }
  SECTION("an outcome libtest never prints") {
    const LibtestResult result = parse_libtest(
        "running 1 test\ntest a ... test b ... ok\nok\n\n"
        "test result: ok. 1 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out\n",
        "x.log");
    // The interleaved line is no result: 0 results for 1 announced, 0 passed for 1.
    const Strings expected = {
        "x.log: \"test a ... test b ... ok\" is not a result libtest prints",
        "x.log: 0 results for \"running 1 test\"",
        "x.log: \"test result:\" says 1 passed, 0 failed, 0 ignored, the result lines say 0 passed, 0 failed, 0 ignored",
    };
    CHECK(result.problems == expected);
  }
  SECTION("a log that ends inside a section") {
    const LibtestResult result = parse_libtest("   Doc-tests x\n\nrunning 3 tests\ntest a ... ok\n", "x.log");
    CHECK(result.tests.size() == 1);
    CHECK(result.problems ==
          Strings{"x/doc-tests: no \"test result:\" line after \"running 3 tests\" (the test binary crashed or exited early)"});
  }
}

TEST_CASE("parse_libtest rejects binary and non-UTF-8 input", "[parse][libtest]") {
  const auto nul = error_of(std::string("running 1 test\ntest a ... ok\0\n", 29));
  CHECK(nul.file() == "cargo-test.log");
  CHECK(nul.line() == 2);
  CHECK(nul.message().find("NUL") != std::string::npos);
  const auto invalid = error_of("running 1 test\ntest caf\xe9 ... ok\n");
  CHECK(invalid.file() == "cargo-test.log");
  CHECK(invalid.line() == 2);
  CHECK(invalid.message() == "invalid UTF-8");
  CHECK_THROWS_AS(parse_libtest_file(parse_fixture("no-such-libtest.log")), hydra::InputError);
}

TEST_CASE("parse_libtest reads coloured output", "[parse][libtest]") {
  // CARGO_TERM_COLOR=always cargo test --no-fail-fast -- --color always: cargo's
  // headers in CSI colour, libtest's outcomes as "ESC[32m ok ESC(B ESC[m".
  const LibtestResult coloured = parse_libtest_file(parse_fixture("libtest_color.log"));
  const LibtestResult plain = parse_libtest_file(parse_fixture("libtest.log"));
  CHECK(coloured.problems.empty());
  REQUIRE(coloured.tests.size() == plain.tests.size());
  // The same tests (in the order their threads finished, which may differ).
  for (const TestCase& test : plain.tests) {
    const TestCase& same = find(coloured, test.suite, test.name);
    CHECK(same.status == test.status);
    CHECK(same.message == test.message);
  }
}
