// SARIF 2.1.0 of the new lint findings: golden output, validation with
// Microsoft's SARIF Multitool (the 2.1.0 schema and its rule sets, GitHub
// code scanning's included) and what GitHub code scanning reads.
#include "report/flaky_contract.hpp"
#include "report/report_fixtures.hpp"

#include <hydra/error.hpp>
#include <hydra/report/report.hpp>
#include <hydra/util/files.hpp>

#include <string>
#include <vector>
#include "test_paths.hpp"

using hydra::report::render_sarif;
using nlohmann::json;

namespace {

/// What `sarif-multitool validate` says of `sarif_file`: one line per error
/// or warning it reports ("SARIF2005: ..."). Fails the test when the tool is
/// missing or cannot run.
std::vector<std::string> multitool_complaints(const std::filesystem::path& sarif_file) {
  const std::string tool = HYDRA_SARIF_MULTITOOL;
  if (tool.empty())
    FAIL("sarif-multitool was not found when the tests were configured: run scripts/install-deps.sh "
         "(npm install -g @microsoft/sarif-multitool), then configure again");
  const std::filesystem::path out = sarif_file.string() + ".validation.sarif";
  // A .NET program: invariant globalization spares it a dependency on ICU.
  const int status = report_test::run_shell("DOTNET_SYSTEM_GLOBALIZATION_INVARIANT=1 " +
                                            report_test::shell_quote(tool) + " validate " +
                                            report_test::shell_quote(sarif_file.string()) + " --output " +
                                            report_test::shell_quote(out.string()) +
                                            " --log ForceOverwrite > " +
                                            report_test::shell_quote(sarif_file.string() + ".log") + " 2>&1");
  INFO(hydra::util::read_file(sarif_file.string() + ".log"));
  REQUIRE(status == 0);
  const json validation = json::parse(hydra::util::read_file(out));
  std::vector<std::string> complaints;
  for (const auto& run : validation.at("runs")) {
    for (const auto& result : run.value("results", json::array())) {
      // SARIF's default level is "warning"; notes and "none" are not complaints.
      const std::string level = result.value("level", std::string("warning"));
      if (level == "error" || level == "warning")
        complaints.push_back(result.value("ruleId", std::string("?")) + ": " +
                             result.value("message", json::object()).dump());
    }
  }
  return complaints;
}

const json* run_of(const json& sarif, const std::string& tool) {
  for (const auto& run : sarif["runs"]) {
    if (run["tool"]["driver"]["name"] == tool) return &run;
  }
  return nullptr;
}

}  // namespace

TEST_CASE("render_sarif matches the golden log", "[report][golden]") {
  const auto contract = report_test::real_contract();
  SECTION("valid input") {
    const std::string sarif = render_sarif(contract);
    report_test::check_golden("report.sarif", sarif);
    CHECK(render_sarif(contract) == sarif);  // deterministic
  }
  SECTION("bad input") {
    CHECK_THROWS_AS(render_sarif(nlohmann::json(42)), hydra::Error);
  }
}

TEST_CASE("render_sarif passes the SARIF Multitool's validation with no error and no warning", "[report]") {
  hydra::util::TempDir dir("hydra-sarif");
  SECTION("valid input") {
    // The real contract: every run's driver carries the version its run
    // directories recorded (clang-tidy's and the compiler's).
    const auto file = dir.path() / "report.sarif";
    hydra::util::write_file_atomic(file, render_sarif(report_test::real_contract()));
    CHECK(multitool_complaints(file).empty());
  }
  SECTION("valid input: what measured nothing, as warnings of each run's invocation") {
    auto contract = report_test::real_contract();
    contract["nothing_measured"] = {"baseline: no test ran (0 tests recorded)"};
    const auto file = dir.path() / "nothing-measured.sarif";
    hydra::util::write_file_atomic(file, render_sarif(contract));
    CHECK(multitool_complaints(file).empty());
  }
  SECTION("with flaky tests (in the log's properties)") {
    const auto file = dir.path() / "flaky.sarif";
    hydra::util::write_file_atomic(file, render_sarif(report_test::flaky_contract()));
    CHECK(multitool_complaints(file).empty());
  }
  SECTION("bad input") {
    // The validator does reject a log that breaks the schema.
    const auto file = dir.path() / "broken.sarif";
    hydra::util::write_file_atomic(file, R"({"version": "2.1.0", "runs": [{"results": []}]})");
    CHECK_FALSE(multitool_complaints(file).empty());
  }
}

TEST_CASE("render_sarif gives GitHub code scanning locations, rules and fingerprints", "[report]") {
  // The real contract, with protected-lint renamed "claude|<fast>&co" and its
  // second finding moved to an absolute path with a '|' (report_fixtures.hpp),
  // plus a location-less compiler warning added for it.
  json contract = report_test::hostile_contract();
  json& introduced = contract["rankings"][3]["lint"]["introduced"];
  introduced.push_back({{"tool", "compiler"}, {"file", ""}, {"line", 0}, {"column", 0}, {"severity", "warning"},
                        {"message", "-Wl,--no-undefined is ignored"}, {"checks", json::array()},
                        {"source_line", ""}, {"fingerprint", "0000000000000000"}});
  const json sarif = json::parse(render_sarif(contract));
  CHECK(sarif["version"] == "2.1.0");
  // One run per tool: clang-tidy and compiler, in that order.
  REQUIRE(sarif["runs"].size() == 2);
  CHECK(sarif["runs"][0]["tool"]["driver"]["name"] == "clang-tidy");
  CHECK(sarif["runs"][1]["tool"]["driver"]["name"] == "compiler");

  const json* clang_tidy = run_of(sarif, "clang-tidy");
  REQUIRE(clang_tidy != nullptr);
  // Only protected-lint introduced clang-tidy findings: its lint went from 2 to 4
  // warnings (new_warnings = 4 - 2 = 2, lint score 100 - 2*2 = 96).
  const json& results = (*clang_tidy)["results"];
  REQUIRE(results.size() == 2);
  const json& relative = results[0];
  CHECK(relative["ruleId"] == "cppcoreguidelines-init-variables");
  CHECK(relative["level"] == "warning");
  CHECK(relative["message"]["text"].get<std::string>().find("variable 'lines' is not initialized") != std::string::npos);
  CHECK(relative["properties"]["hydraAgent"] == report_test::hostile_agent);
  CHECK(relative["partialFingerprints"]["hydraFingerprint/v1"] == introduced[0]["fingerprint"]);
  const json& location = relative["locations"][0]["physicalLocation"];
  CHECK(location["artifactLocation"]["uri"] == "src/count.cpp");
  CHECK(location["artifactLocation"]["uriBaseId"] == "%SRCROOT%");
  CHECK(location["region"]["startLine"] == 6);
  CHECK(location["region"]["startColumn"] == 7);

  const json& absolute = results[1];
  CHECK(absolute["ruleId"] == "bugprone-narrowing-conversions");  // the first of its two checks
  CHECK(absolute["level"] == "warning");
  const json& artifact = absolute["locations"][0]["physicalLocation"]["artifactLocation"];
  CHECK(artifact["uri"] == "file:///home/ci/project/src/parse%7Cx.cpp");
  CHECK_FALSE(artifact.contains("uriBaseId"));
  // Rules: one per check id, referenced by index.
  const json& rules = (*clang_tidy)["tool"]["driver"]["rules"];
  REQUIRE(rules.size() == 2);
  CHECK(rules[absolute["ruleIndex"].get<std::size_t>()]["id"] == "bugprone-narrowing-conversions");
  CHECK(rules[absolute["ruleIndex"].get<std::size_t>()]["helpUri"] ==
        "https://clang.llvm.org/extra/clang-tidy/checks/bugprone/narrowing-conversions.html");

  const json* compiler = run_of(sarif, "compiler");
  REQUIRE(compiler != nullptr);
  REQUIRE((*compiler)["results"].size() == 1);
  // A location-less compiler warning: no locations, and its rule named after tool and severity.
  CHECK_FALSE((*compiler)["results"][0].contains("locations"));
  CHECK((*compiler)["results"][0]["ruleId"] == "compiler-warning");
}

TEST_CASE("render_sarif places line-less findings without a region", "[report]") {
  const json contract = {
      {"rankings",
       {{{"agent", "a"},
         {"lint",
          {{"introduced",
            {{{"tool", "compiler"}, {"file", "./dir with space/x.cpp"}, {"line", 0}, {"severity", "error"},
              {"message", "m"}, {"checks", {"-Werror"}}, {"fingerprint", "00"}}}}}}}}}};
  const json sarif = json::parse(render_sarif(contract));
  const json& physical = sarif["runs"][1]["results"][0]["locations"][0]["physicalLocation"];
  CHECK(physical["artifactLocation"]["uri"] == "dir%20with%20space/x.cpp");
  CHECK_FALSE(physical.contains("region"));
}
