// Whether clang-tidy finished a translation unit (capture/lint/completeness.hpp):
// a crash, or a failure it did not report, leaves the lint log incomplete.
#include <catch2/catch.hpp>

#include <hydra/capture/lint/completeness.hpp>
#include <hydra/util/files.hpp>

#include "test_paths.hpp"

using hydra::capture::clang_tidy_stopped_early;
using hydra::util::ProcessResult;

namespace {

ProcessResult finished(int exit_code, std::string output) {
  ProcessResult result;
  result.started = true;
  result.exit_code = exit_code;
  result.output = std::move(output);
  return result;
}

}  // namespace

TEST_CASE("clang-tidy's answer on a unit: finished, or stopped early", "[capture][lint]") {
  const std::string with_errors =
      hydra::util::read_file(std::filesystem::path(HYDRA_FIXTURES_DIR) / "parse" / "clang_tidy_errors.log");
  SECTION("finished: exit 0, or 1 with the errors that explain it") {
    CHECK(clang_tidy_stopped_early(finished(0, ""), "src/a.cpp").empty());
    CHECK(clang_tidy_stopped_early(finished(1, with_errors), "src/a.cpp").empty());
  }
  SECTION("exit 1 without any error reported") {
    CHECK(clang_tidy_stopped_early(finished(1, "1 warning generated.\n"), "src/a.cpp") ==
          "clang-tidy failed on src/a.cpp (exit code 1) without reporting an error");
  }
  SECTION("a crash: a process killed by a signal") {
    // A real process that dies of SIGSEGV, as a crashing clang-tidy does.
    hydra::util::ProcessRequest request;
    request.argv = {"/bin/sh", "-c", "kill -SEGV $$"};
    const ProcessResult crashed = hydra::util::run_process(request);
    REQUIRE(crashed.exit_code == 128 + 11);
    CHECK(clang_tidy_stopped_early(crashed, "src/a.cpp") == "clang-tidy crashed on src/a.cpp (killed by signal 11)");
  }
  SECTION("another exit status, or no start at all") {
    CHECK(clang_tidy_stopped_early(finished(2, ""), "src/a.cpp") == "clang-tidy stopped on src/a.cpp with exit code 2");
    ProcessResult missing;
    missing.error = "No such file or directory";
    CHECK(clang_tidy_stopped_early(missing, "src/a.cpp") ==
          "clang-tidy could not start on src/a.cpp: No such file or directory");
  }
}
