#include <textstats/tokenize.hpp>

#include <cctype>

namespace textstats {
namespace {

bool is_word_character(char character) {
  return std::isalnum(static_cast<unsigned char>(character)) != 0;
}

char to_lower(char character) {
  return static_cast<char>(std::tolower(static_cast<unsigned char>(character)));
}

// Ends the word being collected in `word` (if any) and appends it to `words`.
void finish_word(std::string& word, std::vector<std::string>& words) {
  while (!word.empty() && word.back() == '\'') {
    word.pop_back();
  }
  if (!word.empty()) {
    words.push_back(word);
  }
  word.clear();
}

}  // namespace

std::vector<std::string> split_words(std::string_view text) {
  std::vector<std::string> words;
  std::string word;
  for (const char character : text) {
    if (is_word_character(character)) {
      word.push_back(to_lower(character));
    } else if (character == '\'' && !word.empty()) {
      word.push_back(character);
    } else {
      finish_word(word, words);
    }
  }
  finish_word(word, words);
  return words;
}

}  // namespace textstats
