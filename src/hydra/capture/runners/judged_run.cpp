// A judged test run (judged_run.hpp).
#include <hydra/capture/runners/judged_run.hpp>
#include <hydra/capture/runners/child_run.hpp>
#include <hydra/capture/runners/result_stream.hpp>
#include <hydra/capture/runners/test_frameworks.hpp>
#include <hydra/capture/runners/witness.hpp>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

namespace hydra::capture {
namespace fs = std::filesystem;

PipedReport split_piped_report(const std::string& text) {
  PipedReport piped;
  std::size_t end = std::string::npos;
  for (const char* closing : {"</testsuites>", "</testsuite>"}) {
    const std::size_t at = text.find(closing);
    if (at != std::string::npos) {
      end = at + std::string(closing).size();
      break;
    }
  }
  if (end == std::string::npos) {
    piped.report = text;
    return piped;
  }
  piped.report = text.substr(0, end) + "\n";
  const std::string rest = text.substr(end);
  const std::size_t first = rest.find_first_not_of(" \t\r\n");
  if (first != std::string::npos) piped.extra = rest.substr(first, rest.find_last_not_of(" \t\r\n") - first + 1);
  return piped;
}

namespace {

/// A hard link to `program` beside it under a neutral name; empty when none
/// could be made (the program then runs under its own name).
fs::path neutral_link(const fs::path& program) {
  const std::string token = witness_token();
  const fs::path link = program.parent_path() / ("run-" + token.substr(0, 12));
  std::error_code error;
  fs::create_hard_link(program, link, error);
  return error ? fs::path() : link;
}

std::optional<std::string> read_text(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

/// The variables only the launcher needs: the program is not told where
/// HydraScore keeps its plan and reports.
const char* const kLauncherVariables[] = {kTestProgramsVariable, kTestReportsVariable};

}  // namespace

std::optional<int> run_judged(const Launch& launch) {
  const char* reports_variable = std::getenv(kTestReportsVariable);
  const fs::path reports = reports_variable ? reports_variable : "";
  std::error_code error;
  const fs::path self = fs::read_symlink("/proc/self/exe", error);
  const bool wrapped = launch.program_index > 0;  // an emulator or wrapper runs it: neither preload nor rename
  const fs::path program = launch.program;
  const bool own_program = !wrapped && gets_canaries(program);
  const ElfKind kind = own_program ? elf_kind(program) : ElfKind{};
  const bool sanitized = own_program ? kind.sanitizer : elf_kind(program).sanitizer;
  const std::optional<fs::path> witness =
      wrapped || sanitized || error ? std::nullopt : find_witness_library(self);
  const fs::path link = own_program ? neutral_link(program) : fs::path();
  for (const char* variable : kLauncherVariables) ::unsetenv(variable);

  ChildRequest request;
  request.argv = launch.argv;
  if (!link.empty()) request.argv[launch.program_index] = link.string();
  request.environment = launch.environment;
  request.witness = witness;
  std::string canary;
  // Canaries need the witness to replace `main`: dynamically linked programs only.
  if (own_program && kind.dynamic && witness && !reports.empty()) {
    canary = canary_verdict(program, reports / "canaries", [&](CanaryMode mode) -> std::optional<std::string> {
      ChildRequest run;
      run.argv = {link.empty() ? program.string() : link.string()};
      run.witness = witness;
      run.witness_mode = mode == CanaryMode::must_fail ? "fail" : "pass";
      run.quiet = true;
      const ChildResult ran = run_child(run);
      if (!ran.started) return std::nullopt;
      const auto said = parse_witness(ran.witness_text, ran.witness_token, ran.pid);
      return canary_problem(mode, said, ran.wait_status, true);
    });
  }
  const bool googletest = launch.framework == "googletest" && !launch.report.empty();
  request.result_stream = googletest;
  request.report_pipe = launch.report_pipe && !launch.report.empty();
  const ChildResult ran = run_child(request);
  if (!link.empty()) fs::remove(link, error);
  if (!ran.started) return std::nullopt;

  std::vector<std::string> why;
  StreamedResults streamed;
  std::optional<std::string> report_xml;
  if (request.report_pipe) {
    // The report is what came through the pipe, whatever the program left
    // in the report folder.
    const PipedReport piped = split_piped_report(ran.report_text);
    if (!piped.extra.empty())
      why.push_back("the program wrote more into its report pipe after its complete report (" +
                    piped.extra.substr(0, 80) + ")");
    fs::remove(launch.report, error);
    if (piped.report.find_first_not_of(" \t\r\n") != std::string::npos) {
      std::ofstream(launch.report, std::ios::binary) << piped.report;
      report_xml = piped.report;
      streamed = report_verdicts(piped.report);  // its failed cases are the ones tampering is named on
    }
  } else if (!launch.report.empty()) {
    report_xml = read_text(launch.report);
  }
  if (googletest) {
    // Every connection's verdicts count (a death test's child connects too,
    // and sends nothing): a failure any of them streamed stays a failure.
    for (const auto& text : ran.stream_texts) {
      StreamedResults one = parse_result_stream(text);
      streamed.cases.insert(streamed.cases.end(), one.cases.begin(), one.cases.end());
      if (one.program_passed) streamed.program_passed = streamed.program_passed.value_or(true) && *one.program_passed;
    }
    const auto disagreements = stream_disagreements(streamed, ran.stream_connections, ran.exit_code, report_xml);
    why.insert(why.end(), disagreements.begin(), disagreements.end());
  }
  if (witness)
    if (const auto disagreement = witness_disagreement(parse_witness(ran.witness_text, ran.witness_token, ran.pid),
                                                       ran.wait_status, own_program && kind.dynamic))
      why.push_back(*disagreement);
  if (!canary.empty()) why.push_back("HydraScore's canary of " + program.filename().string() + ": " + canary);
  if (why.empty()) return ran.exit_code;
  std::string reason;
  for (const auto& sentence : why) reason += (reason.empty() ? "" : "; ") + sentence;
  std::cerr << "hydra-score: tampering: " << reason << "\n";
  if (report_xml)
    if (const auto marked = mark_tampered_report(*report_xml, streamed, reason))
      std::ofstream(launch.report, std::ios::binary) << *marked;
  return ran.exit_code == 0 ? 1 : ran.exit_code;
}

}  // namespace hydra::capture
