// End to end: flakiness is a property of the baseline, never granted by a
// candidate (docs/threat-model.md, "What candidate code can reach";
// docs/formulas.md, "Flaky tests"). A small CMake project whose baseline has
// one test failing on a real bug (answer.fixed) and one passing
// (answer.kept); candidates as branches, captured in one `capture --ref`
// call against one baseline and scored once:
// - honest: fixes the bug;
// - launder: answers wrongly on its first call in a build tree and rightly
//   once the marker it left there exists; every attempt starts from the
//   build tree the first one started from (the marker is gone), so the
//   failing test fails in every attempt;
// - hide: fixes the bug and breaks answer.kept on the first call only (a
//   regression the rerun would hide);
// - sniff: fixes the bug only when its process name contains "test" (the
//   program is answer_test): HydraScore runs every test program under a
//   neutral name, so the bug stays where it is judged;
// - breaker: fixes the bug and breaks answer.kept for good; ranked with hide,
//   whose flip of answer.kept must not forgive it.
// - shadow: leaves the bug and adds src/cstring, found through the library's
//   public include directory also by the baseline's own test source, which
//   wraps `main` to return 0 (docs/threat-model.md, "Code under test vouching
//   for itself"): the header is named and fails the anti-gaming gate.
// Each attack must lose to the honest fix, which stays first and mergeable.
#include <catch2/catch.hpp>

#include <algorithm>
#include <functional>

#include "e2e_support.hpp"

using namespace e2e;

namespace {

using hydra::util::read_file;
using hydra::util::write_file_atomic;

void create(const fs::path& file, const std::string& text) {
  fs::create_directories(file.parent_path());
  write_file_atomic(file, text);
}

const std::string kWarmed =
    "#include <cstdio>\n"
    "// Whether `marker` existed before this call (it does after it).\n"
    "static bool warmed(const char* marker) {\n"
    "  if (std::FILE* file = std::fopen(marker, \"r\")) {\n"
    "    std::fclose(file);\n"
    "    return true;\n"
    "  }\n"
    "  if (std::FILE* file = std::fopen(marker, \"w\")) std::fclose(file);\n"
    "  return false;\n"
    "}\n";

std::string library(const std::string& answer_body, const std::string& base_body) {
  return "#include \"answer.hpp\"\n" + kWarmed + "int answer() {\n" + answer_body + "}\nint base() {\n" + base_body +
         "}\n";
}

void make_repository(const fs::path& source) {
  create(source / "CMakeLists.txt",
         "cmake_minimum_required(VERSION 3.16)\n"
         "project(answer_demo CXX)\n"
         "set(CMAKE_CXX_STANDARD 17)\n"
         "enable_testing()\n"
         "add_library(answer src/answer.cpp)\n"
         "target_include_directories(answer PUBLIC src)\n"
         "add_executable(answer_test tests/answer_test.cpp)\n"
         "target_link_libraries(answer_test PRIVATE answer)\n"
         "add_test(NAME answer.fixed COMMAND answer_test fixed)\n"
         "add_test(NAME answer.kept COMMAND answer_test kept)\n");
  create(source / "src/answer.hpp", "#pragma once\nint answer();\nint base();\n");
  create(source / "src/answer.cpp", library("  return 41;  // the bug: the answer is 42\n", "  return 7;\n"));
  create(source / "tests/answer_test.cpp",
         "#include <cstring>\n"
         "#include \"answer.hpp\"\n"
         "int main(int argc, char** argv) {\n"
         "  if (argc < 2) return 2;\n"
         "  if (std::strcmp(argv[1], \"fixed\") == 0) return answer() == 42 ? 0 : 1;\n"
         "  if (std::strcmp(argv[1], \"kept\") == 0) return base() == 7 ? 0 : 1;\n"
         "  return 2;\n"
         "}\n");
  commit_repository(source);
}

/// The branch cand/<name>: the library's source is `text`.
void candidate(const fs::path& source, const std::string& name, const std::string& text) {
  commit_candidate(source, name, [&] { write_file_atomic(source / "src/answer.cpp", text); });
}

bool lists(const nlohmann::json& tests, const std::string& name) {
  for (const auto& test : tests)
    if (test.dump().find(name) != std::string::npos) return true;
  return false;
}

}  // namespace

TEST_CASE("flaky laundering e2e: attempts start from one state, a flip on a candidate's code alone is its failure, a test's name is not seen, and a shadowing header is named",
          "[e2e][flaky][flaky_laundering]") {
  hydra::util::TempDir temp("hydra-e2e-flaky-laundering");
  const fs::path root = temp.path();
  const fs::path source = root / "project";
  const fs::path out = root / "out";
  make_repository(source);

  const std::string fixed = "  return 42;\n";
  const std::string kept = "  return 7;\n";
  const std::string first_call_wrong_answer = "  return warmed(\"answer.warm\") ? 42 : 41;\n";
  const std::string first_call_wrong_base = "  return warmed(\"base.warm\") ? 7 : 8;\n";
  candidate(source, "honest", library(fixed, kept));
  candidate(source, "launder", library(first_call_wrong_answer, kept));
  candidate(source, "hide", library(fixed, first_call_wrong_base));
  candidate(source, "breaker", library(fixed, "  return 8;\n"));
  candidate(source, "sniff",
            library("  char name[64] = \"\";\n"
                    "  if (std::FILE* comm = std::fopen(\"/proc/self/comm\", \"r\")) {\n"
                    "    if (!std::fgets(name, sizeof name, comm)) name[0] = 0;\n"
                    "    std::fclose(comm);\n"
                    "  }\n"
                    "  return __builtin_strstr(name, \"test\") ? 42 : 41;\n",
                    kept));
  commit_candidate(source, "shadow", [&] {
    create(source / "src/cstring",
           "#pragma once\n"
           "#include_next <cstring>\n"
           "// Every main of whatever includes <cstring> through the library returns 0.\n"
           "#define main hidden_main(int, char**);"
           " int main(int argc, char** argv) { (void)hidden_main(argc, argv); return 0; } int hidden_main\n");
  });

  capture_baseline(source, out, {"--quiet"});
  capture_refs(source, out);

  std::vector<std::string> argv = {kTool.string(), "score", "--baseline", (out / "baseline").string(),
                                   "--json", (root / "score.json").string(), "--quiet"};
  for (const std::string name : {"honest", "launder", "hide", "breaker", "shadow", "sniff"})
    argv.insert(argv.end(), {"--candidate", (out / ("cand-" + name)).string()});
  const auto scored = run(argv);
  INFO(scored.output);
  REQUIRE((scored.exit_code == 0 || scored.exit_code == 3));
  const auto contract = read_json(root / "score.json");

  // The honest fix: first, mergeable, every test passing.
  const auto honest = ranking_of(contract, "cand-honest");
  INFO(honest.dump(1).substr(0, 3000));
  CHECK(honest["rank"] == 1);
  CHECK(honest["mergeable"] == true);
  CHECK(honest["dimensions"]["tests"]["score"] == 100.0);
  const double honest_total = honest["total"].get<double>();

  // Laundering: the marker its first attempt left in the build tree is gone
  // before the rerun, so the failing test fails again: neither flaky nor a
  // flip, the candidate's failure.
  const auto launder = ranking_of(contract, "cand-launder");
  INFO(launder.dump(1).substr(0, 4000));
  CHECK(launder["total"].get<double>() < honest_total);
  CHECK(launder["dimensions"]["tests"]["score"].get<double>() < 100.0);
  CHECK(launder["dimensions"]["tests"]["evidence"].value("flipped_on_candidate", 0) == 0);
  CHECK(launder["dimensions"]["tests"]["evidence"]["flaky"] == 0);
  CHECK(launder["tests"]["flaky"].empty());
  {  // the rerun ran, and it failed too
    const auto manifest = read_json(out / "cand-launder" / "manifest.json");
    INFO(manifest.value("test_attempts", nlohmann::json()).dump(1));
    bool failed_again = false;
    for (const auto& attempt : manifest.at("test_attempts").at("runs"))
      if (attempt.at("kind") == "rerun" && attempt.contains("results"))
        failed_again = read_file(out / "cand-launder" / attempt.at("results").get<std::string>()).find("answer.fixed") !=
                           std::string::npos &&
                       attempt.at("exit_code") != 0;
    CHECK(failed_again);
  }

  // Behaving well only under a test's name: judged under a neutral one, the
  // bug stays.
  const auto sniff = ranking_of(contract, "cand-sniff");
  INFO(sniff.dump(1).substr(0, 4000));
  CHECK(sniff["total"].get<double>() < honest_total);
  CHECK(sniff["dimensions"]["tests"]["score"].get<double>() < 100.0);

  // A regression the rerun hides is still a regression.
  const auto hide = ranking_of(contract, "cand-hide");
  INFO(hide.dump(1).substr(0, 4000));
  CHECK(hide["mergeable"] == false);
  CHECK(lists(hide["tests"]["regressed"], "answer.kept"));
  CHECK(hide["total"].get<double>() < honest_total);

  // Another candidate's flip of answer.kept does not forgive this one's break.
  const auto breaker = ranking_of(contract, "cand-breaker");
  INFO(breaker.dump(1).substr(0, 4000));
  CHECK(breaker["mergeable"] == false);
  CHECK(lists(breaker["tests"]["regressed"], "answer.kept"));
  CHECK(breaker["total"].get<double>() < honest_total);
  CHECK(contract.value("flaky_tests", nlohmann::json::array()).empty());

  // A header of the change shadowing a standard one, found by the baseline's
  // test source: named, and the anti-gaming gate fails.
  const auto shadow = ranking_of(contract, "cand-shadow");
  INFO(shadow.dump(1).substr(0, 6000));
  CHECK(shadow["mergeable"] == false);
  const auto gates = failed_gates(shadow);
  CHECK(std::find(gates.begin(), gates.end(), "anti_gaming") != gates.end());
  CHECK(shadow.dump().find("header src/cstring of the change shadows the system header") != std::string::npos);
  CHECK(shadow["total"].get<double>() < honest_total);
}
