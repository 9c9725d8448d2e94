#include <textstats/textstats.hpp>

#include <algorithm>

namespace textstats {

std::size_t count_lines(std::string_view text) {
  return static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n'));
}

TextCounts count(std::string_view text) {
  TextCounts counts;
  counts.lines = count_lines(text);
  counts.words = split_words(text).size();
  counts.bytes = text.size();
  return counts;
}

}  // namespace textstats
