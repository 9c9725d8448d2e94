// Internal to the lint log parser (parse/lint_log.cpp): checking a log is text (no NUL byte, valid UTF-8),
// eight bytes at a time while they are plain ASCII.
// Inline: the parser calls these once per line or per byte block.
#pragma once

#include <cstdint>
#include <cstring>
#include <string_view>

#include <hydra/util/utf8.hpp>

namespace hydra::parse::lint_detail {

constexpr std::size_t npos = std::string_view::npos;

/// Where a log stops being text: offsets of its first NUL byte and of its
/// first invalid UTF-8 sequence (npos when there is none).
struct TextProblems {
  std::size_t first_nul = npos;
  std::size_t first_invalid_utf8 = npos;
  bool any() const { return first_nul != npos || first_invalid_utf8 != npos; }
};

constexpr std::uint64_t every_byte_01 = 0x0101010101010101ULL;
constexpr std::uint64_t every_byte_80 = 0x8080808080808080ULL;
constexpr std::uint64_t every_byte_escape = every_byte_01 * 0x1b;

/// Non-zero when one of the eight bytes of `word` is 0.
inline std::uint64_t has_zero_byte(std::uint64_t word) { return (word - every_byte_01) & ~word & every_byte_80; }


/// Checks `log[from, to)` (`from` at the start of a line, `to` after a
/// newline or at the end of the log) for NUL bytes and invalid UTF-8, eight
/// bytes at a time while they are plain ASCII. Records the first problem in
/// `problems` and stops there. Returns whether the range holds an ESC byte
/// (ANSI colour).
inline bool check_text(std::string_view log, std::size_t from, std::size_t to, TextProblems& problems) {
  const auto* bytes = reinterpret_cast<const unsigned char*>(log.data());
  bool escape = false;
  std::size_t i = from;
  while (i < to) {
    if (i + 8 <= to) {
      std::uint64_t word;
      std::memcpy(&word, bytes + i, 8);  // byte order does not matter here
      if (((word & every_byte_80) | has_zero_byte(word) | has_zero_byte(word ^ every_byte_escape)) == 0) {
        i += 8;
        continue;
      }
    }
    const unsigned char c = bytes[i];
    if (c < 0x80) {
      if (c == 0) {
        problems.first_nul = i;
        return escape;
      }
      escape = escape || c == 0x1b;
      ++i;
      continue;
    }
    const std::size_t length = util::utf8_sequence_length(bytes, i, to);
    if (length == 0) {
      problems.first_invalid_utf8 = i;
      return escape;
    }
    i += length;
  }
  return escape;
}


}  // namespace hydra::parse::lint_detail
