// util::diff_against: the change of a work tree, without the build trees and
// HydraScore output kept inside the repository.
#include <catch2/catch.hpp>

#include <algorithm>

#include <hydra/util/files.hpp>
#include <hydra/util/git.hpp>
#include <hydra/util/process.hpp>
#include <hydra/util/text.hpp>

namespace fs = std::filesystem;
using hydra::util::checked_git;

namespace {

void write(const fs::path& file, const std::string& text) {
  fs::create_directories(file.parent_path());
  hydra::util::write_file_atomic(file, text);
}

/// git as a user runs it (replace refs honoured), for comparison.
std::string run_plain_git(const fs::path& repo, std::vector<std::string> arguments) {
  hydra::util::ProcessRequest request;
  request.argv = {"git", "-C", repo.string()};
  request.argv.insert(request.argv.end(), arguments.begin(), arguments.end());
  return hydra::util::run_process(request).output;
}

/// git as a user runs it, for a fixture: a clone (the scorer's git fetches nothing).
void plain_git_checked(const fs::path& directory, std::vector<std::string> arguments) {
  hydra::util::ProcessRequest request;
  request.argv = {"git", "-C", directory.string()};
  request.argv.insert(request.argv.end(), arguments.begin(), arguments.end());
  const hydra::util::ProcessResult result = hydra::util::run_process(request);
  INFO(result.output);
  REQUIRE(result.exit_code == 0);
}

}  // namespace

TEST_CASE("diff_against leaves out build trees, run directories, staging folders and their locks", "[util][git]") {
  hydra::util::TempDir temp("hydra-diff");
  const fs::path repo = temp.path();
  checked_git(repo, {"init", "--quiet", "--initial-branch=main"});
  write(repo / "src" / "lib.rs", "fn a() {}\n");
  checked_git(repo, {"add", "--all"});
  checked_git(repo, {"-c", "user.name=t", "-c", "user.email=t@example.invalid", "commit", "--quiet", "-m", "base"});
  const std::string base(hydra::util::trim(checked_git(repo, {"rev-parse", "HEAD"}).output));

  // The change: an edited file, a new file, and a note beside the runs.
  write(repo / "src" / "lib.rs", "fn a() { b() }\n");
  write(repo / "src" / "new.rs", "fn b() {}\n");
  write(repo / "runs" / "notes.txt", "kept\n");
  // What captures left inside the repository.
  write(repo / "runs" / "baseline" / "manifest.json", "{\n  \"schema\": \"hydra-score/run/1\"\n}\n");
  write(repo / "runs" / "baseline" / "signals.json", "{}\n");
  write(repo / "runs" / ".baseline.lock", "");
  write(repo / "runs" / "baseline.build" / hydra::util::kBuildTreeMarker, "");
  write(repo / "runs" / "baseline.build" / "tree" / "src" / "lib.rs", "fn a() {}\n");
  write(repo / "runs" / ".agent.capture-Ab12Cd" / "junit" / "0.xml", "<testsuites/>\n");
  write(repo / "cmake-debug" / "CMakeCache.txt", "CMAKE_HOME_DIRECTORY:INTERNAL=/x\n");
  // Not output: a manifest of some other tool, and a lock with no run beside it.
  write(repo / "data" / "manifest.json", "{\"schema\": \"other\"}\n");
  write(repo / "runs" / ".other.lock", "");

  const std::string diff = hydra::util::diff_against(repo, base, {});
  std::vector<std::string> files;
  for (std::size_t at = diff.find("diff --git a/"); at != std::string::npos; at = diff.find("diff --git a/", at + 1))
    files.push_back(diff.substr(at + 13, diff.find(' ', at + 13) - at - 13));
  std::sort(files.begin(), files.end());
  CHECK(files == std::vector<std::string>{"data/manifest.json", "runs/.other.lock", "runs/notes.txt", "src/lib.rs",
                                          "src/new.rs"});
}

namespace {

/// A repository with one committed source file; returns its base commit.
std::string committed_repository(const fs::path& repo) {
  fs::create_directories(repo);
  checked_git(repo, {"init", "--quiet", "--initial-branch=main"});
  write(repo / "src" / "fee.cpp", "int fee() { return 1; }\n");
  write(repo / "tests" / "test_fee.cpp", "int main() { return fee() == 2 ? 0 : 1; }\n");
  checked_git(repo, {"add", "--all"});
  checked_git(repo, {"-c", "user.name=t", "-c", "user.email=t@example.invalid", "commit", "--quiet", "-m", "base"});
  return std::string(hydra::util::trim(checked_git(repo, {"rev-parse", "HEAD"}).output));
}

void make_executable(const fs::path& file, const std::string& text) {
  write(file, text);
  fs::permissions(file, fs::perms::owner_all | fs::perms::group_read | fs::perms::others_read);
}

}  // namespace

TEST_CASE("the scorer's git reads nothing the repository supplies: attributes, filters, ignore lists, hooks",
          "[util][git]") {
  hydra::util::TempDir temp("hydra-git-blind");
  const fs::path repo = temp.path() / "repo";
  const std::string base = committed_repository(repo);
  const fs::path ran = temp.path() / "ran";  // what a hook or filter command leaves behind

  // Sources marked binary by a committed .gitattributes, a clean filter that
  // shows the committed text of the test from the clone's config and
  // info/attributes, a fix in a file the clone's info/exclude ignores.
  write(repo / ".gitattributes", "*.cpp -diff\n");
  write(repo / ".git" / "info" / "attributes", "tests/*.cpp filter=committed\n");
  checked_git(repo, {"config", "filter.committed.clean", "touch " + ran.string() + "; git show HEAD:tests/test_fee.cpp"});
  checked_git(repo, {"config", "filter.committed.required", "true"});
  checked_git(repo, {"config", "diff.external", "true"});
  write(repo / ".git" / "info" / "exclude", "src/fix.inc\n");
  checked_git(repo, {"config", "core.excludesFile", (temp.path() / "ignored").string()});
  write(temp.path() / "ignored", "src/also_hidden.inc\n");
  make_executable(repo / ".git" / "hooks" / "post-checkout", "#!/bin/sh\ntouch " + ran.string() + "\n");

  write(repo / "src" / "fee.cpp", "int fee() { return 1; }  // NOLINT\n");
  write(repo / "tests" / "test_fee.cpp", "int main() { return fee() != 2 ? 0 : 1; }\n");
  write(repo / "src" / "fix.inc", "#define FEE 2\n");
  write(repo / "src" / "also_hidden.inc", "#define FEE 3\n");

  const std::string diff = hydra::util::diff_against(repo, base, {});
  CHECK(diff.find("+int fee() { return 1; }  // NOLINT") != std::string::npos);
  CHECK(diff.find("+int main() { return fee() != 2 ? 0 : 1; }") != std::string::npos);
  CHECK(diff.find("+#define FEE 2") != std::string::npos);
  CHECK(diff.find("+#define FEE 3") != std::string::npos);
  CHECK(diff.find("Binary files") == std::string::npos);
  const auto files = hydra::util::change_files(repo, {});
  CHECK(std::find(files.begin(), files.end(), "src/fix.inc") != files.end());

  // The same change committed: the diff of two commits is read by content too.
  checked_git(repo, {"add", "--all"});
  checked_git(repo, {"-c", "user.name=t", "-c", "user.email=t@example.invalid", "commit", "--quiet", "-m", "cand"});
  fs::remove(ran);
  const std::string commit(hydra::util::trim(checked_git(repo, {"rev-parse", "HEAD"}).output));
  const std::string committed = hydra::util::diff_commits(repo, base, commit);
  CHECK(committed.find("+int fee() { return 1; }  // NOLINT") != std::string::npos);
  CHECK(committed.find("Binary files") == std::string::npos);

  // A worktree of the base: no hook runs, no filter runs.
  const fs::path worktree = temp.path() / "held-out" / "source";
  hydra::util::checkout_worktree(repo, base, worktree);
  CHECK(hydra::util::read_file(worktree / "tests" / "test_fee.cpp") == "int main() { return fee() == 2 ? 0 : 1; }\n");
  hydra::util::checkout_worktree(repo, commit, worktree);  // reused
  CHECK(hydra::util::read_file(worktree / "src" / "fee.cpp") == "int fee() { return 1; }  // NOLINT\n");
  CHECK_FALSE(fs::exists(ran));
  hydra::util::remove_worktree(repo, worktree);

  // A clone's replace refs make the commit read as another one: the diff and
  // the worktree still hold the commit's own objects.
  write(repo / "src" / "fee.cpp", "int fee() { return 7; }\n");
  checked_git(repo, {"-c", "user.name=t", "-c", "user.email=t@example.invalid", "commit", "--quiet", "-am", "evil"});
  const std::string evil(hydra::util::trim(checked_git(repo, {"rev-parse", "HEAD"}).output));
  checked_git(repo, {"replace", commit, evil});
  CHECK(hydra::util::trim(run_plain_git(repo, {"show", commit + ":src/fee.cpp"})) == "int fee() { return 7; }");
  CHECK(hydra::util::diff_commits(repo, base, commit).find("+int fee() { return 1; }  // NOLINT") != std::string::npos);
  hydra::util::checkout_worktree(repo, commit, worktree);
  CHECK(hydra::util::read_file(worktree / "src" / "fee.cpp") == "int fee() { return 1; }  // NOLINT\n");
  hydra::util::remove_worktree(repo, worktree);
}

TEST_CASE("checkout_worktree never runs git in a folder it did not make: a repository planted there is replaced",
          "[util][git]") {
  hydra::util::TempDir temp("hydra-git-planted");
  const fs::path repo = temp.path() / "repo";
  const std::string base = committed_repository(repo);
  const fs::path ran = temp.path() / "ran";
  // What a test program could leave where the capture puts its held-out
  // worktree: a repository of its own, with a hook and a filter.
  const fs::path worktree = temp.path() / "build" / ".hydra" / "held-out" / "source";
  fs::create_directories(worktree.parent_path());
  plain_git_checked(temp.path(), {"clone", "--quiet", "--no-checkout", repo.string(), worktree.string()});
  make_executable(worktree / ".git" / "hooks" / "post-checkout", "#!/bin/sh\ntouch " + ran.string() + "\n");
  checked_git(worktree, {"config", "core.fsmonitor", "touch " + ran.string()});
  write(worktree / "planted.txt", "x\n");

  hydra::util::checkout_worktree(repo, base, worktree);
  CHECK_FALSE(fs::exists(ran));
  CHECK_FALSE(fs::exists(worktree / "planted.txt"));
  CHECK(fs::is_regular_file(worktree / ".git"));  // the repository's own worktree now
  CHECK(hydra::util::read_file(worktree / "src" / "fee.cpp") == "int fee() { return 1; }\n");

  // A nested repository and an ignored file left in a real worktree are gone at its next checkout.
  fs::create_directories(worktree / "nested");
  checked_git(worktree / "nested", {"init", "--quiet"});
  write(worktree / "nested" / "code.cpp", "x\n");
  hydra::util::checkout_worktree(repo, base, worktree);
  CHECK_FALSE(fs::exists(worktree / "nested"));
  CHECK_FALSE(fs::exists(ran));
  hydra::util::remove_worktree(repo, worktree);
}

TEST_CASE("the clone's settings change nothing a checkout writes or a diff prints", "[util][git]") {
  hydra::util::TempDir temp("hydra-git-settings");
  const fs::path repo = temp.path() / "repo";
  fs::create_directories(repo / "src");
  fs::create_symlink("fee.cpp", repo / "src" / "link.cpp");
  const std::string base = committed_repository(repo);
  // Settings of the clone only: links checked out as files, a sparse
  // checkout of src/ alone, modes ignored, coloured diffs without prefixes.
  for (const auto& [key, value] : std::vector<std::pair<std::string, std::string>>{
           {"core.symlinks", "false"}, {"core.sparseCheckout", "true"}, {"core.fileMode", "false"},
           {"color.ui", "always"}, {"color.diff", "always"}, {"diff.noprefix", "true"}})
    checked_git(repo, {"config", key, value});
  write(repo / ".git" / "info" / "sparse-checkout", "/src/\n");

  const fs::path worktree = temp.path() / "build" / ".hydra" / "held-out" / "source";
  hydra::util::checkout_worktree(repo, base, worktree);
  CHECK(fs::is_regular_file(worktree / "tests" / "test_fee.cpp"));
  CHECK(fs::is_symlink(worktree / "src" / "link.cpp"));

  write(repo / "src" / "fee.cpp", "int fee() { return 2; }\n");
  fs::permissions(repo / "tests" / "test_fee.cpp", fs::perms::owner_exec, fs::perm_options::add);
  const std::string diff = hydra::util::diff_against(repo, base, {});
  CHECK(diff.find("diff --git a/src/fee.cpp b/src/fee.cpp") != std::string::npos);
  CHECK(diff.find("new mode 100755") != std::string::npos);
  CHECK(diff.find('\x1b') == std::string::npos);
  hydra::util::remove_worktree(repo, worktree);
}

TEST_CASE("a checkout holds the commit's bytes whatever the clone's info/attributes say", "[util][git]") {
  hydra::util::TempDir temp("hydra-git-attributes");
  const fs::path repo = temp.path() / "repo";
  fs::create_directories(repo / "src");
  write(repo / "src" / "id.cpp", "const char* id = \"$Id$\";\n");
  write(repo / "src" / "lines.txt", "one\ntwo\n");
  const std::string base = committed_repository(repo);
  // Attributes of the clone only (no file of any tree): keyword expansion
  // and CRLF line ends change what a checkout writes.
  write(repo / ".git" / "info" / "attributes", "src/id.cpp ident\nsrc/lines.txt eol=crlf\n");
  for (const fs::path& worktree : {temp.path() / "first", temp.path() / "first"}) {  // added, then checked out again
    hydra::util::checkout_worktree(repo, base, worktree);
    CHECK(hydra::util::read_file(worktree / "src" / "id.cpp") == "const char* id = \"$Id$\";\n");
    CHECK(hydra::util::read_file(worktree / "src" / "lines.txt") == "one\ntwo\n");
  }
  hydra::util::remove_worktree(repo, temp.path() / "first");
}

TEST_CASE("a partial clone's missing object is never fetched: the clone's promisor command does not run",
          "[util][git]") {
  hydra::util::TempDir temp("hydra-git-lazy");
  const fs::path source = temp.path() / "source";
  fs::create_directories(source / "src");
  write(source / "src" / "count.cpp", "int lines() { return 1; }\n");
  const std::string base = committed_repository(source);
  // A clone whose one blob is missing, and whose promisor remote's
  // upload-pack is a script of the clone's own (it would run when git
  // fetches the blob lazily), allowed by every protocol setting the clone
  // can make.
  const fs::path repo = temp.path() / "repo";
  plain_git_checked(temp.path(), {"clone", "--quiet", "--no-local", source.string(), repo.string()});
  const fs::path marker = temp.path() / "ran";
  const fs::path script = temp.path() / "upload-pack.sh";
  write(script, "#!/bin/sh\ntouch '" + marker.string() + "'\nexec git-upload-pack \"$@\"\n");
  fs::permissions(script, fs::perms::owner_all);
  for (const auto& [key, value] : std::vector<std::pair<std::string, std::string>>{
           {"core.repositoryformatversion", "1"},
           {"extensions.partialClone", "origin"},
           {"remote.origin.promisor", "true"},
           {"remote.origin.uploadpack", script.string()},
           {"protocol.allow", "always"},
           {"protocol.file.allow", "always"}})
    checked_git(repo, {"config", key, value});
  const std::string blob = std::string(hydra::util::trim(checked_git(repo, {"rev-parse", base + ":src/count.cpp"}).output));
  // Every object loose, then the blob's removed.
  const fs::path packs = repo / ".git" / "objects" / "pack";
  std::vector<fs::path> packed;
  for (const auto& entry : fs::directory_iterator(packs)) packed.push_back(entry.path());
  for (const auto& path : packed) {
    if (path.extension() != ".pack") continue;
    fs::rename(path, temp.path() / "moved.pack");
    hydra::util::ProcessRequest unpack;
    unpack.argv = {"sh", "-c", "git -C '" + repo.string() + "' unpack-objects -q < '" + (temp.path() / "moved.pack").string() + "'"};
    REQUIRE(hydra::util::run_process(unpack).exit_code == 0);
  }
  for (const auto& path : packed) fs::remove(path);
  REQUIRE(fs::remove(repo / ".git" / "objects" / blob.substr(0, 2) / blob.substr(2)));
  CHECK_THROWS(hydra::util::checkout_worktree(repo, base, temp.path() / "tree"));
  CHECK_FALSE(fs::exists(marker));
  hydra::util::remove_worktree(repo, temp.path() / "tree");
}

TEST_CASE("GitMemo: a repository's top and filter drivers are read once per scope, and afresh after it",
          "[util][git]") {
  hydra::util::TempDir temp("hydra-git-memo");
  const fs::path repo = fs::canonical(temp.path()) / "repo";
  committed_repository(repo);
  const fs::path sub = repo / "src";
  {
    const hydra::util::GitMemo memo;
    CHECK(hydra::util::work_tree_root(sub) == repo);
    checked_git(sub, {"init", "--quiet"});  // a nested repository appears inside the scope
    CHECK(hydra::util::work_tree_root(sub) == repo);  // the top read first
    {
      const hydra::util::GitMemo nested;  // scopes nest: the memory stays
      CHECK(hydra::util::work_tree_root(sub) == repo);
    }
    CHECK(hydra::util::work_tree_root(sub) == repo);
    // The filter drivers of the repository (none) are read here.
    CHECK(hydra::util::run_git(repo, {"status", "--porcelain"}).exit_code == 0);
  }
  CHECK(hydra::util::work_tree_root(sub) == sub);  // read afresh
  fs::remove_all(sub / ".git");

  // A filter driver defined after the scope ended is read, and emptied.
  const fs::path ran = temp.path() / "ran";
  write(repo / ".git" / "info" / "attributes", "tests/*.cpp filter=leak\n");
  checked_git(repo, {"config", "filter.leak.clean", "touch " + ran.string() + "; cat"});
  write(repo / "tests" / "test_fee.cpp", "int main() { return 0; }\n");
  CHECK(hydra::util::run_git(repo, {"add", "tests/test_fee.cpp"}).exit_code == 0);
  CHECK_FALSE(fs::exists(ran));
}

TEST_CASE("paths_outside_change names what no diff shows: git's folders, ignored files, nested repositories, build trees",
          "[util][git]") {
  hydra::util::TempDir temp("hydra-outside");
  const fs::path repo = fs::canonical(temp.path());
  checked_git(repo, {"init", "--quiet", "--initial-branch=main"});
  write(repo / ".gitignore", "/ignored.txt\n");
  write(repo / "src" / "lib.cpp", "int a();\n");
  checked_git(repo, {"add", "--all"});
  checked_git(repo, {"-c", "user.name=t", "-c", "user.email=t@example.invalid", "commit", "--quiet", "-m", "base"});
  write(repo / "ignored.txt", "secret\n");
  write(repo / "src" / "new.cpp", "int b();\n");  // untracked: part of the change
  fs::create_directories(repo / "vendor" / "nested");
  checked_git(repo / "vendor" / "nested", {"init", "--quiet"});
  // An untracked folder that looks like a build tree: left out of the change,
  // so hidden too (settings.cmake would otherwise reach the build unseen).
  write(repo / "tools" / "local" / "CMakeCache.txt", "");
  write(repo / "tools" / "local" / "settings.cmake", "add_compile_definitions(FIX=1)\n");
  const auto paths = hydra::util::paths_outside_change(repo);
  const auto has = [&](const fs::path& path) { return std::find(paths.begin(), paths.end(), path) != paths.end(); };
  CHECK(has(repo / ".git"));
  CHECK(has(repo / "ignored.txt"));
  CHECK(has(repo / "vendor" / "nested"));
  CHECK(has(repo / "tools" / "local"));
  CHECK_FALSE(has(repo / "src" / "new.cpp"));
  CHECK_FALSE(has(repo / "src"));
}
