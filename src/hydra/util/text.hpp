// Splitting text into fields (lines of a log, NUL-separated git output),
// trimming it, and the prefix and suffix tests: the one copy of each that
// every part of HydraScore uses.
#pragma once

#include <string_view>
#include <vector>

namespace hydra::util {

/// The fields of `text` between `separator`s, as views into `text`. A
/// separator at the very end ends the last field (no empty field after it);
/// empty fields in between are kept, so field k of a line split is line k+1.
/// Empty text has no fields.
std::vector<std::string_view> split(std::string_view text, char separator);

/// `text` without the `characters` (by default white space: blanks, tabs,
/// line ends) at either end, as a view into `text`.
std::string_view trim(std::string_view text, std::string_view characters = " \t\r\n");

/// Whether `text` begins with `prefix`.
inline bool starts_with(std::string_view text, std::string_view prefix) {
  return text.size() >= prefix.size() && text.compare(0, prefix.size(), prefix) == 0;
}

/// Whether `text` ends with `suffix`.
inline bool ends_with(std::string_view text, std::string_view suffix) {
  return text.size() >= suffix.size() && text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

}  // namespace hydra::util
