// Verdicts taken outside the reach of the code under test
// (docs/threat-model.md, "What candidate code can reach"): while a
// GoogleTest program runs, HydraScore's test launcher holds a loopback socket
// that GoogleTest streams its events into (--gtest_stream_result_to), and
// waits for the program itself. What arrived there before the program ended
// is compared with what the program finally leaves behind (its exit status,
// its XML report): code that rewrites either after the cases ran (an `atexit`
// handler that edits the report or calls `_exit(0)`) disagrees with its own
// stream, and the disagreement is tampering: the launcher fails the test and
// marks the report's cases with why. Parsing and comparing are pure; the
// program runs through child_run.hpp.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace hydra::capture {

/// What GoogleTest streamed (its StreamingListener's wire format).
struct StreamedResults {
  /// "Suite.Name" -> passed, in the order the cases ended.
  std::vector<std::pair<std::string, bool>> cases;
  std::optional<bool> program_passed;  ///< event=TestProgramEnd; nullopt: never arrived
};

/// Parses the stream's lines ("event=TestStart&name=...").
StreamedResults parse_result_stream(const std::string& text);

/// What the program left behind disagrees with what it streamed: why, one
/// sentence per disagreement; empty when they agree. `connections`: how many
/// connections the stream's socket accepted (`streamed`: all of theirs
/// together); `report_xml`: the report's text (nullopt: no report).
std::vector<std::string> stream_disagreements(const StreamedResults& streamed, int connections, int exit_code,
                                              const std::optional<std::string>& report_xml);

/// A report's own verdicts in the stream's form (a report HydraScore
/// trusts: one written into a pipe it held); none when it does not parse.
StreamedResults report_verdicts(const std::string& report_xml);

/// `report_xml` with a <failure> naming `reason`, first among the case's
/// failures, on every case the stream saw fail (every case when the stream
/// gave no failing verdict); nullopt when the report does not parse.
std::optional<std::string> mark_tampered_report(const std::string& report_xml, const StreamedResults& streamed,
                                                const std::string& reason);

}  // namespace hydra::capture
