// The frame shared by the HTML reports: doctype, inline style sheet (screen
// and print), nothing fetched from the network.
#pragma once

#include <string>

namespace hydra::report {

/// Everything up to and including `<main>`: the page titled `title` (already
/// plain text; it is escaped here) with the shared style sheet.
std::string html_page_start(const std::string& title);

/// Closes what `html_page_start` opened, after a footer saying `footer_text`
/// (plain text; escaped here).
std::string html_page_end(const std::string& footer_text);

/// Fill colour for a 0..100 `score`: green from 80, amber from 50, red below.
std::string score_color(double score);

}  // namespace hydra::report
