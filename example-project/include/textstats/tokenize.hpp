// Splitting a text into words.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace textstats {

/// Splits `text` into lower-case words. A word is a run of ASCII letters and
/// digits; an apostrophe inside a word is kept ("don't"), one at either end of
/// a word is dropped ("'quoted'" gives "quoted"). Everything else separates
/// words.
std::vector<std::string> split_words(std::string_view text);

}  // namespace textstats
