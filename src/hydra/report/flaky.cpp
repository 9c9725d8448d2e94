// The flaky tests of a ranking in every report (flaky.hpp).
#include <hydra/report/flaky.hpp>

#include <hydra/report/contract.hpp>
#include <hydra/report/text.hpp>

namespace hydra::report {

namespace {

using nlohmann::json;

/// Lists longer than this are cut in the reports; the JSON contract keeps them.
constexpr std::size_t kListedTests = 50;

/// What a flaky test is and how it counts, after the section's title.
const std::string kExplanation =
    "Each failed and passed on the same code: counted as passed for the baseline and every candidate, "
    "neither a regression nor a fix.";

std::vector<FlakyTestView> read_list(const json& list) {
  std::vector<FlakyTestView> tests;
  if (!list.is_array()) return tests;
  for (const auto& entry : list) {
    FlakyTestView view;
    view.id = text_at(entry, "id");
    if (view.id.empty()) continue;
    for (const auto& run : array_at(entry, "seen_flaky_in"))
      if (run.is_string()) view.seen_in.push_back(run.get<std::string>());
    for (const auto& run : array_at(entry, "attempts")) {
      FlakyRunView attempts;
      attempts.run = text_at(run, "run", "?");
      for (const auto& status : array_at(run, "attempts"))
        if (status.is_string()) attempts.attempts.push_back(status.get<std::string>());
      attempts.message = text_at(run, "message");
      view.runs.push_back(std::move(attempts));
    }
    tests.push_back(std::move(view));
  }
  return tests;
}

std::string joined(const std::vector<std::string>& parts, const std::string& separator) {
  std::string text;
  for (const auto& part : parts) text += (text.empty() ? "" : separator) + part;
  return text;
}

/// The first failure's message any run recorded; empty when none did.
std::string first_failure(const FlakyTestView& test) {
  for (const auto& run : test.runs)
    if (!run.message.empty()) return run.message;
  return {};
}

std::string more_note(std::size_t total) {
  return total > kListedTests ? "…and " + std::to_string(total - kListedTests) + " more (see the JSON contract)" : "";
}

}  // namespace

std::vector<FlakyTestView> read_flaky_tests(const json& contract) {
  return read_list(contract.is_object() && contract.contains("flaky_tests") ? contract["flaky_tests"] : json());
}

std::vector<FlakyTestView> read_candidate_flaky_tests(const json& ranking) {
  return read_list(array_at(object_at(ranking, "tests"), "flaky"));
}

std::string attempts_text(const FlakyTestView& test) {
  std::vector<std::string> runs;
  for (const auto& run : test.runs) runs.push_back(run.run + ": " + joined(run.attempts, ", "));
  return joined(runs, "; ");
}

std::string flaky_tests_terminal(const json& contract, bool color) {
  const auto tests = read_flaky_tests(contract);
  if (tests.empty()) return {};
  const std::string title = "Flaky tests (" + std::to_string(tests.size()) + "):";
  std::string out = "\n" + (color ? "\x1b[1m" + title + "\x1b[0m" : title) + "\n  " + kExplanation + "\n";
  for (std::size_t index = 0; index < tests.size() && index < kListedTests; ++index) {
    const auto& test = tests[index];
    out += "  " + sanitize_terminal(test.id) + "  (flaky in " + sanitize_terminal(joined(test.seen_in, ", ")) + ")\n";
    out += "     " + sanitize_terminal(attempts_text(test)) + "\n";
  }
  if (const auto note = more_note(tests.size()); !note.empty()) out += "  " + note + "\n";
  return out;
}

std::string flaky_tests_markdown(const json& contract) {
  const auto tests = read_flaky_tests(contract);
  if (tests.empty()) return {};
  std::string out = "\n### Flaky tests (" + std::to_string(tests.size()) + ")\n\n" +
                    escape_markdown(kExplanation) + "\n\n| Test | Flaky in | Attempts | First failure |\n|:--|:--|:--|:--|\n";
  for (std::size_t index = 0; index < tests.size() && index < kListedTests; ++index) {
    const auto& test = tests[index];
    const std::string failure = first_failure(test);
    out += "| " + escape_markdown(test.id) + " | " + escape_markdown(joined(test.seen_in, ", ")) + " | " +
           escape_markdown(attempts_text(test)) + " | " + escape_markdown(failure.empty() ? "-" : failure) + " |\n";
  }
  if (const auto note = more_note(tests.size()); !note.empty()) out += "\n_" + escape_markdown(note) + "._\n";
  return out;
}

std::string flaky_tests_html(const json& contract) {
  const auto tests = read_flaky_tests(contract);
  if (tests.empty()) return {};
  std::string html = "<section id=\"flaky-tests\">\n<h2>Flaky tests (" + std::to_string(tests.size()) + ")</h2>\n" +
                     "<p class=\"meta\">" + escape_html(kExplanation) + "</p>\n<table>\n<thead><tr><th>Test</th><th>Flaky in</th><th>Attempts</th>"
                     "<th>First failure</th></tr></thead>\n<tbody>\n";
  for (std::size_t index = 0; index < tests.size() && index < kListedTests; ++index) {
    const auto& test = tests[index];
    html += "<tr><td class=\"mono\">" + escape_html(test.id) + "</td><td>" + escape_html(joined(test.seen_in, ", ")) +
            "</td><td>" + escape_html(attempts_text(test)) + "</td><td>" + escape_html(first_failure(test)) +
            "</td></tr>\n";
  }
  html += "</tbody>\n</table>\n";
  if (const auto note = more_note(tests.size()); !note.empty()) html += "<p class=\"meta\">" + escape_html(note) + ".</p>\n";
  return html + "</section>\n";
}

json flaky_tests_sarif_properties(const json& contract) {
  json list = json::array();
  for (const auto& test : read_flaky_tests(contract)) {
    json runs = json::object();
    for (const auto& run : test.runs) runs[run.run] = run.attempts;
    list.push_back({{"id", test.id},
                    {"flakyIn", test.seen_in},
                    {"attempts", std::move(runs)},
                    {"text", "Test " + test.id + " failed and passed on the same code (flaky in " +
                                 joined(test.seen_in, ", ") + "; " + attempts_text(test) +
                                 "): counted as passed, neither a regression nor a fix."}});
  }
  return list;
}

std::vector<std::string> flaky_test_lines(const json& ranking) {
  std::vector<std::string> lines;
  for (const auto& test : read_candidate_flaky_tests(ranking))
    lines.push_back(test.id + " (flaky in " + joined(test.seen_in, ", ") + "; " + attempts_text(test) + ")");
  return lines;
}

}  // namespace hydra::report
