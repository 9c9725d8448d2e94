// UTF-8: the one decoder every text check of the tool uses.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace hydra::util {

/// Length of the valid UTF-8 sequence at `bytes[i]` (a byte >= 0x80) within
/// `bytes[0, size)`, or 0 when it is invalid: a stray continuation byte, a
/// truncated or overlong sequence, a surrogate or a code point past U+10FFFF
/// (RFC 3629). The one UTF-8 decoder of the tool.
inline std::size_t utf8_sequence_length(const unsigned char* bytes, std::size_t i, std::size_t size) {
  const unsigned char lead = bytes[i];
  std::size_t length = 0;
  std::uint32_t code = 0;
  if ((lead & 0xE0) == 0xC0) {
    length = 2;
    code = lead & 0x1F;
  } else if ((lead & 0xF0) == 0xE0) {
    length = 3;
    code = lead & 0x0F;
  } else if ((lead & 0xF8) == 0xF0) {
    length = 4;
    code = lead & 0x07;
  } else {
    return 0;
  }
  if (i + length > size) return 0;
  for (std::size_t k = 1; k < length; ++k) {
    if ((bytes[i + k] & 0xC0) != 0x80) return 0;
    code = (code << 6) | (bytes[i + k] & 0x3F);
  }
  const bool overlong = (length == 2 && code < 0x80) || (length == 3 && code < 0x800) ||
                        (length == 4 && code < 0x10000);
  if (overlong || code > 0x10FFFF || (code >= 0xD800 && code <= 0xDFFF)) return 0;
  return length;
}

/// U+FFFD REPLACEMENT CHARACTER, encoded.
inline constexpr const char* utf8_replacement = "\xEF\xBF\xBD";

/// Replaces each invalid UTF-8 sequence of `text` (as utf8_sequence_length
/// judges it: one maximal invalid byte at a time) by U+FFFD, so text read from
/// a candidate's files can always be written as JSON. Returns how many
/// replacements were made (0: `text` is unchanged).
inline std::size_t replace_invalid_utf8(std::string& text) {
  const auto* bytes = reinterpret_cast<const unsigned char*>(text.data());
  const std::size_t size = text.size();
  std::size_t i = 0;
  while (i < size && bytes[i] < 0x80) ++i;
  if (i == size) return 0;
  std::string out;
  std::size_t replaced = 0;
  out.reserve(size + 8);
  out.append(text, 0, i);
  while (i < size) {
    if (bytes[i] < 0x80) {
      out += static_cast<char>(bytes[i++]);
      continue;
    }
    const std::size_t length = utf8_sequence_length(bytes, i, size);
    if (length == 0) {
      out += utf8_replacement;
      ++replaced;
      ++i;
    } else {
      out.append(text, i, length);
      i += length;
    }
  }
  if (replaced > 0) text = std::move(out);
  return replaced;
}

}  // namespace hydra::util
