// Test identity as each parser states it (docs/parsers.md): the runner's full
// path to a test (crate or file, suite, class, name, parameters), never a
// line number or the run order. Fixtures: tests/fixtures/identity/, recorded
// by its record.sh from real jest, node --test, pytest and cargo runs.
#include <catch2/catch.hpp>

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <vector>

#include <hydra/parse/cargo_targets.hpp>
#include <hydra/parse/junit.hpp>
#include <hydra/parse/libtest.hpp>

#include "parse/parse_fixtures.hpp"

using hydra::model::TestCase;
using hydra::model::TestStatus;
using hydra::parse::parse_junit;
using hydra::parse::parse_junit_file;
using hydra::parse::parse_libtest_file;

namespace {

std::filesystem::path identity_fixture(const std::string& name) {
  return std::filesystem::path(HYDRA_FIXTURES_DIR) / "identity" / name;
}

/// Identity -> status of every test; fails on a duplicated identity.
std::map<std::string, TestStatus> statuses(const std::vector<TestCase>& tests) {
  std::map<std::string, TestStatus> by_id;
  for (const auto& test : tests) {
    INFO(test.id());
    CHECK(by_id.emplace(test.id(), test.status).second);
  }
  return by_id;
}

/// Identity -> how many tests have it.
std::map<std::string, int> multiplicity(const std::vector<TestCase>& tests) {
  std::map<std::string, int> counts;
  for (const auto& test : tests) ++counts[test.id()];
  return counts;
}

}  // namespace

TEST_CASE("jest-junit under capture's settings: the file is the suite, todos are skipped", "[parse][identity]") {
  // alpha.test.js and beta.test.js share every test name; the run order
  // differs (a comment appended to beta made jest run it first).
  const auto alpha_first = parse_junit_file(identity_fixture("jest_capture_alpha_first.xml"));
  const auto beta_first = parse_junit_file(identity_fixture("jest_capture_beta_first.xml"));
  CHECK(alpha_first.front().suite == "test/alpha.test.js");
  CHECK(beta_first.front().suite == "test/beta.test.js");
  const auto by_id = statuses(alpha_first);
  // One identity per test, and the same identities and statuses in both orders.
  CHECK(by_id == statuses(beta_first));
  CHECK(by_id.size() == 9);  // 6 in alpha (2 todos, 1 skip), 3 in beta
  CHECK(by_id.at("test/beta.test.js::math > nested subtracts") == TestStatus::failed);
  CHECK(by_id.at("test/alpha.test.js::math > nested subtracts") == TestStatus::passed);
  CHECK(by_id.at("test/alpha.test.js::top level") == TestStatus::passed);
  // test.todo: marked by capture's properties module, a skip, never a pass.
  CHECK(by_id.at("test/alpha.test.js::writes the docs") == TestStatus::skipped);
  CHECK(by_id.at("test/alpha.test.js::handles overflow") == TestStatus::skipped);
  CHECK(by_id.at("test/alpha.test.js::skipped for now") == TestStatus::skipped);
}

TEST_CASE("jest-junit's defaults: tests of two files share identities, todos told apart when the count says which",
          "[parse][identity]") {
  // jest-junit's default classname is "{classname} {title}": the file is
  // nowhere in the document, so both files' tests have one identity each.
  const auto alpha_first = parse_junit_file(identity_fixture("jest_default_alpha_first.xml"));
  const auto counts = multiplicity(alpha_first);
  CHECK(counts.at("math adds::math adds") == 2);
  CHECK(counts.at("math nested subtracts::math nested subtracts") == 2);
  CHECK(counts.at("top level::top level") == 2);
  // alpha's <testsuite tests="4"> lists 6 testcases: 2 are todos, and its
  // only bare testcases with time="0" are those two.
  for (const std::string name : {"writes the docs", "handles overflow"}) {
    const auto found = std::find_if(alpha_first.begin(), alpha_first.end(),
                                    [&](const TestCase& test) { return test.name == name; });
    REQUIRE(found != alpha_first.end());
    CHECK(found->status == TestStatus::skipped);
    CHECK(found->message == "todo");
  }
}

TEST_CASE("jest-junit todos: an unmarked suite whose count does not single them out keeps them", "[parse][identity]") {
  // tests="1" for two bare, zero-time testcases: one is a todo, which one
  // cannot be told; neither is guessed.
  const auto tests = parse_junit(R"(<testsuites><testsuite name="s" tests="1">
      <testcase classname="f" name="a" time="0"></testcase>
      <testcase classname="f" name="b" time="0"></testcase></testsuite></testsuites>)",
                                 "jest.xml");
  REQUIRE(tests.size() == 2);
  CHECK(tests[0].status == TestStatus::passed);
  CHECK(tests[1].status == TestStatus::passed);
  // One bare zero-time testcase and one that took time: that one is the todo.
  const auto told = parse_junit(R"(<testsuites><testsuite name="s" tests="1">
      <testcase classname="f" name="a" time="0.004"></testcase>
      <testcase classname="f" name="b" time="0"></testcase></testsuite></testsuites>)",
                                "jest.xml");
  CHECK(told[0].status == TestStatus::passed);
  CHECK(told[1].status == TestStatus::skipped);
}

TEST_CASE("node --test's JUnit: top-level tests are read, describe blocks are part of the suite", "[parse][identity]") {
  SECTION("node's own reporter: classname \"test\" for every test") {
    const auto tests = parse_junit_file(identity_fixture("node_plain_base.xml"));
    const auto by_id = statuses(tests);
    // Three tests named "adds": top level, in `math`, in `math` > `inner`.
    CHECK(by_id == std::map<std::string, TestStatus>{{"test::adds", TestStatus::passed},
                                                     {"test > math::adds", TestStatus::passed},
                                                     {"test > math > inner::adds", TestStatus::passed}});
    // A new file with the same names: node writes nothing that names the
    // file, so its tests share identities with the old file's.
    const auto counts = multiplicity(parse_junit_file(identity_fixture("node_plain_new_file.xml")));
    CHECK(counts.at("test::adds") == 2);
    CHECK(counts.at("test > math::adds") == 2);
    CHECK(counts.at("test::later") == 1);
  }
  SECTION("HydraScore's reporter: the classname is the file") {
    const auto by_id = statuses(parse_junit_file(identity_fixture("node_hydra_new_file.xml")));
    CHECK(by_id.size() == 6);
    CHECK(by_id.at("test/alpha.test.js::adds") == TestStatus::failed);
    CHECK(by_id.at("test/beta.test.js::adds") == TestStatus::passed);
    CHECK(by_id.at("test/alpha.test.js > math::adds") == TestStatus::passed);
    CHECK(by_id.at("test/beta.test.js > math > inner::adds") == TestStatus::passed);
    // { todo: true }: <skipped type="todo">.
    CHECK(by_id.at("test/alpha.test.js::later") == TestStatus::skipped);
  }
  SECTION("top-level testcases outside node's layout are read too") {
    const auto tests = parse_junit(R"(<testsuites><testcase classname="c" name="top"><failure/></testcase>
        <testsuite name="s"><testcase name="inner"/></testsuite></testsuites>)",
                                   "other.xml");
    REQUIRE(tests.size() == 2);
    CHECK(tests[0].id() == "c::top");
    CHECK(tests[0].status == TestStatus::failed);
    CHECK(tests[1].id() == "s::inner");
  }
}

TEST_CASE("pytest: a teardown error belongs to its test, in either file order", "[parse][identity]") {
  const auto alpha_first = parse_junit_file(identity_fixture("pytest_alpha_first.xml"));
  const auto beta_first = parse_junit_file(identity_fixture("pytest_beta_first.xml"));
  // pytest wrote 8 testcases: test_fails_and_teardown_errors twice (its
  // failure, then its teardown's error). 7 tests: 5 in test_alpha, 2 in test_beta.
  REQUIRE(alpha_first.size() == 7);
  const auto by_id = statuses(alpha_first);
  CHECK(by_id == statuses(beta_first));
  // The failure stands (the test failed first), with its own message.
  const auto fails = std::find_if(alpha_first.begin(), alpha_first.end(), [](const TestCase& test) {
    return test.name == "test_fails_and_teardown_errors";
  });
  REQUIRE(fails != alpha_first.end());
  CHECK(fails->status == TestStatus::failed);
  CHECK(fails->message == "assert 1 == 2");
  // Passed, then its teardown errored: pytest writes one testcase, an error.
  CHECK(by_id.at("tests.test_alpha::test_passes_but_teardown_errors") == TestStatus::error);
  // Same test names in two modules stay apart; parameters are part of the name.
  CHECK(by_id.count("tests.test_alpha::test_plain") == 1);
  CHECK(by_id.count("tests.test_beta::test_plain") == 1);
  CHECK(by_id.count("tests.test_alpha::test_param[2]") == 1);

  SECTION("a test that passed, then its teardown errored, in a separate record") {
    const auto tests = parse_junit(R"(<testsuites><testsuite name="pytest">
        <testcase classname="m" name="t"/>
        <testcase classname="m" name="t"><error message="failed on teardown with &quot;E&quot;"/></testcase>
        </testsuite></testsuites>)",
                                   "pytest.xml");
    REQUIRE(tests.size() == 1);
    CHECK(tests[0].status == TestStatus::error);
    CHECK(tests[0].message == "failed on teardown with \"E\"");
  }
  SECTION("two records of one name that are not an error after a result stay two tests") {
    const auto tests = parse_junit(R"(<testsuites><testsuite name="s">
        <testcase classname="m" name="t"/><testcase classname="m" name="t"><failure/></testcase>
        </testsuite></testsuites>)",
                                   "twice.xml");
    CHECK(tests.size() == 2);
  }
}

TEST_CASE("cargo test: the crate is part of the suite, a doc test's line is not part of its name",
          "[parse][identity][libtest]") {
  SECTION("a workspace whose new crate has tests of the same names, with cargo's JSON messages") {
    const auto result = parse_libtest_file(identity_fixture("cargo_new_crate.log"));
    CHECK(result.problems.empty());
    const auto by_id = statuses(result.tests);
    CHECK(by_id.at("banner/unittests src/lib.rs::tests::it_works") == TestStatus::failed);
    CHECK(by_id.at("calc/unittests src/lib.rs::tests::it_works") == TestStatus::passed);
    // Integration tests: the binary is "api" in both crates; the JSON
    // messages map each binary to its package.
    CHECK(by_id.at("banner/tests/api.rs::api_works") == TestStatus::failed);
    CHECK(by_id.at("calc/tests/api.rs::api_works") == TestStatus::passed);
    CHECK(by_id.at("calc/doc-tests::calc/src/lib.rs - add") == TestStatus::passed);
    CHECK(by_id.at("calc/doc-tests::calc/src/lib.rs - add #2") == TestStatus::passed);
    CHECK(by_id.size() == 6);
  }
  SECTION("the same without JSON messages: unit tests by crate, integration tests by their binary") {
    const auto result = parse_libtest_file(identity_fixture("cargo_new_crate_plain.log"));
    CHECK(result.problems.empty());
    const auto counts = multiplicity(result.tests);
    CHECK(counts.at("banner/unittests src/lib.rs::tests::it_works") == 1);
    CHECK(counts.at("calc/unittests src/lib.rs::tests::it_works") == 1);
    // Both binaries are named "api": nothing in the log tells their crates apart.
    CHECK(counts.at("api/tests/api.rs::api_works") == 2);
  }
  SECTION("five lines added above the doc tests leave their identities") {
    const auto before = parse_libtest_file(identity_fixture("cargo_base.log"));
    const auto after = parse_libtest_file(identity_fixture("cargo_doc_lines.log"));
    CHECK(statuses(before.tests) == statuses(after.tests));
    // The first doc test of `add` (by line) keeps the bare name; a rerun
    // selects it by the name as printed.
    const auto first = std::find_if(after.tests.begin(), after.tests.end(),
                                    [](const TestCase& test) { return test.name == "calc/src/lib.rs - add"; });
    REQUIRE(first != after.tests.end());
    CHECK(first->selector == "calc/src/lib.rs - add (line 10)");  // (line 5) before the five lines
  }
}

TEST_CASE("cargo headers and JSON messages name packages", "[parse][identity][libtest]") {
  using hydra::parse::cargo_header;
  using hydra::parse::CargoPackages;
  const auto unit = cargo_header("     Running unittests src/lib.rs (target/debug/deps/my_crate-0123456789abcdef)");
  REQUIRE(unit);
  CHECK(unit->target == "unittests src/lib.rs");
  CHECK(unit->binary == "my_crate-0123456789abcdef");
  const auto doc = cargo_header("   Doc-tests my_crate");
  REQUIRE(doc);
  CHECK(doc->doc_crate == "my_crate");
  CHECK_FALSE(cargo_header("Running tests/api.rs (x)"));  // cargo right-aligns: a header starts with a space

  CargoPackages packages;
  CHECK(packages.suite_of(*unit) == "my_crate/unittests src/lib.rs");
  CHECK(packages.suite_of(*doc) == "my_crate/doc-tests");
  // The package's name from each form of package id cargo has printed.
  packages.read_message(R"({"reason":"compiler-artifact","package_id":"path+file:///w/dir#my-crate@0.1.0",)"
                        R"("target":{"kind":["lib"],"name":"my_crate"},"executable":null})");
  packages.read_message(R"({"reason":"compiler-artifact","package_id":"path+file:///w/my-crate#0.1.0",)"
                        R"("target":{"kind":["lib"],"name":"my_crate"},)"
                        R"("executable":"/abs/target/debug/deps/my_crate-0123456789abcdef"})");
  CHECK(packages.suite_of(*unit) == "my-crate/unittests src/lib.rs");
  CHECK(packages.suite_of(*doc) == "my-crate/doc-tests");
  CargoPackages old;
  old.read_message(R"json({"reason":"compiler-artifact","package_id":"other 1.0.0 (path+file:///w/x)",)json"
                   R"json("target":{"kind":["test"],"name":"api"},"executable":"/t/api-0123456789abcdef"})json");
  CHECK(old.suite_of(*cargo_header("     Running tests/api.rs (target/debug/deps/api-0123456789abcdef)")) ==
        "other/tests/api.rs");
  // Not JSON, or JSON of another kind: ignored.
  old.read_message("{not json");
  old.read_message(R"({"reason":"build-finished","success":true})");

  unsigned long line = 0;
  CHECK(hydra::parse::without_doc_test_line("src/lib.rs - add (line 3)", line) == "src/lib.rs - add");
  CHECK(line == 3);
  CHECK(hydra::parse::without_doc_test_line("tests::adds", line) == "tests::adds");
  CHECK(line == 0);
  CHECK(hydra::parse::without_doc_test_line("x (line 3a)", line) == "x (line 3a)");
}
