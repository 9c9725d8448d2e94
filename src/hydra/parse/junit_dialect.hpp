// The JUnit dialects of test frameworks' own reporters (docs/parsers.md,
// "Framework reports"): GoogleTest's XML (GTEST_OUTPUT=xml), Catch2's and
// doctest's JUnit reporters. The one JUnit reader (junit.hpp) walks every
// document; a dialect only says how a framework names its cases.
#pragma once

#include <optional>
#include <string_view>

#include <hydra/model/test.hpp>

namespace hydra::parse {

/// Who wrote a JUnit document.
enum class JunitDialect {
  generic,     ///< CTest's --output-junit and every other runner's JUnit
  googletest,  ///< GoogleTest's XML report
  catch2,      ///< Catch2's JUnit reporter (v2 and v3)
  doctest,     ///< doctest's JUnit reporter
};

/// "generic", "googletest", "catch2", "doctest".
std::string_view to_string(JunitDialect dialect) noexcept;
/// Inverse of `to_string`; nullopt for anything else.
std::optional<JunitDialect> junit_dialect_from_string(std::string_view text) noexcept;

/// What a framework's reporter writes about one testcase beyond the generic
/// reading (attributes as they are in the document; empty when absent).
struct DialectFields {
  std::string_view suite_name;   ///< the enclosing <testsuite>'s name
  std::string_view classname;    ///< the testcase's classname
  std::string_view value_param;  ///< GoogleTest: the value of a TEST_P case
  std::string_view type_param;   ///< GoogleTest: the type of a TYPED_TEST case
};

/// Names `test` (read generically: suite from classname, else the suite's
/// name) as its framework names it, parameters included:
///  - googletest: "Case/0 # GetParam() = 3", "Zero # TypeParam = int" (the
///    text `--gtest_list_tests` prints), suite as written ("Instance/Suite");
///  - catch2: the classname without the report's "<program>." prefix
///    ("global" for a TEST_CASE, the fixture for a TEST_CASE_METHOD); names
///    keep their sections ("case/section") and template types ("case - int");
///  - doctest: the classname (the source file as compiled, often an
///    absolute path) without its folders ("calc_test.cpp");
///  - generic: unchanged.
void apply_dialect(JunitDialect dialect, const DialectFields& fields, model::TestCase& test);

}  // namespace hydra::parse
