// util::resolve_refs: git for-each-ref patterns (branches, tags, remote
// branches), plain commits and tags through rev-parse, on a real repository.
#include <catch2/catch.hpp>

#include <hydra/error.hpp>
#include <hydra/util/files.hpp>
#include <hydra/util/git.hpp>
#include <hydra/util/text.hpp>

namespace fs = std::filesystem;
using hydra::util::checked_git;
using hydra::util::resolve_refs;
using hydra::util::trim;

namespace {

std::string commit(const fs::path& repo, const std::string& file, const std::string& message) {
  hydra::util::write_file_atomic(repo / file, message + "\n");
  checked_git(repo, {"add", file});
  checked_git(repo, {"-c", "user.name=t", "-c", "user.email=t@example.invalid", "commit", "--quiet", "-m", message});
  return std::string(trim(checked_git(repo, {"rev-parse", "HEAD"}).output));
}

std::vector<std::string> names(const std::vector<hydra::util::NamedRef>& refs) {
  std::vector<std::string> out;
  for (const auto& ref : refs) out.push_back(ref.name);
  return out;
}

}  // namespace

TEST_CASE("resolve_refs finds branches, tags, remote branches and plain commits", "[util][git]") {
  hydra::util::TempDir temp("hydra-refs");
  const fs::path repo = temp.path();
  checked_git(repo, {"init", "--quiet", "--initial-branch=main"});
  const std::string base = commit(repo, "a.txt", "base");
  checked_git(repo, {"branch", "agent/one"});
  checked_git(repo, {"checkout", "--quiet", "-b", "agent/two"});
  const std::string two = commit(repo, "b.txt", "two");
  checked_git(repo, {"checkout", "--quiet", "main"});
  // An annotated tag (peeled to its commit), a remote branch and the remote's
  // symbolic HEAD, as a fetch leaves them.
  checked_git(repo, {"-c", "user.name=t", "-c", "user.email=t@example.invalid", "tag", "-a", "v1", "-m", "v1", two});
  checked_git(repo, {"update-ref", "refs/remotes/origin/agent-three", two});
  checked_git(repo, {"update-ref", "refs/remotes/origin/main", base});
  checked_git(repo, {"symbolic-ref", "refs/remotes/origin/HEAD", "refs/remotes/origin/main"});

  SECTION("a glob under refs/heads/, each branch once, sorted by name") {
    const auto refs = resolve_refs(repo, {"agent/*", "agent/one"});
    CHECK(names(refs) == std::vector<std::string>{"agent/one", "agent/two"});
    CHECK(refs[0].commit == base);
    CHECK(refs[1].commit == two);
  }
  SECTION("a full pattern of remote branches; symbolic refs are skipped") {
    CHECK(names(resolve_refs(repo, {"refs/remotes/origin/agent-*"})) == std::vector<std::string>{"origin/agent-three"});
    CHECK(names(resolve_refs(repo, {"refs/remotes/origin/*"})) ==
          std::vector<std::string>{"origin/agent-three", "origin/main"});
  }
  SECTION("a tag is peeled to its commit; a commit is taken as given") {
    const auto tag = resolve_refs(repo, {"v1"});
    REQUIRE(tag.size() == 1);
    CHECK(tag[0].name == "v1");
    CHECK(tag[0].commit == two);
    const auto plain = resolve_refs(repo, {base.substr(0, 10)});
    REQUIRE(plain.size() == 1);
    CHECK(plain[0].name == base.substr(0, 10));
    CHECK(plain[0].commit == base);
  }
  SECTION("bad input: a pattern that matches nothing, or an option, is an error naming it") {
    try {
      resolve_refs(repo, {"agent/*", "nobody/*"});
      FAIL("no error");
    } catch (const hydra::UsageError& error) {
      CHECK(std::string(error.what()).find("no ref or commit matches \"nobody/*\"") != std::string::npos);
    }
    CHECK_THROWS_WITH(resolve_refs(repo, {"--all"}), Catch::Contains("\"--all\" is not a ref pattern"));
  }
}
