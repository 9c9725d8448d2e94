#include <textstats/textstats.hpp>

#include "check.hpp"

namespace {

void words_and_bytes() {
  const textstats::TextCounts counts = textstats::count("The cat sat.\nThe end.\n");
  CHECK_EQ(counts.words, 5U);
  CHECK_EQ(counts.bytes, 22U);
}

void lines_with_trailing_newline() {
  CHECK_EQ(textstats::count_lines("one\ntwo\n"), 2U);
}

void lines_without_trailing_newline() {
  CHECK_EQ(textstats::count_lines("one\ntwo"), 2U);
  CHECK_EQ(textstats::count("first line\nsecond line").lines, 2U);
}

void empty_text() {
  const textstats::TextCounts counts = textstats::count("");
  CHECK_EQ(counts.lines, 0U);
  CHECK_EQ(counts.words, 0U);
  CHECK_EQ(counts.bytes, 0U);
}

}  // namespace

int main(int argc, char** argv) {
  return textstats_test::run_test_case(argc, argv, {
      {"words_and_bytes", words_and_bytes},
      {"lines_with_trailing_newline", lines_with_trailing_newline},
      {"lines_without_trailing_newline", lines_without_trailing_newline},
      {"empty_text", empty_text},
  });
}
