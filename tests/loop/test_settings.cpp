#include <catch2/catch.hpp>

#include <hydra/error.hpp>
#include <hydra/config/config.hpp>
#include <hydra/loop/loop.hpp>

using hydra::InputError;
using hydra::loop::Metric;

namespace {

hydra::config::LoopSettings parse_loop_settings(std::string_view text, const std::string& source_name) {
  return hydra::config::parse(text, source_name).loop;
}

}  // namespace

TEST_CASE("parse_loop_settings reads the [loop] table of hydra.toml", "[loop]") {
  SECTION("valid input") {
    const auto settings = parse_loop_settings(R"([loop]
max_iterations = 4
stuck_after = 2
metric = "composite"
improver = "./improve.sh"
improver_timeout_seconds = 90.5
paths = ["src", "include/textstats"]
)", "hydra.toml");
    CHECK(settings.max_iterations == 4);
    CHECK(settings.stuck_after == 2);
    CHECK(settings.metric == Metric::composite);
    CHECK(settings.improver == "./improve.sh");
    CHECK(settings.improver_timeout_seconds == 90.5);
    CHECK(settings.paths == std::vector<std::string>{"src", "include/textstats"});
  }

  SECTION("valid input: no [loop] table keeps the defaults") {
    const auto settings = parse_loop_settings("[scoring]\nprofile = \"cmake\"\n", "hydra.toml");
    CHECK(settings.max_iterations == 10);
    CHECK(settings.stuck_after == 3);
    CHECK(settings.metric == Metric::pass_rate);
    CHECK(settings.improver.empty());
    CHECK(settings.paths.empty());
  }

  SECTION("bad input") {
    struct Case {
      const char* text;
      const char* message;
      std::uint64_t line;
      std::uint64_t column;
    };
    const Case cases[] = {
        {"[loop]\nmax_iteration = 3\n", "loop.max_iteration: unknown key", 2, 1},
        {"[loop]\nmax_iterations = 0\n", "loop.max_iterations: must be between 1 and 100000, got 0", 2, 18},
        {"[loop]\nstuck_after = \"3\"\n", "loop.stuck_after: expected an integer, got a string", 2, 15},
        {"[loop]\nmetric = \"mean\"\n", "loop.metric: must be one of \"pass_rate\", \"composite\", got \"mean\"", 2, 10},
        {"[loop]\nimprover_timeout_seconds = -1\n", "loop.improver_timeout_seconds: must be greater than 0, got -1", 2, 28},
        {"[loop]\nimprover_timeout_seconds = nan\n", "loop.improver_timeout_seconds: expected a finite number", 2, 28},
        {"[loop]\npaths = [\"src\", 3]\n", "loop.paths[1]: expected a string, got an integer", 2, 17},
        {"[loop]\npaths = [\"../outside\"]\n", "loop.paths[0]: \"../outside\" must be a relative path inside the source tree", 2, 10},
        {"[loop]\npaths = [\"/abs\"]\n", "loop.paths[0]: \"/abs\" must be a relative path inside the source tree", 2, 10},
        {"loop = 3\n", "loop: expected a table, got an integer", 1, 8},
        {"[loop\n", nullptr, 1, 0},
    };
    for (const auto& item : cases) {
      CAPTURE(item.text);
      try {
        parse_loop_settings(item.text, "hydra.toml");
        FAIL("no error");
      } catch (const InputError& error) {
        CHECK(error.file() == "hydra.toml");
        CHECK(error.line() == item.line);
        if (item.message != nullptr) {
          CHECK(error.message() == item.message);
          CHECK(error.column() == item.column);
        }
      }
    }
  }
}
