#include <hydra/report/text.hpp>

#include <array>
#include <charconv>
#include <cmath>

namespace hydra::report {

std::string format_number(double value, int decimals) {
  if (!std::isfinite(value)) return "-";
  const double scale = std::pow(10.0, decimals);
  double rounded = std::round(value * scale) / scale;
  if (rounded == 0.0) rounded = 0.0;  // no "-0"
  std::array<char, 64> buffer{};
  const auto result = std::to_chars(buffer.data(), buffer.data() + buffer.size(), rounded,
                                    std::chars_format::fixed, decimals);
  std::string text(buffer.data(), result.ptr);
  if (text.find('.') != std::string::npos) {
    while (text.back() == '0') text.pop_back();
    if (text.back() == '.') text.pop_back();
  }
  return text;
}

std::string format_optional(const std::optional<double>& value, const std::string& missing) {
  return value ? format_number(*value) : missing;
}

std::string format_percent(double fraction) {
  return format_number(fraction * 100.0, 1) + "%";
}

std::string sanitize_terminal(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    out += (byte < 0x20 || byte == 0x7f) ? '?' : c;
  }
  return out;
}

std::string escape_html(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default: {
        const auto byte = static_cast<unsigned char>(c);
        // Control characters other than tab and line breaks are not allowed in HTML text.
        out += (byte < 0x20 && c != '\t' && c != '\n' && c != '\r') || byte == 0x7f ? '?' : c;
      }
    }
  }
  return out;
}

std::string escape_markdown(std::string_view text) {
  // Punctuation that means something inline: emphasis, code, links, tables,
  // strike-through, mentions, math, issue references.
  static constexpr std::string_view punctuation = "\\`*_[]|~@$!#";
  std::string out;
  out.reserve(text.size() + text.size() / 4);
  for (const char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\n':
      case '\r':
      case '\t': out += ' '; break;
      default: {
        const auto byte = static_cast<unsigned char>(c);
        if (byte < 0x20 || byte == 0x7f) {
          out += '?';
        } else {
          if (punctuation.find(c) != std::string_view::npos) out += '\\';
          out += c;
        }
      }
    }
  }
  return out;
}

std::size_t display_width(std::string_view text) {
  std::size_t width = 0;
  for (const char c : text) {
    if ((static_cast<unsigned char>(c) & 0xC0) != 0x80) ++width;  // not a continuation byte
  }
  return width;
}

std::string truncate_to_width(std::string_view text, std::size_t width) {
  if (display_width(text) <= width) return std::string(text);
  if (width <= 3) return std::string(width, '.');
  std::size_t columns = 0;
  std::size_t end = 0;
  while (end < text.size()) {
    std::size_t next = end + 1;
    while (next < text.size() && (static_cast<unsigned char>(text[next]) & 0xC0) == 0x80) ++next;
    if (columns + 1 > width - 3) break;
    ++columns;
    end = next;
  }
  return std::string(text.substr(0, end)) + "...";
}

std::string finding_location(const FindingView& finding) {
  if (finding.file.empty()) return "(no location)";
  std::string location = finding.file;
  if (finding.line > 0) {
    location += ":" + std::to_string(finding.line);
    if (finding.column > 0) location += ":" + std::to_string(finding.column);
  }
  return location;
}

std::string finding_checks(const FindingView& finding) {
  if (finding.checks.empty()) return "-";
  std::string joined;
  for (const auto& check : finding.checks) {
    if (!joined.empty()) joined += ", ";
    joined += check;
  }
  return joined;
}

}  // namespace hydra::report
