// A test program's run in a capture, its verdict taken outside the reach of
// the code it tests (docs/threat-model.md, "Code under test vouching for
// itself"). The test launcher (test_launcher.hpp) runs the program as its
// child (child_run.hpp) and holds, while it runs:
//
//  - the verdict witness's pipe (witness.hpp): what `main` really returned,
//    for every dynamically linked program;
//  - GoogleTest's result stream (result_stream.hpp);
//  - Catch2's and doctest's report, written into a pipe (`--out /dev/fd/N`)
//    that the launcher copies to the report file once the program ended:
//    the program never learns where the file lies, and anything it writes
//    into the pipe after its first complete report is tampering.
//
// The program runs under a neutral name: a hard link `run-<hex>` beside it,
// argv[0] and /proc/self/exe that link, so its process name and path hold
// nothing a "behave only under test" branch could key on. Before its first
// run in a ctest run, a program of the tree gets its canaries (witness.hpp).
// Disagreement of any kind fails the test with `hydra-score: tampering: ...`
// on its output and, for a framework program, on its report's cases.
#pragma once

#include <optional>
#include <string>

#include <hydra/capture/runners/test_launcher.hpp>

namespace hydra::capture {

/// A report pipe's text split after its first complete report
/// (`</testsuites>` or, without one, `</testsuite>`): `report` is that
/// report (the whole text when none is complete), `extra` what followed it
/// (whitespace dropped).
struct PipedReport {
  std::string report;
  std::string extra;
};
PipedReport split_piped_report(const std::string& text);

/// Runs `launch` (a judged one) and returns the test's exit code; nullopt
/// when it could not be started as a child (the caller then runs it as it is).
std::optional<int> run_judged(const Launch& launch);

}  // namespace hydra::capture
