// The terminal table and the colour decision.
#include <hydra/report/report.hpp>

#include <hydra/report/contract.hpp>
#include <hydra/report/measured.hpp>
#include <hydra/report/flaky.hpp>
#include <hydra/report/text.hpp>

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <string_view>
#include <vector>

namespace hydra::report {

namespace {

constexpr std::string_view ansi_reset = "\x1b[0m";
constexpr std::string_view ansi_bold = "\x1b[1m";
constexpr std::string_view ansi_red = "\x1b[31m";
constexpr std::string_view ansi_green = "\x1b[32m";
constexpr std::string_view ansi_dim = "\x1b[2m";

enum class Align { left, right };

/// One table cell: plain text (measured for alignment) and its colour.
struct Cell {
  std::string text;
  std::string_view color;  ///< empty: no colour
};

std::string paint(const std::string& text, std::string_view color, bool enabled) {
  if (!enabled || color.empty()) return text;
  return std::string(color) + text + std::string(ansi_reset);
}

/// Gate details are wrapped so no line is wider than a 100-column terminal.
constexpr std::size_t kLineWidth = 100;

/// `text` broken at spaces into lines of at most `width` display columns
/// (a single longer word stays whole on its own line).
std::vector<std::string> wrap_words(const std::string& text, std::size_t width) {
  std::vector<std::string> lines;
  std::string line;
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t end = text.find(' ', start);
    if (end == std::string::npos) end = text.size();
    const std::string word = text.substr(start, end - start);
    if (!line.empty() && display_width(line) + 1 + display_width(word) > width) {
      lines.push_back(line);
      line = word;
    } else {
      line += (line.empty() ? "" : " ") + word;
    }
    start = end + 1;
  }
  if (!line.empty() || lines.empty()) lines.push_back(line);
  return lines;
}

std::string pad(const std::string& text, std::size_t width, Align align) {
  const std::size_t used = display_width(text);
  const std::string fill(used < width ? width - used : 0, ' ');
  return align == Align::left ? text + fill : fill + text;
}

std::string build_summary(const BaselineView& baseline) {
  if (!baseline.build_passed) return baseline.build_no_step.empty() ? "build unknown" : "no build step";
  std::string text = *baseline.build_passed ? "build passed" : "build failed";
  if (!*baseline.build_passed && baseline.build_exit_code) {
    text += " (exit code " + std::to_string(*baseline.build_exit_code) + ")";
  }
  if (baseline.build_seconds) text += " in " + format_number(*baseline.build_seconds, 1) + " s";
  return text;
}

std::string baseline_line(const BaselineView& baseline) {
  std::string line = "Baseline: " + build_summary(baseline) + "; ";
  const std::string no_test_ran = baseline_no_test_ran(baseline);
  line += !no_test_ran.empty() ? no_test_ran : "tests " + baseline_test_counts(baseline);
  line += "; ";
  const std::string linted_nothing = baseline_linted_nothing(baseline);
  line += !linted_nothing.empty() ? "lint " + linted_nothing
          : baseline.has_lint     ? "lint " + std::to_string(baseline.lint_errors) + " errors, " +
                                    std::to_string(baseline.lint_warnings) + " warnings"
                                  : "lint did not run";
  return line;
}

}  // namespace

bool use_color(int fd) {
  if (isatty(fd) != 1) return false;
  const char* no_color = std::getenv("NO_COLOR");
  if (no_color != nullptr && no_color[0] != '\0') return false;
  const char* term = std::getenv("TERM");
  return term == nullptr || std::string_view(term) != "dumb";
}

std::string render_terminal(const nlohmann::json& contract, const TerminalOptions& options) {
  const ContractView view = read_contract(contract);
  const bool color = options.color;
  std::string out = paint("HydraScore ranking", ansi_bold, color);
  if (!view.run_id.empty()) out += "  (run " + sanitize_terminal(view.run_id) + ")";
  out += "\n";
  // Alerts first (alerts.hpp): code that ran unconfined or with network.
  for (const auto& line : view.alerts) {
    const auto wrapped = wrap_words(sanitize_terminal(line), kLineWidth - 10);
    for (std::size_t i = 0; i < wrapped.size(); ++i)
      out += (i == 0 ? paint("WARNING:", ansi_red, color) + "  " : std::string(10, ' ')) + wrapped[i] + "\n";
  }
  if (view.baseline) out += sanitize_terminal(baseline_line(*view.baseline)) + "\n";
  if (!view.nothing_measured.empty()) {
    out += paint("Nothing measured:", ansi_red, color) + "\n";
    for (const auto& line : view.nothing_measured) {
      const auto wrapped = wrap_words(sanitize_terminal(line), kLineWidth - 4);
      for (std::size_t i = 0; i < wrapped.size(); ++i)
        out += (i == 0 ? "  " + paint("!", ansi_red, color) + " " : std::string(4, ' ')) + wrapped[i] + "\n";
    }
  }
  out += "\n";
  if (view.candidates.empty()) {
    out += "No candidates were scored.\n";
    return out;
  }

  // Header and rows as plain cells first, so widths ignore colour sequences.
  std::vector<Align> aligns{Align::right, Align::left, Align::right};
  std::vector<Cell> header{{"#", ""}, {"Agent", ""}, {"Total", ""}};
  for (const auto& name : view.dimension_names) {
    header.push_back({dimension_label(name), ""});
    aligns.push_back(Align::right);
  }
  if (view.has_resolution) {  // a private test patch: does each pass the acceptance tests?
    header.push_back({"Resolved", ""});
    aligns.push_back(Align::left);
  }
  header.push_back({"Mergeable", ""});
  aligns.push_back(Align::left);

  std::vector<std::vector<Cell>> rows;
  for (const auto& candidate : view.candidates) {
    std::vector<Cell> row;
    row.push_back({std::to_string(candidate.rank), ""});
    row.push_back({truncate_to_width(sanitize_terminal(candidate.agent), options.max_agent_width), ""});
    row.push_back({format_optional(candidate.total), ansi_bold});
    for (const auto& name : view.dimension_names) {
      const DimensionView* dimension = find_dimension(candidate, name);
      const bool active = dimension != nullptr && dimension->active && dimension->score;
      row.push_back({active ? format_number(*dimension->score) : "-", active ? "" : ansi_dim});
    }
    if (view.has_resolution)
      row.push_back(!candidate.resolved ? (candidate.resolution_note.empty() ? Cell{"-", ansi_dim}
                                                                             : Cell{"no verdict", ansi_red})
                    : *candidate.resolved ? Cell{"yes", ansi_green}
                                          : Cell{"NO", ansi_red});
    row.push_back(candidate.mergeable ? Cell{"yes", ansi_green} : Cell{"NO", ansi_red});
    rows.push_back(std::move(row));
  }

  std::vector<std::size_t> widths(header.size(), 0);
  for (std::size_t column = 0; column < header.size(); ++column) {
    widths[column] = display_width(header[column].text);
    for (const auto& row : rows) widths[column] = std::max(widths[column], display_width(row[column].text));
  }
  const auto render_row = [&](const std::vector<Cell>& cells, bool is_header) {
    std::string line;
    for (std::size_t column = 0; column < cells.size(); ++column) {
      if (column > 0) line += "  ";
      const bool last = column + 1 == cells.size();
      // The last column is left-aligned: no trailing padding.
      const std::string text = last ? cells[column].text : pad(cells[column].text, widths[column], aligns[column]);
      line += paint(text, is_header ? ansi_bold : cells[column].color, color);
    }
    return line + "\n";
  };
  out += render_row(header, true);
  for (const auto& row : rows) out += render_row(row, false);
  if (view.has_resolution) {
    // The acceptance tests are the baseline's: the same for every candidate.
    for (const auto& candidate : view.candidates) {
      if (candidate.acceptance_tests.empty() && !candidate.resolution_note.empty()) {
        // Said loudly: a private test patch that decides nothing.
        const std::string line = "WARNING: no resolution verdict: " + candidate.resolution_note;
        for (const auto& wrapped : wrap_words(sanitize_terminal(line), kLineWidth))
          out += paint(wrapped, ansi_red, color) + "\n";
        break;
      }
      if (candidate.acceptance_tests.empty()) continue;
      std::string line = "Acceptance tests (private tests the baseline fails): ";
      for (std::size_t index = 0; index < candidate.acceptance_tests.size(); ++index)
        line += (index ? ", " : "") + candidate.acceptance_tests[index];
      for (const auto& wrapped : wrap_words(sanitize_terminal(line), kLineWidth)) out += wrapped + "\n";
      break;
    }
  }

  bool any_failure = false;
  for (const auto& candidate : view.candidates) any_failure = any_failure || !candidate.gate_failures.empty();
  if (any_failure) {
    out += "\n" + paint("Gate failures:", ansi_bold, color) + "\n";
    for (const auto& candidate : view.candidates) {
      if (candidate.gate_failures.empty()) continue;
      out += "  " + std::to_string(candidate.rank) + ". " + sanitize_terminal(candidate.agent) + "\n";
      for (const auto& failure : candidate.gate_failures) {
        std::string line = sanitize_terminal(failure.gate);
        if (!failure.detail.empty()) line += ": " + sanitize_terminal(failure.detail);
        const auto wrapped = wrap_words(line, kLineWidth - 7);
        for (std::size_t i = 0; i < wrapped.size(); ++i)
          out += (i == 0 ? "     " + paint("x", ansi_red, color) + " " : std::string(9, ' ')) + wrapped[i] + "\n";
      }
    }
  }
  // Runs captured again alone: a step ran out of time beside other captures.
  bool any_retried = false;
  for (const auto& candidate : view.candidates) any_retried = any_retried || !candidate.retried_alone.empty();
  if (any_retried) {
    out += "\n" + paint("Captured again alone:", ansi_bold, color) + "\n";
    for (const auto& candidate : view.candidates) {
      if (candidate.retried_alone.empty()) continue;
      const auto wrapped = wrap_words(std::to_string(candidate.rank) + ". " + sanitize_terminal(candidate.agent) +
                                          ": " + sanitize_terminal(candidate.retried_alone),
                                      kLineWidth - 4);
      for (std::size_t i = 0; i < wrapped.size(); ++i) out += (i == 0 ? "  " : "     ") + wrapped[i] + "\n";
    }
  }
  out += flaky_tests_terminal(contract, color);
  return out;
}

}  // namespace hydra::report
