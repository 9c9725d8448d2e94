// The launcher differential's capture side (capture/runners/launcher_differential.hpp).
#include <catch2/catch.hpp>

#include <hydra/capture/runners/launcher_differential.hpp>

using hydra::capture::improved_tests;
using hydra::capture::plain_listing;
using hydra::model::TestCase;
using hydra::model::TestStatus;
using nlohmann::json;

namespace {

TestCase ctest(const std::string& name, TestStatus status) {
  TestCase test;
  test.suite = "ctest";
  test.name = name;
  test.status = status;
  return test;
}

}  // namespace

TEST_CASE("the plain listing runs each program without HydraScore's launcher", "[capture]") {
  const json listing = json::parse(R"({"kind": "ctestInfo", "tests": [
    {"name": "a", "command": ["/opt/hydra-score", "test-launcher", "--", "/b/a_test", "--flag"],
     "properties": [{"name": "WORKING_DIRECTORY", "value": "/b"}]},
    {"name": "wrapped", "command": ["/opt/hydra-score", "test-launcher", "qemu-arm", "--", "/b/w_test"]},
    {"name": "own", "command": ["/usr/bin/python3", "check.py", "--", "x"]},
    {"name": "unbuilt"}]})");
  const json plain = plain_listing(listing);
  CHECK(plain["tests"][0]["command"] == json::array({"/b/a_test", "--flag"}));
  CHECK(plain["tests"][0]["properties"] == listing["tests"][0]["properties"]);
  CHECK(plain["tests"][1]["command"] == json::array({"qemu-arm", "/b/w_test"}));
  CHECK(plain["tests"][2]["command"] == listing["tests"][2]["command"]);  // not the launcher's
  CHECK_FALSE(plain["tests"][3].contains("command"));
  CHECK(plain["kind"] == "ctestInfo");
  // A prefix (setsid) starts each rewritten command; the others stay.
  const json apart = plain_listing(listing, {"/usr/bin/setsid", "--wait"});
  CHECK(apart["tests"][0]["command"] == json::array({"/usr/bin/setsid", "--wait", "/b/a_test", "--flag"}));
  CHECK(apart["tests"][1]["command"] == json::array({"/usr/bin/setsid", "--wait", "qemu-arm", "/b/w_test"}));
  CHECK(apart["tests"][2]["command"] == listing["tests"][2]["command"]);
  // A launcher command without a separator stays as it is, prefix or not.
  const json unseparated = plain_listing(json::parse(R"({"tests": [{"name": "x", "command":
      ["/opt/hydra-score", "test-launcher", "qemu", "/b/x"]}]})"), {"/usr/bin/setsid"});
  CHECK(unseparated["tests"][0]["command"].size() == 4);
}

TEST_CASE("improved tests passed in some attempt here and in no attempt of the baseline", "[capture]") {
  const std::vector<TestCase> baseline = {ctest("fixed", TestStatus::failed),    ctest("flaky", TestStatus::failed),
                                          ctest("flaky", TestStatus::passed),    ctest("good", TestStatus::passed),
                                          ctest("still", TestStatus::failed),    ctest("later", TestStatus::failed)};
  const std::vector<TestCase> judged = {ctest("fixed", TestStatus::passed), ctest("flaky", TestStatus::passed),
                                        ctest("good", TestStatus::passed),  ctest("still", TestStatus::failed),
                                        ctest("later", TestStatus::failed), ctest("later", TestStatus::passed),
                                        ctest("new", TestStatus::passed)};
  // "flaky" passed in a baseline attempt (forgiven there), "new" has no
  // baseline result, "still" never passed here.
  CHECK(improved_tests(baseline, judged) == std::vector<std::string>{"fixed", "later"});
  CHECK(improved_tests({}, judged).empty());
  // The plain run takes every test that passed in some attempt, improved or not.
  CHECK(hydra::capture::passed_tests(judged) == std::vector<std::string>{"fixed", "flaky", "good", "later", "new"});
}

TEST_CASE("the plain run differs from the judged run in what only a test's surroundings show", "[capture]") {
  const json differences = hydra::capture::plain_run_differences();
  REQUIRE(differences.size() == 7);
  // Outside ctest, where the plain runner can judge the test.
  CHECK(differences[1].get<std::string>().rfind("no ctest where the plain runner can judge the test", 0) == 0);
  CHECK(differences[2] == "HOME and TMPDIR outside the build tree");
  CHECK(differences[3].get<std::string>().rfind("in bubblewrap: HOME at the user's own home path", 0) == 0);
  // The neutral variables name nothing of HydraScore's.
  for (const auto& [name, value] : hydra::capture::kPlainNeutralVariables) {
    CHECK(name.find("HYDRA") == std::string::npos);
    CHECK_FALSE(value.empty());
  }
}
