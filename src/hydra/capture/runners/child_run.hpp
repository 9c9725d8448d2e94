// One test program run as a child of HydraScore's test launcher, with the
// channels the launcher holds while it runs (docs/threat-model.md, "Code
// under test vouching for itself"): GoogleTest's result stream (a loopback
// socket), the verdict witness's pipe (witness.hpp) and a framework report
// written into a pipe (Catch2's and doctest's `--out /dev/fd/N`). What came
// through them is read to the last byte once the program has ended.
#pragma once

#include <sys/types.h>

#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace hydra::capture {

/// The word of a program's arguments that is replaced by "/dev/fd/N", the
/// report pipe's write end, when a report pipe is asked for.
inline constexpr const char* kReportPipeWord = "@HYDRA_SCORE_REPORT_PIPE@";

struct ChildRequest {
  std::vector<std::string> argv;
  std::vector<std::pair<std::string, std::string>> environment;  ///< set for the program
  bool result_stream = false;                        ///< GTEST_STREAM_RESULT_TO to a socket held here
  std::optional<std::filesystem::path> witness;      ///< the witness library to preload
  std::string witness_mode = "run";                  ///< "run", "fail", "pass"
  bool report_pipe = false;                          ///< kReportPipeWord in argv names a pipe held here
  bool quiet = false;                                ///< the program's stdout and stderr to /dev/null
};

struct ChildResult {
  bool started = false;
  pid_t pid = 0;
  int wait_status = 0;
  int exit_code = 127;  ///< exit code, 128 + signal when killed
  int stream_connections = 0;
  std::vector<std::string> stream_texts;  ///< per connection
  std::string witness_token;
  std::string witness_text;
  std::string report_text;  ///< what the report pipe received
};

/// Runs the program and waits for it; started false when no channel or
/// process could be set up (nothing ran).
ChildResult run_child(const ChildRequest& request);

}  // namespace hydra::capture
