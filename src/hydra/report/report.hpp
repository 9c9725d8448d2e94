// Reports people read: every result HydraScore produces, rendered where users
// look (terminal, pull-request Markdown, a self-contained HTML page, SARIF for
// code scanning, JUnit XML of the merge gates).
//
// Every renderer takes the score output contract (docs/output-contract.md) or
// the loop report as JSON, is a pure function (no I/O, no clock) and is
// deterministic: the same input gives the same bytes. Optional parts of the
// input that are null or absent are rendered as "-" or left out, never an
// error. Strings that come from users (agent names, messages, paths, test
// names) are escaped for the target format.
//
// Implementation files: terminal.cpp, markdown.cpp, html.cpp, loop.cpp,
// sarif.cpp, junit.cpp; shared reading and escaping in contract.hpp, text.hpp.
#pragma once

#include <cstddef>
#include <string>

#include <nlohmann/json.hpp>

namespace hydra::report {

/// True when output written to file descriptor `fd` should be coloured: `fd`
/// is a terminal, the NO_COLOR environment variable is unset or empty
/// (https://no-color.org) and TERM is not "dumb".
bool use_color(int fd);

/// How `render_terminal` lays out its table.
struct TerminalOptions {
  bool color = false;                ///< wrap cells in ANSI colour sequences
  std::size_t max_agent_width = 24;  ///< longer agent names are cut and end in "..."
};

/// The ranking as an aligned text table (rank, agent, total, one column per
/// dimension with "-" for inactive ones, mergeable "yes"/"NO"), followed by
/// the gate failures of each candidate. Fits in 100 columns with the default
/// dimensions. `contract` is the score output contract; `options` chooses
/// colour and the agent column's width. Throws hydra::Error when `contract`
/// is not a JSON object.
std::string render_terminal(const nlohmann::json& contract, const TerminalOptions& options);

/// GitHub-flavoured Markdown of `contract` for pull requests and
/// $GITHUB_STEP_SUMMARY: ranking table, gate failures, and per candidate the
/// breakdown, new and resolved lint findings, regressed, dropped and added
/// tests. Throws hydra::Error when `contract` is not a JSON object.
std::string render_markdown(const nlohmann::json& contract);

/// One self-contained HTML page of `contract` (inline CSS and SVG, nothing
/// fetched from the network): ranking chart, gate failures, per-candidate
/// dimension bars, evidence, gates, lint findings and test changes. Prints
/// well (@media print). Throws hydra::Error when `contract` is not a JSON object.
std::string render_html(const nlohmann::json& contract);

/// A self-contained HTML page of the improvement loop's `loop_report`
/// (schema "hydra-score/loop/1"): an SVG line chart of score and best score
/// per iteration with kept/reverted markers, the iterations, the eval cases
/// and the summary. Throws hydra::Error when `loop_report` is not a JSON object.
std::string render_loop_html(const nlohmann::json& loop_report);

/// Markdown of the improvement loop's `loop_report`: summary, a Mermaid
/// chart of the trajectory, the iterations and the eval cases. Throws
/// hydra::Error when `loop_report` is not a JSON object.
std::string render_loop_markdown(const nlohmann::json& loop_report);

/// SARIF 2.1.0 of the lint findings each candidate introduced
/// (`rankings[].lint.introduced`), for GitHub code scanning: one run per tool
/// ("clang-tidy" and "compiler" always, other tools after them by name), each
/// with a rule per check id. Relative paths are given against "%SRCROOT%",
/// absolute ones as file:// URIs; each result carries the finding's stable
/// fingerprint as partialFingerprints["hydraFingerprint/v1"] and the candidate
/// in properties["hydraAgent"]. Throws hydra::Error when `contract` is not a
/// JSON object.
std::string render_sarif(const nlohmann::json& contract);

/// JUnit XML of the merge gates: a <testsuite> per candidate (name = agent),
/// a <testcase> per gate (classname "hydra.gates.<agent>"), failed gates with
/// <failure message="detail">. Throws hydra::Error when `contract` is not a
/// JSON object.
std::string render_gates_junit(const nlohmann::json& contract);

}  // namespace hydra::report
