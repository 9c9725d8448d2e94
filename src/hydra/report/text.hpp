// Text helpers shared by the renderers: number formatting that does not
// depend on the locale, and escaping of user-controlled strings per format.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include <hydra/report/contract.hpp>

namespace hydra::report {

/// `value` rounded to at most `decimals` decimals, without trailing zeros
/// ("96.95", "93.8", "100"); independent of the locale.
std::string format_number(double value, int decimals = 2);

/// `format_number(*value)`, or `missing` when `value` is empty.
std::string format_optional(const std::optional<double>& value, const std::string& missing = "-");

/// `fraction` (0..1) as a percentage with at most one decimal: 0.352941 -> "35.3%".
std::string format_percent(double fraction);

/// `text` with control characters (ANSI escapes included) replaced by '?' so
/// that a user's string cannot move the cursor or recolour a terminal.
std::string sanitize_terminal(std::string_view text);

/// `text` safe in HTML text and in quoted attribute values (& < > " ').
std::string escape_html(std::string_view text);

/// `text` as literal inline Markdown, safe inside a GFM table cell: HTML
/// special characters become entities, Markdown punctuation is
/// backslash-escaped (a pipe cannot end a cell), line breaks become spaces.
std::string escape_markdown(std::string_view text);

/// Columns `text` takes in a terminal: one per UTF-8 code point.
std::size_t display_width(std::string_view text);

/// `text` cut to at most `width` columns, ending in "..." when cut.
std::string truncate_to_width(std::string_view text, std::size_t width);

/// `finding`'s location as "file:line:column" (parts left out when unknown),
/// or "(no location)".
std::string finding_location(const FindingView& finding);

/// `finding`'s checks joined with ", ", or "-" when it has none.
std::string finding_checks(const FindingView& finding);

}  // namespace hydra::report
