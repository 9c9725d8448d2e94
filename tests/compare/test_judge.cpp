// Tests for hydra::eval judge: template rendering, answer parsing, and
// running stub judge commands (small shell scripts written into a temp dir).
#include <catch2/catch.hpp>

#include <sys/stat.h>

#include <fstream>

#include <hydra/error.hpp>
#include <hydra/eval/judge.hpp>
#include <hydra/util/files.hpp>

using namespace hydra;

namespace {

/// Writes an executable shell script and returns its path.
std::filesystem::path write_script(const std::filesystem::path& file, const std::string& body) {
  std::ofstream(file) << "#!/bin/sh\n" << body << "\n";
  ::chmod(file.c_str(), 0755);
  return file;
}

std::string read_all(const std::filesystem::path& file) { return util::read_file(file); }

}  // namespace

TEST_CASE("render_template substitutes {{name}} placeholders", "[eval][judge]") {
  SECTION("valid input") {
    CHECK(eval::render_template("Task {{task_id}}: {{ rubric }}.", {{"task_id", "t1"}, {"rubric", "be nice"}},
                                "t.md") == "Task t1: be nice.");
    CHECK(eval::render_template("no placeholders", {}, "t.md") == "no placeholders");
  }
  SECTION("bad input") {
    try {
      eval::render_template("line one\n  {{unknown}}", {}, "prompt.md");
      FAIL("expected an InputError");
    } catch (const InputError& error) {
      CHECK(error.file() == "prompt.md");
      CHECK(error.line() == 2);
      CHECK(error.column() == 3);
    }
    CHECK_THROWS_AS(eval::render_template("{{task_id", {{"task_id", "x"}}, "t.md"), InputError);
  }
}

TEST_CASE("the shipped judge prompt template renders", "[eval][judge]") {
  const std::string text = util::read_file(eval::default_prompt_template());
  const std::string prompt =
      eval::render_template(text, {{"task_id", "t-42"}, {"rubric", "RUBRIC"}, {"diff", "+added"}}, "judge-prompt.md");
  CHECK(prompt.find("t-42") != std::string::npos);
  CHECK(prompt.find("RUBRIC") != std::string::npos);
  CHECK(prompt.find("+added") != std::string::npos);
  CHECK(prompt.find("{{") == std::string::npos);
}

TEST_CASE("parse_judge_output reads bare and claude-wrapped answers", "[eval][judge]") {
  SECTION("valid input") {
    auto bare = eval::parse_judge_output(R"({"score0to1": 0.8, "rationale": "good"})");
    REQUIRE(bare.score0to1);
    CHECK(*bare.score0to1 == 0.8);
    CHECK(bare.rationale == "good");
    CHECK(bare.failure.empty());

    // claude -p --output-format json wraps the model's text in "result".
    auto wrapped = eval::parse_judge_output(
        R"({"type":"result","subtype":"success","is_error":false,"result":"Here is my grade:\n```json\n{\"score0to1\": 0.25, \"rationale\": \"weak\"}\n```","session_id":"x"})");
    REQUIRE(wrapped.score0to1);
    CHECK(*wrapped.score0to1 == 0.25);
    CHECK(wrapped.rationale == "weak");

    auto plain_result = eval::parse_judge_output(
        R"({"type":"result","result":"{\"score0to1\": 1, \"rationale\": \"ok\"}"})");
    REQUIRE(plain_result.score0to1);
    CHECK(*plain_result.score0to1 == 1.0);

    auto amid_prose = eval::parse_judge_output("I think {\"score0to1\": 0.5} fits.");
    REQUIRE(amid_prose.score0to1);
    CHECK(*amid_prose.score0to1 == 0.5);
  }
  SECTION("bad input") {
    for (const char* output : {"", "not json at all", R"({"rationale": "no score"})",
                               R"({"score0to1": "high"})", R"({"score0to1": 1.5})",
                               R"({"score0to1": -0.1})", R"({"type":"result","result":"no object here"})",
                               R"({"type":"result","is_error":true,"result":"rate limited"})",
                               R"({"type":"result","result":42})"}) {
      CAPTURE(output);
      auto outcome = eval::parse_judge_output(output);
      CHECK_FALSE(outcome.score0to1);
      CHECK_FALSE(outcome.failure.empty());
    }
  }
}

TEST_CASE("run_judge runs the configured command with the prompt on stdin", "[eval][judge]") {
  util::TempDir directory("hydra-judge-test");
  eval::JudgeSettings settings;
  settings.rubric = "Adds the feature without breaking tests.";
  settings.timeout_seconds = 30;
  const eval::JudgeSubject subject{"task-7", "diff --git a/x b/x\n+new line\n"};

  SECTION("valid input: a bare answer") {
    const auto prompt_copy = directory.path() / "prompt.txt";
    settings.command = write_script(directory.path() / "judge.sh",
                                    "cat > '" + prompt_copy.string() + "'\n"
                                    "echo 'diagnostics go to stderr' >&2\n"
                                    "echo '{\"score0to1\": 0.7, \"rationale\": \"fine\"}'")
                           .string();
    auto outcome = eval::run_judge(settings, subject);
    REQUIRE(outcome.score0to1);
    CHECK(*outcome.score0to1 == 0.7);
    CHECK(outcome.rationale == "fine");
    const std::string prompt = read_all(prompt_copy);
    CHECK(prompt.find("task-7") != std::string::npos);
    CHECK(prompt.find(settings.rubric) != std::string::npos);
    CHECK(prompt.find("+new line") != std::string::npos);
  }
  SECTION("valid input: a claude-wrapped answer") {
    settings.command =
        write_script(directory.path() / "claude.sh",
                     "cat > /dev/null\n"
                     "printf '%s\\n' '{\"type\":\"result\",\"is_error\":false,\"result\":\"```json\\n{\\\"score0to1\\\": 0.9, \\\"rationale\\\": \\\"clean\\\"}\\n```\"}'")
            .string();
    auto outcome = eval::run_judge(settings, subject);
    REQUIRE(outcome.score0to1);
    CHECK(*outcome.score0to1 == 0.9);
    CHECK(outcome.rationale == "clean");
  }
  SECTION("bad input: malformed output") {
    settings.command = write_script(directory.path() / "bad.sh", "cat > /dev/null; echo 'score: high'").string();
    auto outcome = eval::run_judge(settings, subject);
    CHECK_FALSE(outcome.score0to1);
    CHECK(outcome.failure.find("malformed") != std::string::npos);
  }
  SECTION("bad input: a timeout") {
    settings.command = write_script(directory.path() / "slow.sh", "sleep 30").string();
    settings.timeout_seconds = 0.3;
    auto outcome = eval::run_judge(settings, subject);
    CHECK_FALSE(outcome.score0to1);
    CHECK(outcome.failure.find("timed out") != std::string::npos);
  }
  SECTION("bad input: the command is absent") {
    settings.command = (directory.path() / "no-such-judge").string() + " -p";
    auto outcome = eval::run_judge(settings, subject);
    CHECK_FALSE(outcome.score0to1);
    CHECK(outcome.failure.find("not found") != std::string::npos);
  }
  SECTION("bad input: a non-zero exit") {
    settings.command = write_script(directory.path() / "fail.sh",
                                    "cat > /dev/null; echo 'quota exceeded' >&2; echo '{\"score0to1\": 1}'; exit 3")
                           .string();
    auto outcome = eval::run_judge(settings, subject);
    CHECK_FALSE(outcome.score0to1);
    CHECK(outcome.failure == "judge exit code 3: quota exceeded");
  }
  SECTION("bad input: an out-of-range score") {
    settings.command = write_script(directory.path() / "range.sh", "cat > /dev/null; echo '{\"score0to1\": 7}'").string();
    auto outcome = eval::run_judge(settings, subject);
    CHECK_FALSE(outcome.score0to1);
    CHECK(outcome.failure.find("out of range") != std::string::npos);
  }
  SECTION("bad input: no judge configured or an unreadable template") {
    CHECK(eval::run_judge(settings, subject).failure == "no judge configured");
    settings.command = "true";
    settings.prompt_template = directory.path() / "missing-template.md";
    auto outcome = eval::run_judge(settings, subject);
    CHECK_FALSE(outcome.score0to1);
    CHECK(outcome.failure.find("missing-template.md") != std::string::npos);
  }
}
