#include <hydra/report/html_page.hpp>

#include <hydra/report/text.hpp>

namespace hydra::report {

namespace {

// System fonts only: the page must render offline and identically everywhere.
constexpr const char* style_sheet = R"css(
:root { --ok: #1a7f37; --bad: #cf222e; --warn: #9a6700; --muted: #59636e; --line: #d1d9e0; --alt: #f6f8fa; }
* { box-sizing: border-box; }
html { -webkit-print-color-adjust: exact; print-color-adjust: exact; }
body { margin: 0; color: #1f2328; background: #fff;
  font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; }
main { max-width: 1120px; margin: 0 auto; padding: 24px 32px 40px; }
h1 { font-size: 28px; margin: 0 0 4px; }
h2 { font-size: 21px; margin: 28px 0 12px; padding-bottom: 6px; border-bottom: 1px solid var(--line); }
h3 { font-size: 16px; margin: 20px 0 6px; }
p.meta { color: var(--muted); margin: 0; }
a { color: #0969da; text-decoration: none; }
table { border-collapse: collapse; width: 100%; margin: 6px 0 14px; font-size: 14px; }
th, td { border: 1px solid var(--line); padding: 5px 9px; text-align: left; vertical-align: top; overflow-wrap: anywhere; }
th { background: var(--alt); font-weight: 600; white-space: nowrap; }
td.gate { white-space: nowrap; }
th.num, td.num { text-align: right; white-space: nowrap; font-variant-numeric: tabular-nums; }
td.muted, span.muted { color: var(--muted); }
tr.failed td { background: #fff5f5; }
code, .mono { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace; font-size: 13px; }
.badge { display: inline-block; padding: 1px 10px; border-radius: 999px; font-size: 13px; font-weight: 600;
  vertical-align: middle; white-space: nowrap; }
.badge.ok { background: #dafbe1; color: var(--ok); border: 1px solid #aceebb; }
.badge.bad { background: #ffebe9; color: var(--bad); border: 1px solid #ffcecb; }
.badge.neutral { background: var(--alt); color: var(--muted); border: 1px solid var(--line); }
.alert { border: 2px solid var(--bad); background: #fff5f5; border-radius: 8px; padding: 10px 20px; margin: 20px 0; }
.alert h2 { color: var(--bad); border: 0; margin: 4px 0 6px; padding: 0; }
.alert ul { margin: 4px 0 8px; padding-left: 22px; }
.card { border: 1px solid var(--line); border-left: 6px solid var(--line); border-radius: 8px; padding: 2px 22px 10px; margin: 22px 0; }
.card.ok { border-left-color: var(--ok); }
.card.bad { border-left-color: var(--bad); }
.card h2 { border: 0; margin-top: 14px; }
.grid { display: grid; grid-template-columns: minmax(0, 430px) minmax(0, 1fr); gap: 24px; align-items: start; }
.kv { display: inline-block; margin-right: 12px; white-space: nowrap; }
.kv .key { color: var(--muted); }
figure { margin: 6px 0 12px; }
figcaption { color: var(--muted); font-size: 13px; }
svg { max-width: 100%; height: auto; }
svg text { font-family: system-ui, -apple-system, "Segoe UI", Roboto, Arial, sans-serif; }
footer { color: var(--muted); font-size: 13px; margin-top: 32px; border-top: 1px solid var(--line); padding-top: 8px; }
@media (max-width: 820px) { .grid { grid-template-columns: 1fr; } main { padding: 16px; } }
@media print {
  @page { margin: 14mm; }
  body { font-size: 10.5pt; }
  main { max-width: none; padding: 0; }
  a { color: inherit; }
  tr, figure, .alert { break-inside: avoid; }
  h2, h3 { break-after: avoid; }
  .grid { grid-template-columns: minmax(0, 5fr) minmax(0, 7fr); }
}
)css";

}  // namespace

std::string html_page_start(const std::string& title) {
  return "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
         "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
         "<title>" + escape_html(title) + "</title>\n<style>" + style_sheet + "</style>\n</head>\n<body>\n<main>\n";
}

std::string html_page_end(const std::string& footer_text) {
  return "<footer>" + escape_html(footer_text) + "</footer>\n</main>\n</body>\n</html>\n";
}

std::string score_color(double score) {
  if (score >= 80) return "#2da44e";
  if (score >= 50) return "#d4a72c";
  return "#cf222e";
}

}  // namespace hydra::report
