// The self-contained HTML page of the score contract.
#include <hydra/report/report.hpp>

#include <hydra/report/contract.hpp>
#include <hydra/report/alerts.hpp>
#include <hydra/report/measured.hpp>
#include <hydra/report/flaky.hpp>
#include <hydra/report/html_page.hpp>
#include <hydra/report/text.hpp>

#include <algorithm>
#include <vector>

namespace hydra::report {

namespace {

/// Lists longer than this are cut; the JSON contract keeps everything.
constexpr std::size_t max_listed_rows = 200;

std::string px(double value) { return format_number(value, 1); }

double clamp_score(double score) { return std::clamp(score, 0.0, 100.0); }

std::string badge(bool mergeable) {
  return mergeable ? "<span class=\"badge ok\">✓ mergeable</span>" : "<span class=\"badge bad\">✗ not mergeable</span>";
}


/// Horizontal bars of every candidate's total, green when mergeable.
std::string ranking_chart(const ContractView& view) {
  constexpr double label_width = 210;
  constexpr double bar_width = 470;
  constexpr double row_height = 30;
  constexpr double top = 22;
  const double width = label_width + bar_width + 70;
  const double height = top + row_height * static_cast<double>(view.candidates.size()) + 8;
  std::string svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" role=\"img\" aria-label=\"Total score per candidate\" "
                    "width=\"" + px(width) + "\" height=\"" + px(height) + "\" viewBox=\"0 0 " + px(width) + " " +
                    px(height) + "\">\n";
  for (int tick = 0; tick <= 100; tick += 25) {
    const double x = label_width + bar_width * tick / 100.0;
    svg += "<line x1=\"" + px(x) + "\" y1=\"" + px(top - 4) + "\" x2=\"" + px(x) + "\" y2=\"" + px(height - 6) +
           "\" stroke=\"#d1d9e0\" stroke-width=\"1\"/>\n";
    svg += "<text x=\"" + px(x) + "\" y=\"12\" font-size=\"11\" fill=\"#59636e\" text-anchor=\"middle\">" +
           std::to_string(tick) + "</text>\n";
  }
  double y = top;
  for (const auto& candidate : view.candidates) {
    const double total = candidate.total ? clamp_score(*candidate.total) : 0.0;
    const std::string label = std::to_string(candidate.rank) + ". " + truncate_to_width(candidate.agent, 26);
    svg += "<g><title>" + escape_html(candidate.agent) + "</title>\n";
    svg += "<text x=\"" + px(label_width - 10) + "\" y=\"" + px(y + 19) +
           "\" font-size=\"14\" fill=\"#1f2328\" text-anchor=\"end\">" + escape_html(label) + "</text>\n";
    svg += "<rect x=\"" + px(label_width) + "\" y=\"" + px(y + 5) + "\" width=\"" + px(bar_width * total / 100.0) +
           "\" height=\"" + px(row_height - 10) + "\" rx=\"3\" fill=\"" +
           (candidate.mergeable ? "#2da44e" : "#cf222e") + "\"/>\n";
    svg += "<text x=\"" + px(label_width + bar_width * total / 100.0 + 6) + "\" y=\"" + px(y + 19) +
           "\" font-size=\"13\" font-weight=\"600\" fill=\"#1f2328\">" + format_optional(candidate.total) +
           "</text></g>\n";
    y += row_height;
  }
  return svg + "</svg>";
}

/// Horizontal bars of one candidate's dimension scores; inactive dimensions greyed.
std::string dimension_chart(const CandidateView& candidate) {
  constexpr double label_width = 86;
  constexpr double bar_width = 270;
  constexpr double row_height = 26;
  const double width = label_width + bar_width + 70;
  const double height = row_height * static_cast<double>(candidate.dimensions.size()) + 4;
  std::string svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" role=\"img\" aria-label=\"Score per dimension of " +
                    escape_html(candidate.agent) + "\" width=\"" + px(width) + "\" height=\"" + px(height) +
                    "\" viewBox=\"0 0 " + px(width) + " " + px(height) + "\">\n";
  double y = 2;
  for (const auto& dimension : candidate.dimensions) {
    const bool active = dimension.active && dimension.score;
    svg += "<text x=\"" + px(label_width - 8) + "\" y=\"" + px(y + 17) +
           "\" font-size=\"13\" fill=\"#1f2328\" text-anchor=\"end\">" + escape_html(dimension_label(dimension.name)) +
           "</text>\n";
    svg += "<rect x=\"" + px(label_width) + "\" y=\"" + px(y + 5) + "\" width=\"" + px(bar_width) + "\" height=\"" +
           px(row_height - 10) + "\" rx=\"3\" fill=\"#eef1f4\"/>\n";
    if (active) {
      const double score = clamp_score(*dimension.score);
      svg += "<rect x=\"" + px(label_width) + "\" y=\"" + px(y + 5) + "\" width=\"" + px(bar_width * score / 100.0) +
             "\" height=\"" + px(row_height - 10) + "\" rx=\"3\" fill=\"" + score_color(score) + "\"/>\n";
      svg += "<text x=\"" + px(label_width + bar_width + 8) + "\" y=\"" + px(y + 17) +
             "\" font-size=\"13\" font-weight=\"600\" fill=\"#1f2328\">" + format_number(*dimension.score) + "</text>\n";
    } else {
      svg += "<text x=\"" + px(label_width + bar_width + 8) + "\" y=\"" + px(y + 17) +
             "\" font-size=\"13\" fill=\"#59636e\">inactive</text>\n";
    }
    y += row_height;
  }
  return svg + "</svg>";
}

std::string evidence_html(const nlohmann::json& evidence) {
  std::string html;
  for (const auto& [key, value] : evidence.items()) {
    const std::string text =
        value.is_string() ? value.get<std::string>() : value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    html += "<span class=\"kv\"><span class=\"key\">" + escape_html(key) + "</span> " + escape_html(text) + "</span> ";
  }
  if (!html.empty()) html.pop_back();
  return html;
}

/// `omitted`: how many the contract itself left out (it lists at most 25,000).
std::string more_rows_note(std::size_t total, std::uint64_t omitted = 0) {
  if (total <= max_listed_rows) return "";
  return "<p class=\"meta\">…and " + std::to_string(total - max_listed_rows) + " more (" +
         (omitted > 0 ? "the JSON contract lists " + std::to_string(total - omitted) : std::string("see the JSON contract")) +
         ").</p>\n";
}

std::string findings_table(const std::string& title, const std::vector<FindingView>& findings,
                           std::uint64_t omitted) {
  if (findings.empty()) return "";
  const std::size_t total = findings.size() + omitted;
  std::string html = "<h3>" + escape_html(title) + " (" + std::to_string(total) + ")</h3>\n";
  html += "<table>\n<thead><tr><th>Location</th><th>Severity</th><th>Check</th><th>Message</th></tr></thead>\n<tbody>\n";
  for (std::size_t index = 0; index < findings.size() && index < max_listed_rows; ++index) {
    const auto& finding = findings[index];
    html += std::string(finding.severity == "error" ? "<tr class=\"failed\">" : "<tr>") + "<td class=\"mono\">" +
            escape_html(finding_location(finding)) + "</td><td>" + escape_html(finding.severity) +
            "</td><td class=\"mono\">" + escape_html(finding_checks(finding)) + "</td><td>" +
            escape_html(finding.message) + "</td></tr>\n";
  }
  return html + "</tbody>\n</table>\n" + more_rows_note(total, omitted);
}

std::string tests_table(const std::string& title, const std::vector<TestView>& tests, std::uint64_t omitted) {
  if (tests.empty()) return "";
  const std::size_t total = tests.size() + omitted;
  std::string html = "<h3>" + escape_html(title) + " (" + std::to_string(total) + ")</h3>\n";
  html += "<table>\n<thead><tr><th>Test</th><th>Status</th><th>Message</th></tr></thead>\n<tbody>\n";
  for (std::size_t index = 0; index < tests.size() && index < max_listed_rows; ++index) {
    const auto& test = tests[index];
    const bool failed = test.status == "failed" || test.status == "error";
    html += std::string(failed ? "<tr class=\"failed\">" : "<tr>") + "<td class=\"mono\">" + escape_html(test.id) +
            "</td><td>" + escape_html(test.status.empty() ? "-" : test.status) + "</td><td>" +
            escape_html(test.message) + "</td></tr>\n";
  }
  return html + "</tbody>\n</table>\n" + more_rows_note(total, omitted);
}

std::string gates_table(const CandidateView& candidate) {
  const auto& gates = candidate.gates.empty() ? candidate.gate_failures : candidate.gates;
  if (gates.empty()) return "<p class=\"meta\">No gates recorded.</p>\n";
  std::string html = "<table>\n<thead><tr><th>Gate</th><th>Result</th><th>Detail</th></tr></thead>\n<tbody>\n";
  for (const auto& gate : gates) {
    html += std::string(gate.passed ? "<tr>" : "<tr class=\"failed\">") + "<td class=\"mono gate\">" +
            escape_html(gate.gate) + "</td><td>" +
            (gate.passed ? "<span class=\"badge ok\">passed</span>" : "<span class=\"badge bad\">failed</span>") +
            "</td><td>" + escape_html(gate.detail) + "</td></tr>\n";
  }
  return html + "</tbody>\n</table>\n";
}

std::string candidate_section(const CandidateView& candidate) {
  std::string html = "<section class=\"card " + std::string(candidate.mergeable ? "ok" : "bad") + "\" id=\"candidate-" +
                     std::to_string(candidate.rank) + "\">\n";
  html += "<h2>" + std::to_string(candidate.rank) + ". " + escape_html(candidate.agent) + " — " +
          format_optional(candidate.total) + " " + badge(candidate.mergeable) + "</h2>\n";
  if (!candidate.run_path.empty()) html += "<p class=\"meta\">Run <code>" + escape_html(candidate.run_path) + "</code></p>\n";
  html += "<div class=\"grid\">\n<figure>\n" + dimension_chart(candidate) +
          "\n<figcaption>Score per dimension (0–100)</figcaption>\n</figure>\n<div>\n<h3>Gates</h3>\n" +
          gates_table(candidate) + "</div>\n</div>\n";
  html += "<h3>Evidence</h3>\n<table>\n<thead><tr><th>Dimension</th><th class=\"num\">Score</th>"
          "<th class=\"num\">Weight</th><th class=\"num\">Share</th><th>Evidence</th></tr></thead>\n<tbody>\n";
  for (const auto& dimension : candidate.dimensions) {
    const bool active = dimension.active && dimension.score;
    html += "<tr><td>" + escape_html(dimension_label(dimension.name)) + "</td><td class=\"num\">" +
            (active ? format_number(*dimension.score) : "-") + "</td><td class=\"num\">" +
            format_optional(dimension.weight) + "</td><td class=\"num\">" +
            (dimension.effective_weight ? format_percent(*dimension.effective_weight) : "-") + "</td>";
    if (active) {
      html += "<td>" + evidence_html(dimension.evidence) + "</td></tr>\n";
    } else {
      html += "<td class=\"muted\">inactive" + (dimension.reason.empty() ? "" : ": " + escape_html(dimension.reason)) +
              "</td></tr>\n";
    }
  }
  html += "</tbody>\n</table>\n";
  if (!candidate.resolved && !candidate.resolution_note.empty())
    html += "<p class=\"resolution\"><strong>Resolution:</strong> <span class=\"badge bad\">no verdict</span> " +
            escape_html(candidate.resolution_note) + "</p>\n";
  if (candidate.resolved) {
    html += "<p class=\"resolution\"><strong>Resolution:</strong> " +
            std::string(*candidate.resolved ? "<span class=\"badge ok\">resolved</span>"
                                            : "<span class=\"badge bad\">unresolved</span>") +
            " " + escape_html(resolution_text(candidate)) + " (acceptance tests: ";
    for (std::size_t index = 0; index < candidate.acceptance_tests.size(); ++index)
      html += (index ? ", " : "") + escape_html(candidate.acceptance_tests[index]);
    html += ")</p>\n";
  }
  if (!candidate.anti_gaming.empty()) {
    html += "<h4>Anti-gaming findings</h4>\n<ul>\n";
    for (const auto& line : candidate.anti_gaming) html += "<li>" + escape_html(line) + "</li>\n";
    html += "</ul>\n";
  }
  if (!candidate.sandbox.empty())
    html += "<p><span class=\"muted\">Protection while its code ran: " + escape_html(candidate.sandbox) + "</span></p>\n";
  if (!candidate.caches.empty())
    html += "<p><span class=\"muted\">Capture caches: " + escape_html(candidate.caches) + "</span></p>\n";
  if (!candidate.retried_alone.empty())
    html += "<p>Captured again alone: " + escape_html(candidate.retried_alone) + "</p>\n";
  html += findings_table("New lint findings", candidate.introduced_findings, candidate.introduced_findings_omitted);
  html += findings_table("Resolved lint findings", candidate.resolved_findings, candidate.resolved_findings_omitted);
  html += tests_table("Regressed tests", candidate.regressed_tests, candidate.regressed_tests_omitted);
  html += tests_table("Dropped tests", candidate.dropped_tests, candidate.dropped_tests_omitted);
  html += tests_table("Added tests", candidate.added_tests, candidate.added_tests_omitted);
  return html + "</section>\n";
}

}  // namespace

std::string render_html(const nlohmann::json& contract) {
  const ContractView view = read_contract(contract);
  std::string html = html_page_start("HydraScore report" + (view.run_id.empty() ? "" : " " + view.run_id));
  html += "<header>\n<h1>HydraScore report</h1>\n" + alerts_html(view.alerts) + "<p class=\"meta\">";
  if (!view.run_id.empty()) html += "Run <code>" + escape_html(view.run_id) + "</code> · ";
  html += std::to_string(view.candidates.size()) + (view.candidates.size() == 1 ? " candidate" : " candidates");
  if (view.baseline) html += " · " + escape_html(baseline_sentence(*view.baseline));
  html += "</p>\n</header>\n";
  html += nothing_measured_html(view);

  bool any_failure = false;
  for (const auto& candidate : view.candidates) any_failure = any_failure || !candidate.gate_failures.empty();
  if (any_failure) {
    html += "<section class=\"alert\" id=\"gate-failures\">\n<h2>Gate failures</h2>\n<ul>\n";
    for (const auto& candidate : view.candidates) {
      if (candidate.gate_failures.empty()) continue;
      html += "<li><a href=\"#candidate-" + std::to_string(candidate.rank) + "\"><strong>" +
              escape_html(candidate.agent) + "</strong></a>\n<ul>\n";
      for (const auto& failure : candidate.gate_failures) {
        html += "<li><code>" + escape_html(failure.gate) + "</code>" +
                (failure.detail.empty() ? "" : ": " + escape_html(failure.detail)) + "</li>\n";
      }
      html += "</ul>\n</li>\n";
    }
    html += "</ul>\n</section>\n";
  }

  html += "<section id=\"ranking\">\n<h2>Ranking</h2>\n";
  if (view.candidates.empty()) {
    html += "<p>No candidates were scored.</p>\n</section>\n";
  } else {
    html += "<table>\n<thead><tr><th class=\"num\">#</th><th>Agent</th><th class=\"num\">Total</th>";
    for (const auto& name : view.dimension_names) html += "<th class=\"num\">" + escape_html(dimension_label(name)) + "</th>";
    if (view.has_resolution) html += "<th>Resolved</th>";
    html += "<th>Mergeable</th></tr></thead>\n<tbody>\n";
    for (const auto& candidate : view.candidates) {
      html += std::string(candidate.mergeable ? "<tr>" : "<tr class=\"failed\">") + "<td class=\"num\">" +
              std::to_string(candidate.rank) + "</td><td><a href=\"#candidate-" + std::to_string(candidate.rank) +
              "\">" + escape_html(candidate.agent) + "</a></td><td class=\"num\"><strong>" +
              format_optional(candidate.total) + "</strong></td>";
      for (const auto& name : view.dimension_names) {
        const DimensionView* dimension = find_dimension(candidate, name);
        const bool active = dimension != nullptr && dimension->active && dimension->score;
        html += active ? "<td class=\"num\">" + format_number(*dimension->score) + "</td>"
                       : std::string("<td class=\"num muted\">-</td>");
      }
      if (view.has_resolution)
        html += !candidate.resolved ? std::string(candidate.resolution_note.empty()
                                                      ? "<td class=\"muted\">-</td>"
                                                      : "<td><span class=\"badge bad\">no verdict</span></td>")
                : *candidate.resolved ? std::string("<td><span class=\"badge ok\">✓ resolved</span></td>")
                                      : std::string("<td><span class=\"badge bad\">✗ unresolved</span></td>");
      html += "<td>" + badge(candidate.mergeable) + "</td></tr>\n";
    }
    html += "</tbody>\n</table>\n<figure>\n" + ranking_chart(view) +
            "\n<figcaption>Total score (0–100); green bars are mergeable, red ones failed a gate. "
            "Inactive dimensions (-) were renormalized out.</figcaption>\n</figure>\n</section>\n";
  }

  html += flaky_tests_html(contract);
  for (const auto& candidate : view.candidates) html += candidate_section(candidate);
  std::string footer = "Rendered from the score contract";
  if (!view.schema.empty()) footer += " (" + view.schema + ")";
  if (!view.engine_version.empty()) footer += " written by HydraScore " + view.engine_version;
  return html + html_page_end(footer + ".");
}

}  // namespace hydra::report
