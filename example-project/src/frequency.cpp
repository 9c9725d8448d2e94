#include <textstats/textstats.hpp>

#include <algorithm>
#include <map>

namespace textstats {
namespace {

bool ranks_before(const WordFrequency& left, const WordFrequency& right) {
  if (left.occurrences != right.occurrences) {
    return left.occurrences > right.occurrences;
  } else {
    return left.word < right.word;
  }
}

}  // namespace

std::vector<WordFrequency> top_words(std::string_view text, std::size_t limit) {
  std::map<std::string, std::size_t> occurrences_by_word;
  for (const std::string& word : split_words(text)) {
    ++occurrences_by_word[word];
  }

  std::vector<WordFrequency> ranked;
  for (const auto& [word, occurrences] : occurrences_by_word) {
    ranked.push_back(WordFrequency{word, occurrences});
  }
  std::sort(ranked.begin(), ranked.end(), ranks_before);
  if (ranked.size() > limit) {
    ranked.resize(limit);
  }
  return ranked;
}

}  // namespace textstats
