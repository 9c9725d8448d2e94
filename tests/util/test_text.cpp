#include <catch2/catch.hpp>

#include <string>
#include <string_view>
#include <vector>

#include <hydra/util/text.hpp>

using hydra::util::split;
using Fields = std::vector<std::string_view>;

TEST_CASE("split gives the fields between separators", "[util]") {
  using namespace std::string_view_literals;
  CHECK(split("", '\n').empty());
  CHECK(split("a", '\n') == Fields{"a"});
  CHECK(split("a\nb\n", '\n') == Fields{"a", "b"});  // a final separator ends the last field
  CHECK(split("a\n\nb", '\n') == Fields{"a", "", "b"});  // empty fields in between stay: line k is field k-1
  CHECK(split("\n", '\n') == Fields{""});
  CHECK(split("M\0src/a.cpp\0R100\0old\0new\0"sv, '\0') == Fields{"M", "src/a.cpp", "R100", "old", "new"});
}
