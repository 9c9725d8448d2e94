// parse_manifest: every key of manifest.json typed; a wrong type is an
// input error naming the file and the key's JSON pointer.
#include <catch2/catch.hpp>

#include <map>
#include <set>
#include <string>
#include <vector>

#include <hydra/error.hpp>
#include <hydra/parse/manifest.hpp>

using hydra::parse::parse_manifest;
using nlohmann::json;

namespace {

std::string error_of(const json& document) {
  try {
    parse_manifest(document, "runs/agent/manifest.json");
  } catch (const hydra::InputError& error) {
    CHECK(error.file() == "runs/agent/manifest.json");
    return error.what();
  }
  FAIL("expected an InputError");
  return {};
}

}  // namespace

TEST_CASE("parse_manifest reads what capture and record write", "[parse]") {
  const json document = json::parse(R"({
    "schema": "hydra-score/run/1", "engine_version": "1.0.0", "agent": "fix", "task": "t1",
    "source_root": "/src", "source_commit": "abc", "base_commit": "abd", "build_dir": "/b",
    "cache_key": "k", "config_digest": "d", "sandbox": "bubblewrap: read-only",
    "tools": {"cmake": "cmake version 3.25.1"}, "agent_seconds": 93.5,
    "build": {"exit_code": 2, "seconds": 1.5, "timed_out": false},
    "tests_expected": true, "lint_inactive_reason": "no clang-tidy",
    "security": {"ran": true, "exit_code": 0, "detail": "ok"},
    "problems": ["junit/0.xml: truncated"],
    "unparsable_artifacts": [{"path": "junit/1.xml"}],
    "recaptured": {"reason": "seal broken"},
    "retried_alone": {"reason": "its build step ran out of time"},
    "artifacts": [{"path": "diff.patch", "role": "diff", "sha256": "00", "size": 3}],
    "seal": "ff", "steps": [], "held_out": {"mode": "none"}, "a key of a later version": [1, 2]
  })");
  const auto manifest = parse_manifest(document, "manifest.json");
  CHECK(manifest.agent == "fix");
  CHECK(manifest.task == "t1");
  CHECK(manifest.tools.at("cmake") == "cmake version 3.25.1");
  CHECK(manifest.agent_seconds == 93.5);
  REQUIRE(manifest.build);
  CHECK(manifest.build->exit_code == 2);
  CHECK(manifest.build->seconds == 1.5);
  CHECK(manifest.tests_expected);
  CHECK(manifest.lint_inactive_reason == "no clang-tidy");
  CHECK(manifest.security.ran);
  CHECK(manifest.security.exit_code == 0);
  CHECK(manifest.problems == std::vector<std::string>{"junit/0.xml: truncated"});
  REQUIRE(manifest.unparsable_artifacts.size() == 1);
  CHECK(manifest.unparsable_artifacts[0].reason == "could not be parsed");
  CHECK(manifest.recaptured == "seal broken");
  CHECK(manifest.retried_alone == "its build step ran out of time");
  REQUIRE(manifest.artifacts.size() == 1);
  CHECK(manifest.artifacts[0].role == "diff");
  CHECK(manifest.artifacts[0].size == 3u);
  CHECK(manifest.seal == "ff");
}

TEST_CASE("parse_manifest: absent keys keep their defaults", "[parse]") {
  const auto manifest = parse_manifest(json::object(), "manifest.json");
  CHECK(manifest.agent == "candidate");
  CHECK_FALSE(manifest.build);
  CHECK_FALSE(manifest.security.ran);
  CHECK(manifest.artifacts.empty());
  // "build" without an exit code: no build result was recorded.
  CHECK_FALSE(parse_manifest(json{{"build", json::object()}}, "manifest.json").build);
}

TEST_CASE("parse_manifest: a key of the wrong type names its pointer", "[parse]") {
  CHECK(error_of(json{{"agent", 5}}) == "runs/agent/manifest.json: \"/agent\": expected a string, found number");
  CHECK(error_of(json{{"build", {{"exit_code", "0"}}}}).find("\"/build/exit_code\": expected an integer") !=
        std::string::npos);
  CHECK(error_of(json{{"build", {{"exit_code", 0}, {"seconds", "fast"}}}}).find("\"/build/seconds\"") !=
        std::string::npos);
  CHECK(error_of(json{{"build", {{"exit_code", 18446744073709551615ULL}}}}).find("expected an integer") !=
        std::string::npos);
  CHECK(error_of(json{{"tools", {{"cmake", 3}}}}).find("\"/tools/cmake\"") != std::string::npos);
  CHECK(error_of(json{{"problems", {"ok", 1}}}).find("\"/problems/1\": expected a string") != std::string::npos);
  CHECK(error_of(json{{"artifacts", {1}}}).find("\"/artifacts/0\": expected an object") != std::string::npos);
  CHECK(error_of(json{{"artifacts", {{{"path", "a"}, {"size", -1}}}}}).find("\"/artifacts/0/size\"") !=
        std::string::npos);
  CHECK(error_of(json{{"security", {{"ran", "yes"}}}}).find("\"/security/ran\": expected true or false") !=
        std::string::npos);
  CHECK(error_of(json{{"recaptured", "yes"}}).find("\"/recaptured\": expected an object") != std::string::npos);
  CHECK(error_of(json{{"retried_alone", {{"reason", 2}}}}).find("\"/retried_alone/reason\": expected a string") !=
        std::string::npos);
  CHECK(error_of(json::array()).find("a run manifest is a JSON object") != std::string::npos);
}

TEST_CASE("parse_manifest: the records the anti-gaming checks read, typed", "[parse]") {
  const json document = json::parse(R"({
    "shadowing_headers": [{"header": "src/cstdio", "shadows": "cstdio"}],
    "lint_view": {"compiled_changed_files": ["src/fee_notes.md"], "units": 3},
    "compile_flag_suppressions": [{"unit": "<source>/src/a.cpp", "target": "<build>/lib", "flag": "-w"}],
    "object_references": {"sources": {"src/a.cpp": ["atexit", "/proc/1/comm"]},
                          "test_sources": {"tests/t.cpp": []}},
    "launcher_differential": {"tests": [{"test": "a", "judged": "passed", "plain": "failed", "plain_runs": 2}]},
    "tampering_caught": [{"test": "a", "message": "hydra-score: tampering: main returned 1"}],
    "held_out": {"mode": "built", "run": {
      "tampering_caught": [{"test": "p", "message": "hydra-score: tampering: the must-fail canary exited 0"}],
      "object_references": {"test_sources": {"tests/t.cpp": ["syscall"]}},
      "launcher_differential": {"tests": [{"test": "b", "judged": "passed", "plain": "passed", "plain_runs": 1}]}}}
  })");
  const auto manifest = parse_manifest(document, "manifest.json");
  CHECK(manifest.records.shadowing_headers == std::map<std::string, std::string>{{"src/cstdio", "cstdio"}});
  CHECK(manifest.records.compiled_changed_files == std::vector<std::string>{"src/fee_notes.md"});
  REQUIRE(manifest.records.compile_flag_suppressions.size() == 1);
  CHECK(manifest.records.compile_flag_suppressions[0].flag == "-w");
  CHECK(manifest.records.compile_flag_suppressions[0].target == "<build>/lib");
  CHECK(error_of(json{{"compile_flag_suppressions", {{{"unit", "<source>/a.cpp"}}}}})
            .find("\"/compile_flag_suppressions/0/flag\": missing") != std::string::npos);
  REQUIRE(manifest.records.object_references.sources);
  CHECK(manifest.records.object_references.sources->at("src/a.cpp") == std::set<std::string>{"/proc/1/comm", "atexit"});
  REQUIRE(manifest.records.object_references.test_sources);
  CHECK(manifest.records.object_references.test_sources->at("tests/t.cpp").empty());
  CHECK_FALSE(manifest.records.held_out_object_references.sources);
  CHECK(manifest.records.held_out_object_references.test_sources->at("tests/t.cpp") == std::set<std::string>{"syscall"});
  REQUIRE(manifest.records.launcher_differential);
  REQUIRE(manifest.records.launcher_differential->size() == 1);
  CHECK(manifest.records.launcher_differential->front().run == "candidate");
  CHECK(manifest.records.launcher_differential->front().plain == "failed");
  CHECK(manifest.records.launcher_differential->front().plain_runs == 2);
  REQUIRE(manifest.records.held_out_launcher_differential.size() == 1);
  CHECK(manifest.records.held_out_launcher_differential.front().run == "held-out");
  CHECK(manifest.records.held_out_launcher_differential.front().test == "b");
  // The tests the launcher caught rewriting their verdict, in both runs.
  REQUIRE(manifest.records.tampering_caught.size() == 2);
  CHECK(manifest.records.tampering_caught[0].run == "candidate");
  CHECK(manifest.records.tampering_caught[0].test == "a");
  CHECK(manifest.records.tampering_caught[0].message == "hydra-score: tampering: main returned 1");
  CHECK(manifest.records.tampering_caught[1].run == "held-out");
  CHECK(manifest.records.tampering_caught[1].test == "p");
  CHECK(error_of(json{{"tampering_caught", {{{"message", "m"}}}}}).find("\"/tampering_caught/0/test\": missing") !=
        std::string::npos);
  CHECK(error_of(json{{"tampering_caught", {{"test", "a"}}}}).find("\"/tampering_caught\"") != std::string::npos);
  // A run whose objects could not be read records why (a candidate's fails the
  // gate where the baseline's were read, guard::unread_objects_reason).
  const auto unread = parse_manifest(json{{"object_references", {{"problem", "no nm"}}}}, "m.json");
  CHECK_FALSE(unread.records.object_references.sources);
  CHECK(unread.records.object_references.problem == "no nm");
  CHECK(error_of(json{{"object_references", {{"problem", 3}}}}).find("expected a string") != std::string::npos);
  CHECK(error_of(json{{"launcher_differential", {{"tests", {{{"plain", "failed"}}}}}}})
            .find("\"/launcher_differential/tests/0/test\": missing") != std::string::npos);
  CHECK(error_of(json{{"object_references", {{"sources", {{"src/a.cpp", "atexit"}}}}}})
            .find("\"/object_references/sources/src/a.cpp\": expected an array") != std::string::npos);
  CHECK(error_of(json{{"object_references", {1}}}).find("\"/object_references\": expected an object") !=
        std::string::npos);
  CHECK(error_of(json{{"shadowing_headers", {{{"header", 1}}}}}).find("\"/shadowing_headers/0/header\"") !=
        std::string::npos);
  CHECK(error_of(json{{"lint_view", {{"compiled_changed_files", {2}}}}})
            .find("\"/lint_view/compiled_changed_files/0\": expected a string") != std::string::npos);
}
