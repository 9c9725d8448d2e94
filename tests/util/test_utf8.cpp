// hydra::util::replace_invalid_utf8: invalid bytes from a candidate's files
// become U+FFFD, valid text is left alone.
#include <catch2/catch.hpp>

#include <string>

#include <nlohmann/json.hpp>

#include <hydra/util/utf8.hpp>

using hydra::util::replace_invalid_utf8;

TEST_CASE("replace_invalid_utf8 replaces each invalid byte by U+FFFD", "[util][utf8]") {
  const std::string fffd = "\xEF\xBF\xBD";
  SECTION("valid text is unchanged") {
    std::string text = "caf\xC3\xA9 \xF0\x9F\x98\x80 plain";
    const std::string before = text;
    CHECK(replace_invalid_utf8(text) == 0);
    CHECK(text == before);
  }
  SECTION("stray, truncated, overlong and surrogate sequences") {
    struct Case {
      std::string in;
      std::size_t replaced;
      std::string out;
    };
    const Case cases[] = {
        {"a\xFF" "b", 1, "a" + fffd + "b"},                  // never valid
        {"\x80", 1, fffd},                                  // stray continuation byte
        {"x\xC3", 1, "x" + fffd},                           // truncated at the end
        {"\xC0\xAF", 2, fffd + fffd},                       // overlong '/': two bytes, each invalid
        {"\xED\xA0\x80", 3, fffd + fffd + fffd},            // a surrogate (U+D800)
        {"\xE2\x82\xAC\xFE", 1, "\xE2\x82\xAC" + fffd},     // valid euro sign kept
    };
    for (const Case& c : cases) {
      std::string text = c.in;
      CAPTURE(c.in);
      CHECK(replace_invalid_utf8(text) == c.replaced);
      CHECK(text == c.out);
    }
  }
  SECTION("the result can always be written as JSON") {
    std::string text;
    for (int byte = 0; byte < 256; ++byte) text += static_cast<char>(byte);
    replace_invalid_utf8(text);
    CHECK_NOTHROW(nlohmann::json(text).dump());
  }
}
