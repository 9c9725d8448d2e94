// The launcher's result stream (capture/runners/result_stream.hpp): GoogleTest's
// streamed verdicts against what the program leaves behind.
#include <catch2/catch.hpp>

#include <hydra/capture/runners/result_stream.hpp>

using namespace hydra::capture;

namespace {

const std::string kStream =
    "event=TestProgramStart\n"
    "event=TestIterationStart&iteration=0\n"
    "event=TestCaseStart&name=Calc\n"
    "event=TestStart&name=Adds\n"
    "event=TestEnd&passed=1&elapsed_time=0ms\n"
    "event=TestStart&name=Multiplies\n"
    "event=TestPartResult&file=calc.cpp&line=3&message=Expected%20equality\n"
    "event=TestEnd&passed=0&elapsed_time=0ms\n"
    "event=TestCaseEnd&passed=0&elapsed_time=0ms\n"
    "event=TestIterationEnd&passed=0&elapsed_time=0ms\n"
    "event=TestProgramEnd&passed=0\n";

std::string report(bool with_failure) {
  return std::string("<?xml version=\"1.0\"?>\n<testsuites tests=\"2\" failures=\"") + (with_failure ? "1" : "0") +
         "\">\n<testsuite name=\"Calc\">\n"
         "<testcase name=\"Adds\" classname=\"Calc\" status=\"run\" result=\"completed\"/>\n"
         "<testcase name=\"Multiplies\" classname=\"Calc\" status=\"run\" result=\"completed\">" +
         (with_failure ? "<failure message=\"Expected equality\"/>" : "") + "</testcase>\n</testsuite>\n</testsuites>\n";
}

}  // namespace

TEST_CASE("result stream: GoogleTest's events give each case's verdict and the program's", "[capture][result_stream]") {
  const auto streamed = parse_result_stream(kStream);
  REQUIRE(streamed.cases.size() == 2);
  CHECK(streamed.cases[0] == std::make_pair(std::string("Calc.Adds"), true));
  CHECK(streamed.cases[1] == std::make_pair(std::string("Calc.Multiplies"), false));
  REQUIRE(streamed.program_passed);
  CHECK_FALSE(*streamed.program_passed);
}

TEST_CASE("result stream: what the program leaves behind must agree with what it streamed",
          "[capture][result_stream]") {
  const auto streamed = parse_result_stream(kStream);
  SECTION("an honest failing run agrees") { CHECK(stream_disagreements(streamed, 1, 1, report(true)).empty()); }
  SECTION("exit status rewritten to 0 after the cases failed") {
    const auto why = stream_disagreements(streamed, 1, 0, report(true));
    REQUIRE(why.size() == 1);
    CHECK(why[0].find("exited 0") != std::string::npos);
  }
  SECTION("a report whose failure was removed") {
    const auto why = stream_disagreements(streamed, 1, 0, report(false));
    REQUIRE(why.size() == 2);
    CHECK(why[1] == "case Calc.Multiplies failed while the program ran, and its report says it passed");
    const auto marked = mark_tampered_report(report(false), streamed, why[1]);
    REQUIRE(marked);
    CHECK(marked->find("<failure message=\"hydra-score: tampering: case Calc.Multiplies") != std::string::npos);
    // Only the case that failed is marked.
    CHECK(marked->find("<testcase name=\"Adds\" classname=\"Calc\" status=\"run\" result=\"completed\" />") !=
          std::string::npos);
  }
  SECTION("a report without any stream, or with a stream cut short") {
    CHECK(stream_disagreements({}, 0, 0, report(false)).size() == 1);
    CHECK(stream_disagreements(parse_result_stream("event=TestProgramStart\n"), 1, 0, report(false)).size() == 1);
    // No report at all: the capture names the missing report itself.
    CHECK(stream_disagreements({}, 0, 0, std::nullopt).empty());
  }
  SECTION("a passing run agrees") {
    const auto passing = parse_result_stream(
        "event=TestCaseStart&name=Calc\nevent=TestStart&name=Adds\nevent=TestEnd&passed=1\n"
        "event=TestProgramEnd&passed=1\n");
    CHECK(stream_disagreements(passing, 1, 0, report(false)).empty());
  }
}
