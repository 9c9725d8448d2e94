// Tests for the commands the js-node, rust and python profiles run
// (capture/runners/profile_commands.hpp) and the tree copy they run in.
#include <catch2/catch.hpp>

#include <hydra/capture/runners/profile_commands.hpp>
#include <hydra/capture/runners/rerun_commands.hpp>
#include <hydra/capture/runners/runner_helpers.hpp>
#include <hydra/capture/trees/tree_copy.hpp>
#include <hydra/error.hpp>
#include <hydra/util/files.hpp>

#include "test_paths.hpp"

namespace fs = std::filesystem;
using namespace hydra::capture;

namespace {

ProfileContext context_of(const std::string& profile, std::map<std::string, std::string> scripts = {},
                          fs::path jest_junit = {}) {
  ProfileContext context;
  context.profile = profile;
  context.npm_scripts = std::move(scripts);
  context.jest_junit = std::move(jest_junit);
  return context;
}

}  // namespace

TEST_CASE("profile commands: options go before the arguments meant for another program", "[capture]") {
  CHECK(insert_option("cargo test", "--no-fail-fast") == "cargo test --no-fail-fast");
  CHECK(insert_option("cargo clippy --all-targets -- -D warnings", "--message-format=json") ==
        "cargo clippy --all-targets --message-format=json -- -D warnings");
  CHECK(insert_option("cargo test --", "--no-fail-fast") == "cargo test --no-fail-fast --");
  CHECK(first_program("RUST_LOG=info CI=1 cargo test") == "cargo");
  CHECK(first_program("") == "");
  CHECK(npm_script_name("npm test -- --runInBand") == "test");
  CHECK(npm_script_name("npm --silent run lint") == "lint");
  CHECK(npm_script_name("npx eslint .") == "");
  CHECK(shell_quote("/tmp/it's") == "'/tmp/it'\\''s'");
}

TEST_CASE("profile commands: each runner writes results HydraScore reads", "[capture]") {
  const fs::path junit = "/runs/a/junit/0.xml";
  SECTION("rust: every test binary runs, libtest's lines are the results") {
    const StepCommand test = test_command(context_of("rust"), "cargo test", junit);
    // cargo's JSON messages name each test binary's package (docs/parsers.md).
    CHECK(test.shell == "cargo test --no-fail-fast --message-format=json");
    CHECK(test_command(context_of("rust"), "cargo test -- --test-threads=1", junit).shell ==
          "cargo test --no-fail-fast --message-format=json -- --test-threads=1");
    // A command that chose a message format keeps it; other subcommands get none.
    CHECK(test_command(context_of("rust"), "cargo test --message-format=short", junit).shell ==
          "cargo test --message-format=short --no-fail-fast");
    CHECK(test_command(context_of("rust"), "cargo nextest run", junit).shell == "cargo nextest run --no-fail-fast");
    CHECK(test.role == "libtest_log");
    CHECK(test.source == ResultSource::combined);
    const StepCommand lint = lint_command(context_of("rust"), "cargo clippy --all-targets -- -D warnings", "/o.json");
    CHECK(lint.shell == "cargo clippy --all-targets --message-format=json -- -D warnings");
    CHECK(lint.cargo_subcommand == "clippy");
    CHECK(lint.role == "clippy_json");
  }
  SECTION("python: pytest's JUnit file, flake8 with source lines, ruff's concise text") {
    const StepCommand test = test_command(context_of("python"), "pytest -q", junit);
    CHECK(test.shell == "pytest -q --junitxml='/runs/a/junit/0.xml' -p no:cacheprovider");
    CHECK(test.source == ResultSource::file);
    CHECK(lint_command(context_of("python"), "flake8", "/o.log").shell == "flake8 --show-source");
    CHECK(lint_command(context_of("python"), "python3 -m flake8 src", "/o.log").role == "flake8_log");
    CHECK(lint_command(context_of("python"), "ruff check .", "/o.log").shell == "ruff check . --output-format concise");
    CHECK(lint_command(context_of("python"), "ruff check .", "/o.log").role == "ruff_log");
    CHECK_THROWS_AS(lint_command(context_of("python"), "pylint src", "/o.log"), hydra::Error);
  }
  SECTION("js-node: jest through jest-junit, node's runner, ESLint's JSON, through npm scripts") {
    const auto jest = context_of("js-node", {{"test", "jest"}, {"lint", "eslint ."}}, "/g/jest-junit");
    const StepCommand test = test_command(jest, "npm test -- --runInBand", junit);
    CHECK(test.shell == "npm test -- --runInBand --ci --reporters=default --reporters='/g/jest-junit'");
    CHECK(test.environment.at("JEST_JUNIT_OUTPUT_DIR") == "/runs/a/junit");
    CHECK(test.environment.at("JEST_JUNIT_OUTPUT_NAME") == "0.xml");
    const StepCommand lint = lint_command(jest, "npm run lint", "/runs/a/lint/0.json");
    CHECK(lint.shell == "npm run lint -- --format json --output-file '/runs/a/lint/0.json'");
    CHECK(lint.source == ResultSource::file);
    // jest without jest-junit cannot give results: a missing tool.
    CHECK_THROWS_AS(test_command(context_of("js-node", {{"test", "jest"}}), "npm test", junit), hydra::StepFailed);
    const auto node = context_of("js-node", {{"test", "node --test test/"}});
    CHECK(test_command(node, "npm test", junit).shell ==
          "npm test -- --test-reporter=spec --test-reporter-destination=stdout --test-reporter=junit "
          "--test-reporter-destination='/runs/a/junit/0.xml'");
    // With HydraScore's helpers: jest-junit marks todos through the
    // properties module, node --test's JUnit names each test's file.
    auto helped = jest;
    helped.runner_helpers = "/b/.hydra-runners";
    const StepCommand marked = test_command(helped, "npm test", junit);
    CHECK(marked.environment.at("JEST_JUNIT_TEST_CASE_PROPERTIES_DIR") == "/b/.hydra-runners");
    CHECK(marked.environment.at("JEST_JUNIT_TEST_CASE_PROPERTIES_JSON_FILE") == "hydra-jest-status.js");
    CHECK(marked.environment.at("JEST_JUNIT_CLASSNAME") == "{filepath}");
    CHECK(marked.environment.at("JEST_JUNIT_ANCESTOR_SEPARATOR") == " > ");
    CHECK(test.environment.count("JEST_JUNIT_TEST_CASE_PROPERTIES_DIR") == 0);
    auto node_helped = node;
    node_helped.runner_helpers = "/b/.hydra-runners";
    const StepCommand named = test_command(node_helped, "npm test", junit);
    CHECK(named.shell == "npm test -- --test-reporter=spec --test-reporter-destination=stdout "
                         "--test-reporter='/b/.hydra-runners/hydra-node-junit.mjs' "
                         "--test-reporter-destination='/runs/a/junit/0.xml'");
    CHECK(rerun_kind(node_helped, named) == RerunKind::name_pattern);  // reruns by name as before
    // A runner it cannot read is a usage error that says how to name the JUnit file.
    CHECK_THROWS_AS(test_command(context_of("js-node", {{"test", "mocha"}}), "npm test", junit), hydra::Error);
  }
  SECTION("{junit} and {output} put the paths where the user's command wants them, adding nothing") {
    const auto mocha = context_of("js-node", {{"test", "mocha"}});
    CHECK(test_command(mocha, "npx mocha --reporter mocha-junit-reporter --reporter-options mochaFile={junit}", junit)
              .shell == "npx mocha --reporter mocha-junit-reporter --reporter-options mochaFile='/runs/a/junit/0.xml'");
    const StepCommand lint = lint_command(context_of("js-node"), "npx eslint -f json -o {output} src", "/o.json");
    CHECK(lint.shell == "npx eslint -f json -o '/o.json' src");
  }
}

TEST_CASE("profile commands: package.json's scripts, and what is wrong with a bad one", "[capture]") {
  const auto scripts = npm_scripts(R"({"name": "x", "scripts": {"test": "jest", "build": "tsc"}})", "package.json");
  CHECK(scripts.size() == 2);
  CHECK(scripts.at("build") == "tsc");
  CHECK(npm_scripts(R"({"name": "x"})", "package.json").empty());
  CHECK_THROWS_AS(npm_scripts(R"({"scripts": {"test": 1}})", "package.json"), hydra::InputError);
  CHECK_THROWS_AS(npm_scripts("{\"scripts\": ", "package.json"), hydra::InputError);
}

TEST_CASE("tree copy: the project's files only, unchanged files untouched, stale files removed", "[capture]") {
  hydra::util::TempDir temp("hydra-tree-copy");
  const fs::path source = temp.path() / "src";
  const fs::path copy = temp.path() / "copy";
  const fs::path build = source / "build";
  for (const auto& folder : {source / "sub", build, temp.path() / "deps" / "left-pad"}) fs::create_directories(folder);
  hydra::util::write_file_atomic(source / "a.txt", "a");
  hydra::util::write_file_atomic(source / "sub" / "b.txt", "b");
  hydra::util::write_file_atomic(build / "out.o", "object");
  hydra::util::write_file_atomic(temp.path() / "deps" / "left-pad" / "index.js", "module.exports = 1;");

  TreeCopyStats stats = copy_tree(source, copy, false, {build}, temp.path() / "deps");
  CHECK(stats.files == 2);  // a.txt, sub/b.txt; the excluded build tree is not copied
  CHECK(stats.copied == 2);
  CHECK(hydra::util::read_file(copy / "sub" / "b.txt") == "b");
  CHECK_FALSE(fs::exists(copy / "build"));
  CHECK(fs::is_symlink(copy / "node_modules"));
  CHECK(fs::exists(copy / "node_modules" / "left-pad" / "index.js"));

  // What a step wrote into the copy goes; a changed file is copied again.
  fs::create_directories(copy / "dist");
  hydra::util::write_file_atomic(copy / "dist" / "bundle.js", "built");
  hydra::util::write_file_atomic(source / "a.txt", "changed");
  fs::remove(source / "sub" / "b.txt");
  stats = copy_tree(source, copy, false, {build}, temp.path() / "deps");
  CHECK(stats.files == 1);
  CHECK(stats.copied == 1);
  CHECK(stats.removed == 2);  // dist/bundle.js and sub/b.txt
  CHECK(hydra::util::read_file(copy / "a.txt") == "changed");
  CHECK_FALSE(fs::exists(copy / "dist"));
  CHECK_FALSE(fs::exists(copy / "sub"));
  CHECK(fs::exists(copy / "node_modules" / "left-pad" / "index.js"));  // the link is kept

  // A copy that was edited in place with the same size is found different by content.
  hydra::util::write_file_atomic(copy / "a.txt", "CHANGED");
  stats = copy_tree(source, copy, false, {build}, {});
  CHECK(stats.copied == 1);
  CHECK(hydra::util::read_file(copy / "a.txt") == "changed");
  CHECK_FALSE(fs::exists(copy / "node_modules"));  // no dependencies folder: no link
}

TEST_CASE("runner helpers: the files capture writes are the ones the identity fixtures were recorded with",
          "[capture][identity]") {
  // tests/fixtures/identity/record.sh ran jest-junit and node --test with
  // copies of these files; the copies must stay what capture writes.
  hydra::util::TempDir dir("hydra-runner-helpers");
  write_runner_helpers(dir.path() / "helpers");
  const fs::path recorded = fs::path(HYDRA_FIXTURES_DIR) / "identity" / "sources";
  for (const char* name : {kJestStatusModule, kNodeJunitReporter}) {
    CAPTURE(name);
    CHECK(hydra::util::read_file(dir.path() / "helpers" / name) == hydra::util::read_file(recorded / name));
  }
}
