// The diff detectors on the lines a candidate can write: any length. With
// std::regex, an alternation under a star (option()'s quoted help text) was
// matched by recursion, one stack frame per character; RE2 matches in linear
// time without recursion.
#include <catch2/catch.hpp>

#include <string>

#include <hydra/guard/guard.hpp>

namespace guard = hydra::guard;

TEST_CASE("the diff detectors read 4 MB lines without recursion", "[guard][hostile]") {
  const std::string filler(4 * 1024 * 1024, 'a');
  hydra::parse::DiffLines diff;
  hydra::parse::FileLines file;
  file.path = file.old_path = "CMakeLists.txt";
  // A removed option() with a 4 MB help text, still found by name; and long
  // lines that hold no suppression and no assertion.
  file.removed = {{1, "option(BUILD_TESTING \"" + filler + "\" ON)"}};
  file.added = {{1, "set(X \"" + filler + "\")"}, {2, filler + " NOLINT"}};
  diff.files.push_back(file);

  const auto evidence = guard::find_tests_not_built(diff, 10, 10);
  REQUIRE(evidence.size() == 1);
  CHECK(evidence[0].rfind("CMakeLists.txt:1: option BUILD_TESTING (default ON) removed", 0) == 0);
  const auto suppressions = guard::find_added_suppressions(diff);
  REQUIRE(suppressions.size() == 1);
  CHECK(suppressions[0].line == 2);
  CHECK_FALSE(guard::is_assertion_line(filler + "CHECK"));
  CHECK(guard::is_assertion_line(filler + " CHECK(x)"));
}
