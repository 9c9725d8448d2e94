#include <catch2/catch.hpp>

#include <map>
#include <string>

#include <hydra/error.hpp>
#include <hydra/parse/ctest_json.hpp>
#include <hydra/parse/junit.hpp>

#include "parse/parse_fixtures.hpp"

using hydra::model::TestDefinition;
using hydra::parse::parse_ctest_json;
using hydra::parse::parse_ctest_json_file;
using hydra::test::parse_fixture;
using Strings = std::vector<std::string>;

namespace {

std::map<std::string, TestDefinition> by_name(const std::vector<TestDefinition>& definitions) {
  std::map<std::string, TestDefinition> out;
  for (const auto& definition : definitions) out.emplace(definition.name, definition);
  return out;
}

hydra::InputError error_of(const std::string& json) {
  try {
    parse_ctest_json(json, "tests.json");
  } catch (const hydra::InputError& error) {
    return error;
  }
  FAIL("expected an InputError");
  throw;  // unreachable
}

}  // namespace

TEST_CASE("parse_ctest_json reads ctest --show-only=json-v1", "[parse]") {
  SECTION("valid input") {
    const auto definitions = parse_ctest_json_file(parse_fixture("ctest_show_only.json"));
    REQUIRE(definitions.size() == 10);
    const auto tests = by_name(definitions);
    const std::string build = "/tmp/hydra-parse-record/build-gcc";

    const auto& add = tests.at("math.add");
    CHECK(add.command == Strings{build + "/unit_tests", "add"});
    // LABELS "unit;fast;unit" in CMakeLists.txt: sorted and unique.
    CHECK(add.labels == Strings{"fast", "unit"});
    CHECK(add.working_directory == build);
    CHECK_FALSE(add.disabled);
    CHECK_FALSE(add.will_fail);
    CHECK_FALSE(add.skip_return_code.has_value());

    // ctest could not find the executable: no "command" at all.
    CHECK(tests.at("tool.missing").command.empty());
    CHECK(tests.at("tool.missing").labels == Strings{"integration"});
    CHECK(tests.at("data.required").labels == Strings{"data", "integration"});
    CHECK(tests.at("math.disabled").disabled);
    CHECK(tests.at("math.skipped").skip_return_code == 77);
    CHECK(tests.at("math.skipped").labels == Strings{"slow", "unit"});
    CHECK(tests.at("math.expected_failure").will_fail);
    CHECK(tests.at("output.skip_regex").skip_regular_expression == Strings{"SKIPPED:"});

    const auto& regex = tests.at("output.regex");
    CHECK(regex.pass_regular_expression == Strings{"sum=5", "total=5"});
    CHECK(regex.fail_regular_expression == Strings{"ERROR"});
    CHECK(regex.working_directory == "/tmp/hydra-parse-record/src-tree");

    CHECK(tests.count("escape<&>\"name") == 1);
  }
  SECTION("bad input") {
    const auto syntax = error_of("{\n  \"kind\": \"ctestInfo\",\n  \"tests\": [,]\n}");
    CHECK(syntax.file() == "tests.json");
    CHECK(syntax.line() == 3);
    CHECK(syntax.column() == 13);  // the ","
    CHECK_THAT(syntax.message(), Catch::StartsWith("malformed JSON"));

    CHECK_THAT(error_of("[]").message(), Catch::Contains("ctestInfo"));
    CHECK_THAT(error_of(R"({"kind": "ctestInfo", "version": {"major": 2, "minor": 0}, "tests": []})").message(),
               Catch::Contains("version"));
    CHECK_THAT(error_of(R"({"kind": "ctestInfo", "version": {"major": 1}, "tests": [{"name": "t",
        "properties": [{"name": "SKIP_RETURN_CODE", "value": "x"}]}]})")
                   .message(),
               Catch::Contains("test \"t\": SKIP_RETURN_CODE"));
    CHECK_THAT(error_of(R"({"kind": "ctestInfo", "version": {"major": 1}, "tests": [{"command": []}]})").message(),
               Catch::Contains("name"));
  }
}

TEST_CASE("apply_labels copies ctest labels onto CTest's JUnit tests", "[parse]") {
  auto tests = hydra::parse::parse_junit_file(parse_fixture("ctest_junit.xml"));
  const auto definitions = parse_ctest_json_file(parse_fixture("ctest_show_only.json"));
  hydra::parse::apply_labels(tests, definitions);
  std::map<std::string, Strings> labels;
  for (const auto& test : tests) labels[test.name] = test.labels;
  CHECK(labels.at("math.add") == Strings{"fast", "unit"});
  CHECK(labels.at("tool.missing") == Strings{"integration"});
  CHECK(labels.at("math.skipped") == Strings{"slow", "unit"});
  CHECK(labels.at("output.regex").empty());

  // Only suite "ctest" is matched; labels already present are merged.
  std::vector<hydra::model::TestCase> others(2);
  others[0].suite = "pytest";
  others[0].name = "math.add";
  others[1].suite = "ctest";
  others[1].name = "math.add";
  others[1].labels = {"zeta", "fast"};
  hydra::parse::apply_labels(others, definitions);
  CHECK(others[0].labels.empty());
  CHECK(others[1].labels == Strings{"fast", "unit", "zeta"});
}
