// The listed tests' CTestTestfile.cmake (capture/runners/listed_tests.hpp).
#include <catch2/catch.hpp>

#include <hydra/capture/runners/listed_tests.hpp>
#include <hydra/util/files.hpp>
#include <hydra/util/process.hpp>

using hydra::capture::bracket_argument;
using hydra::capture::listed_tests_file;
using nlohmann::json;

namespace {

/// The tests of a json-v1 listing without their backtraces.
json tests_of(const json& listing) {
  json tests = listing.at("tests");
  for (auto& test : tests) test.erase("backtrace");
  return tests;
}

}  // namespace

TEST_CASE("bracket arguments hold any word", "[capture]") {
  CHECK(bracket_argument("plain") == "[[plain]]");
  CHECK(bracket_argument("a]]b") == "[=[a]]b]=]");
  CHECK(bracket_argument("a]") == "[=[a]]=]");
  CHECK(bracket_argument("x]=]y]]") == "[==[x]=]y]]]==]");
  CHECK(bracket_argument("\nline") == "[[\n\nline]]");
  CHECK(bracket_argument("") == "[[]]");
}

TEST_CASE("the listed tests are written with their command and every property", "[capture]") {
  const json listing = json::parse(R"({"kind": "ctestInfo", "tests": [
    {"name": "a", "command": ["/bin/sh", "-c", "exit 3", "x;y"],
     "properties": [{"name": "WILL_FAIL", "value": true}, {"name": "TIMEOUT", "value": 5.5},
                    {"name": "LABELS", "value": ["l1", "l2"]}, {"name": "SKIP_RETURN_CODE", "value": 4},
                    {"name": "WORKING_DIRECTORY", "value": "/tmp"}]},
    {"name": "gone", "properties": []}]})");
  std::vector<std::string> problems;
  const std::string text = listed_tests_file(listing, problems);
  CHECK(problems.empty());
  CHECK(text.find("add_test([[a]] [[/bin/sh]] [[-c]] [[exit 3]] [[x;y]])\n") != std::string::npos);
  CHECK(text.find("set_tests_properties([[a]] PROPERTIES [[WILL_FAIL]] [[ON]] [[TIMEOUT]] [[5.5]] [[LABELS]] "
                  "[[l1;l2]] [[SKIP_RETURN_CODE]] [[4]] [[WORKING_DIRECTORY]] [[/tmp]])\n") != std::string::npos);
  CHECK(text.find("add_test([[gone]] [[(ctest listed no program for this test)]])\n") != std::string::npos);
  CHECK(text.find("set_tests_properties([[gone]]") == std::string::npos);

  SECTION("a value HydraScore cannot write back is a problem, never dropped quietly") {
    const json odd = json::parse(
        R"({"tests": [{"name": "a", "command": ["x"], "properties": [{"name": "NEW", "value": {"k": 1}}]}]})");
    problems.clear();
    const std::string odd_text = listed_tests_file(odd, problems);
    REQUIRE(problems.size() == 1);
    CHECK(problems[0].find("property NEW") != std::string::npos);
    CHECK(odd_text.find("NEW") == std::string::npos);
  }
  SECTION("a listing without tests is a problem") {
    problems.clear();
    listed_tests_file(json::object(), problems);
    CHECK(problems.size() == 1);
  }
}

TEST_CASE("ctest lists HydraScore's file exactly as it listed the tree", "[capture]") {
  const auto cmake = hydra::util::find_program("cmake");
  const auto ctest = hydra::util::find_program("ctest");
  if (!cmake || !ctest) {
    WARN("cmake or ctest is not installed");
    return;
  }
  hydra::util::TempDir temp("hydra-listed");
  const auto root = temp.path();
  std::filesystem::create_directories(root / "src");
  hydra::util::write_file_atomic(root / "src" / "CMakeLists.txt", R"(cmake_minimum_required(VERSION 3.25)
project(p NONE)
enable_testing()
add_test(NAME a COMMAND /bin/sh -c "echo hi" "x;y" "[[z]]" "w]")
add_test(NAME b COMMAND /bin/sh -c "exit 3")
set_tests_properties(a PROPERTIES WILL_FAIL ON TIMEOUT 5 ENVIRONMENT "A=1;B=2" LABELS "l1;l2"
  PASS_REGULAR_EXPRESSION "h.;x" FIXTURES_SETUP fx RESOURCE_LOCK r RUN_SERIAL ON PROCESSORS 2
  SKIP_RETURN_CODE 4 COST 3 REQUIRED_FILES /etc/passwd ENVIRONMENT_MODIFICATION "X=set:1"
  TIMEOUT_AFTER_MATCH "1;foo" RESOURCE_GROUPS "2,gpus:1;cpus:2,mem:3" MEASUREMENT "m=1"
  ATTACHED_FILES /etc/hosts SKIP_REGULAR_EXPRESSION skip FAIL_REGULAR_EXPRESSION bad
  PROCESSOR_AFFINITY ON WORKING_DIRECTORY /tmp)
set_tests_properties(b PROPERTIES FIXTURES_REQUIRED fx DISABLED ON DEPENDS a)
)");
  const auto run = [&](std::vector<std::string> argv) {
    hydra::util::ProcessRequest request;
    request.argv = std::move(argv);
    request.separate_stderr = true;
    const auto result = hydra::util::run_process(request);
    REQUIRE(result.exit_code == 0);
    return result.output;
  };
  run({cmake->string(), "-S", (root / "src").string(), "-B", (root / "build").string()});
  const json tree = json::parse(run({ctest->string(), "--test-dir", (root / "build").string(), "--show-only=json-v1"}));
  std::vector<std::string> problems;
  const auto folder = hydra::capture::write_listed_tests(root / "build", listed_tests_file(tree, problems));
  CHECK(problems.empty());
  const json own = json::parse(run({ctest->string(), "--test-dir", folder.string(), "--show-only=json-v1"}));
  CHECK(tests_of(own) == tests_of(tree));

  SECTION("a test whose program was not built fails as it does when ctest reads the tree") {
    hydra::util::write_file_atomic(root / "src" / "CMakeLists.txt", R"(cmake_minimum_required(VERSION 3.25)
project(p NONE)
enable_testing()
add_test(NAME missing COMMAND ${CMAKE_BINARY_DIR}/not-built)
)");
    run({cmake->string(), "-S", (root / "src").string(), "-B", (root / "build").string()});
    const json listed = json::parse(run({ctest->string(), "--test-dir", (root / "build").string(), "--show-only=json-v1"}));
    const auto tests_dir = hydra::capture::write_listed_tests(root / "build", listed_tests_file(listed, problems));
    hydra::util::ProcessRequest request;
    request.argv = {ctest->string(), "--test-dir", tests_dir.string()};
    const auto ran = hydra::util::run_process(request);
    CHECK(ran.exit_code != 0);
    CHECK(ran.output.find("Unable to find executable") != std::string::npos);
  }
}
