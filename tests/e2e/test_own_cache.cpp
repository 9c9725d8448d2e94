// End to end: a candidate's held-out build reuses what the candidate's own
// build compiled (src/hydra/capture/cmake/own_cache.hpp, docs/caches.md),
// and nothing the candidate's code could have written.
#include <catch2/catch.hpp>

#include <regex>
#include <set>

#include "e2e_support.hpp"

using namespace e2e;

namespace {

void append_file(const fs::path& file, const std::string& text) {
  hydra::util::write_file_atomic(file, hydra::util::read_file(file) + text);
}

const std::string kHeaderChange = "\ninline int textstats_revision() { return 2; }\n";

/// Each test case of a JUnit file with whether it failed.
std::set<std::string> outcomes(const fs::path& junit) {
  std::set<std::string> result;
  const std::string text = hydra::util::read_file(junit);
  const std::regex testcase("<testcase[^>]*name=\"([^\"]*)\"[^>]*?(/>|>)");
  for (auto it = std::sregex_iterator(text.begin(), text.end(), testcase); it != std::sregex_iterator(); ++it) {
    const std::size_t end = text.find("</testcase>", it->position());
    const bool failed = (*it)[2] == ">" && text.substr(it->position(), end - it->position()).find("<failure") !=
                                               std::string::npos;
    result.insert((*it)[1].str() + (failed ? ": failed" : ": passed"));
  }
  return result;
}

/// A test program that, whenever it runs, gives every file it can write
/// under `root` whose path names a ccache folder the bytes of the next such
/// file: a valid entry under another unit's key, were it a cache entry. It
/// lists what it rewrote in forged.txt of its working folder.
std::string forging_code(const fs::path& root) {
  return R"(
#include <filesystem>
#include <fstream>
#include <iterator>
namespace {
struct Forger {
  Forger() {
    namespace fs = std::filesystem;
    std::error_code error;
    std::vector<fs::path> files;
    for (auto it = fs::recursive_directory_iterator(")" + root.string() + R"(",
                                                    fs::directory_options::skip_permission_denied, error);
         !error && it != fs::recursive_directory_iterator(); it.increment(error)) {
      const std::string path = it->path().string();
      if (path.find("ccache") != std::string::npos && it->is_regular_file(error)) files.push_back(it->path());
    }
    std::vector<std::string> contents;
    for (const auto& file : files) {
      std::ifstream in(file, std::ios::binary);
      contents.emplace_back(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    }
    std::ofstream log("forged.txt", std::ios::app);
    for (std::size_t index = 0; index < files.size(); ++index) {
      std::ofstream out(files[index], std::ios::binary | std::ios::trunc);
      if (!out) continue;
      out << contents[(index + 1) % files.size()];
      if (out.flush()) log << files[index].string() << "\n";
    }
  }
};
const Forger forger;
}  // namespace
)";
}

}  // namespace

TEST_CASE("a held-out build reuses what its own candidate's build compiled, and only that",
          "[e2e][capture][cache][held-out]") {
  if (!hydra::util::find_program("ccache") || !hydra::util::find_program("bwrap")) {
    WARN("ccache or bwrap is not installed: nothing to reuse");
    return;
  }
  hydra::util::TempDir temp("hydra-own-cache");
  const fs::path root = temp.path();
  const fs::path repository = root / "repo";
  make_example_repository(repository);
  const auto capture = [&](const std::string& agent, std::vector<std::string> extra = {}) {
    std::vector<std::string> options = {"--build-dir", (root / "trees" / agent).string(), "--agent", agent,
                                        "--quiet", "--no-lint", "--generator", "Ninja"};
    if (agent != "baseline") options.insert(options.end(), {"--baseline-run", (root / "runs" / "baseline").string()});
    options.insert(options.end(), extra.begin(), extra.end());
    const auto result = run(capture_command(repository, root / "runs" / agent, options));
    INFO(result.output);
    REQUIRE(result.exit_code == 0);
    return read_json(root / "runs" / agent / "manifest.json");
  };
  const auto change = [&](const std::string& test_code, bool cmake) {
    git(repository, {"checkout", "--quiet", "--", "."});
    append_file(repository / "include" / "textstats" / "textstats.hpp", kHeaderChange);
    append_file(repository / "tests" / "test_count.cpp", test_code);
    if (cmake) append_file(repository / "tests" / "CMakeLists.txt", "# a comment\n");
  };
  capture("baseline");
  // A header every unit but tokenize's includes, and a test: the held-out
  // tree (the header change with the baseline's tests) is built.
  change("\nstatic_assert(sizeof(int) >= 2);\n", false);
  const auto header = capture("header");
  const auto uncached = capture("header-uncached", {"--no-cache"});
  INFO(header["caches"]["compiler"].dump(1) << "\n" << header["held_out"].dump(1));
  REQUIRE(header["held_out"]["mode"] == "built");
  // The candidate's build missed count.cpp, frequency.cpp, test_count.cpp and
  // test_frequency.cpp (they include the header) and stored those 4.
  CHECK(header["caches"]["compiler"]["own"]["role"] == "writer");
  CHECK(header["caches"]["compiler"]["own"]["stored"] == 4);
  // The held-out build: tokenize.cpp and test_tokenize.cpp from the
  // baseline's cache (2), count.cpp, frequency.cpp and test_frequency.cpp
  // from the candidate's own (3), the baseline's test_count.cpp compiled (1).
  const auto& held = header["held_out"]["run"]["compiler_cache"];
  CHECK(held["hits"] == 2);
  CHECK(held["own"]["role"] == "reader");
  CHECK(held["own"]["hits"] == 3);
  const auto expected = outcomes(root / "runs" / "header-uncached" / "held-out" / "junit" / "0.xml");
  CHECK(!expected.empty());
  CHECK(outcomes(root / "runs" / "header" / "held-out" / "junit" / "0.xml") == expected);
  CHECK(uncached["held_out"]["mode"] == "built");

  // The same change with a CMake file touched: the build fills no cache.
  change("\nstatic_assert(sizeof(int) >= 2);\n", true);
  const auto cmake = capture("cmake");
  CHECK(cmake["caches"]["compiler"]["own"]["role"] == "none");
  CHECK(cmake["caches"]["compiler"]["own"]["reason"] ==
        "the change touches tests/CMakeLists.txt, a file of the build system");
  CHECK(!cmake["held_out"]["run"]["compiler_cache"].contains("own"));
  CHECK(outcomes(root / "runs" / "cmake" / "held-out" / "junit" / "0.xml") == expected);

  // A candidate whose test program rewrites every ccache file it can reach:
  // its own cache is out of reach, so its held-out build (the same code as
  // `header`'s, the baseline's tests) is served what its build compiled.
  change(forging_code(root), false);
  const auto forger = capture("forger");
  const std::string forged = hydra::util::read_file(root / "trees" / "forger" / "tests" / "forged.txt");
  INFO(forged);
  CHECK(!forged.empty());  // it did reach some (its build tree's temporary and statistics files)
  CHECK(forged.find("own-ccache") == std::string::npos);
  CHECK(forger["held_out"]["run"]["compiler_cache"]["own"]["hits"] == 3);
  CHECK(outcomes(root / "runs" / "forger" / "held-out" / "junit" / "0.xml") == expected);
  // Nor does a later capture see anything of it: the folders go with each capture.
  for (const auto& entry : fs::recursive_directory_iterator(root / "runs"))
    CHECK(entry.path().filename() != ".hydra-own-ccache");
  CHECK(capture("header-again")["held_out"]["run"]["compiler_cache"]["own"]["hits"] == 3);
}
