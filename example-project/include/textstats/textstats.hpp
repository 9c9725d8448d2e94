// Counting a text's lines and words, and finding its most frequent words.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include <textstats/tokenize.hpp>

namespace textstats {

/// What `count` finds in a text.
struct TextCounts {
  std::size_t lines = 0;
  std::size_t words = 0;  ///< as split by `split_words`
  std::size_t bytes = 0;
};

/// The number of lines in `text`. Every '\n' ends a line, and a last line
/// without a trailing '\n' counts too: "a\nb" and "a\nb\n" both have 2 lines;
/// the empty text has none.
std::size_t count_lines(std::string_view text);

/// Lines, words and bytes of `text`.
TextCounts count(std::string_view text);

/// One word and how often it occurs.
struct WordFrequency {
  std::string word;
  std::size_t occurrences = 0;
};

/// The `limit` most frequent words of `text` (as split by `split_words`),
/// most frequent first; words that occur equally often in alphabetical order.
std::vector<WordFrequency> top_words(std::string_view text, std::size_t limit);

}  // namespace textstats
