#include <textstats/tokenize.hpp>

#include "check.hpp"

namespace {

using Words = std::vector<std::string>;

void splits_on_whitespace_and_punctuation() {
  CHECK_EQ(textstats::split_words("Hello, world!\tHi--there."),
           Words{"hello", "world", "hi", "there"});
}

void keeps_inner_apostrophes() {
  CHECK_EQ(textstats::split_words("Don't 'quote' me"), Words{"don't", "quote", "me"});
}

void empty_text() {
  CHECK_EQ(textstats::split_words(""), Words{});
  CHECK_EQ(textstats::split_words(" \n\t ,.; "), Words{});
}

}  // namespace

int main(int argc, char** argv) {
  return textstats_test::run_test_case(argc, argv, {
      {"splits_on_whitespace_and_punctuation", splits_on_whitespace_and_punctuation},
      {"keeps_inner_apostrophes", keeps_inner_apostrophes},
      {"empty_text", empty_text},
  });
}
