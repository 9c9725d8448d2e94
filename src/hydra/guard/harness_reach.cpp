// The harness-reach detector: an added line of C or C++ code that is no test
// and names a test framework's assertion macros, include guards, headers or
// namespaces, or the translation unit that includes it (__BASE_FILE__) (docs/threat-model.md, "Reaching into the test harness"). A
// detector of what the code says, beside the build-based checks (object
// references): a header that redefines an assertion macro changes only how
// the tests compile, which no object of the library shows.
#include <hydra/guard/guard.hpp>

#include <hydra/guard/diff_text.hpp>
#include <hydra/util/path_pattern.hpp>
#include <hydra/util/regex.hpp>

namespace hydra::guard {
using diff_text::is_c_family;
using diff_text::trimmed;
namespace {

/// The code of a line: without a `//` comment; empty for a comment line.
std::string_view code_of(std::string_view text) {
  const auto first = text.find_first_not_of(" \t");
  if (first == std::string_view::npos) return {};
  text = text.substr(first);
  if (text.substr(0, 2) == "/*" || text.substr(0, 1) == "*") return {};
  return text.substr(0, text.find("//"));
}

/// The added lines as the preprocessor reads them (translation phases 1-3,
/// as far as one line goes): lines continued by a backslash joined to the
/// next added line, block comments within a line made a space, and a
/// directive's `%:` digraph spelled `#`. Each keeps its first line's number.
std::vector<parse::ChangedLine> preprocessed_lines(const std::vector<parse::ChangedLine>& added) {
  std::vector<parse::ChangedLine> lines;
  bool continued = false;
  std::uint64_t last = 0;  // the physical line the last logical one ends on
  for (const auto& line : added) {
    const bool joined = continued && !lines.empty() && line.number == last + 1;
    last = line.number;
    if (joined) {
      lines.back().text += line.text;
    } else {
      lines.push_back(line);
    }
    std::string& text = lines.back().text;
    continued = !text.empty() && text.back() == '\\';
    if (continued) text.pop_back();
  }
  for (auto& line : lines) {
    std::string& text = line.text;
    for (auto open = text.find("/*"); open != std::string::npos; open = text.find("/*", open)) {
      const auto close = text.find("*/", open + 2);
      if (close == std::string::npos) break;
      text.replace(open, close + 2 - open, " ");
    }
    const auto first = text.find_first_not_of(" \t");
    if (first != std::string::npos && text.compare(first, 2, "%:") == 0) text.replace(first, 2, "#");
  }
  return lines;
}

}  // namespace

std::vector<std::string> find_harness_reach(const Settings& settings, const parse::DiffLines& diff) {
  // The frameworks' own identifiers: macro prefixes and include guards
  // (GoogleTest, doctest, Catch2, Boost.Test).
  static const util::Regex framework_macro(
      R"(^#\s*(define|undef|ifdef|ifndef|if|elif)\b.*\b(GTEST_|GMOCK_|GOOGLETEST_|DOCTEST_|CATCH_|INTERNAL_CATCH_|)"
      R"(TWOBLUECUBES_|BOOST_TEST|BOOST_CHECK|BOOST_REQUIRE)\w*)");
  // Taking away the assertion macros the frameworks define.
  static const util::Regex undefined_assertion(
      R"(^#\s*undef\s+(CHECK|REQUIRE|WARN|FAIL|SUCCEED|TEST|TEST_F|TEST_P|TEST_CASE|SECTION|SUBCASE|)"
      R"((CHECK|REQUIRE|EXPECT|ASSERT|WARN)_\w+)\b)");
  static const util::Regex defined_assertion(R"(^#\s*define\s+(EXPECT|ASSERT)_(TRUE|FALSE|EQ|NE|LT|LE|GT|GE|)"
                                             R"(STREQ|STRNE|THROW|NO_THROW|ANY_THROW|NEAR|DOUBLE_EQ|FLOAT_EQ|THAT)\b)");
  static const util::Regex framework_header(
      R"(^#\s*include\s*[<"](gtest/|gmock/|catch2/|catch\.hpp|doctest/|doctest\.h|boost/test/))");
  static const util::Regex framework_namespace(
      R"((^|[^\w:])(::)?(testing|Catch|doctest|boost::unit_test)::|\bnamespace\s+(testing|Catch|doctest)\b)");
  // Which translation unit includes the code (the main file's name, the
  // include depth): a header keyed on it compiles one way into the tests and
  // another into the library. __FILE__ (every assertion's message) is not read.
  static const util::Regex including_unit(R"(\b(__BASE_FILE__|__INCLUDE_LEVEL__|__builtin_FILE)\b)");
  std::vector<std::string> found;
  for (const parse::FileLines& file : diff.files) {
    if (file.deleted || !is_c_family(file.path)) continue;
    if (util::first_match(settings.test_file_globs, file.path) != nullptr) continue;
    for (const parse::ChangedLine& line : preprocessed_lines(file.added)) {
      const std::string_view code = code_of(line.text);
      if (code.empty()) continue;
      const char* what = nullptr;
      if (undefined_assertion.search(code) || defined_assertion.search(code))
        what = "redefines or undefines a test framework's assertion macro";
      else if (framework_macro.search(code))
        what = "names a test framework's macro or include guard";
      else if (framework_header.search(code))
        what = "includes a test framework's header";
      else if (framework_namespace.search(code))
        what = "names a test framework's namespace";
      else if (including_unit.search(code))
        what = "names the translation unit that includes it";
      if (!what) continue;
      const std::string text = trimmed(code);
      found.push_back(file.path + ":" + std::to_string(line.number) + ": " + what + " in code that is no test (" +
                      text.substr(0, 120) + ")");
    }
  }
  return found;
}

}  // namespace hydra::guard
