// [scoring.tests] attempts and baseline_repeat: how often a failing test and
// the baseline's suite run (docs/config.md, docs/formulas.md "Flaky tests").
#include <catch2/catch.hpp>

#include <hydra/config/config.hpp>

#include "config/key_error.hpp"

namespace config = hydra::config;

TEST_CASE("config: a failing test runs three times in all by default, the baseline's suite once", "[config][attempts]") {
  const config::Config defaults;
  CHECK(defaults.tests.attempts == 3);
  CHECK(defaults.tests.baseline_repeat == 1);
  const auto json = config::to_json(defaults);
  CHECK(json["scoring"]["tests"]["attempts"] == 3);
  CHECK(json["scoring"]["tests"]["baseline_repeat"] == 1);
}

TEST_CASE("config: attempts and baseline_repeat are read, and are part of the digest", "[config][attempts]") {
  const auto parsed = config::parse("[scoring.tests]\nattempts = 5\nbaseline_repeat = 4\n", "hydra.toml");
  CHECK(parsed.tests.attempts == 5);
  CHECK(parsed.tests.baseline_repeat == 4);
  CHECK(config::digest(parsed) != config::digest(config::Config{}));
  // 1: no reruns.
  CHECK(config::parse("[scoring.tests]\nattempts = 1\n", "hydra.toml").tests.attempts == 1);
}

TEST_CASE("config: attempts and baseline_repeat outside 1..100 name the key", "[config][attempts]") {
  const auto parse = [](const std::string& text, const std::string& name) { return config::parse(text, name); };
  hydra::test::require_key_error(parse, "[scoring.tests]\nattempts = 0\n", "scoring.tests.attempts", 2, 12);
  hydra::test::require_key_error(parse, "[scoring.tests]\nbaseline_repeat = 101\n", "scoring.tests.baseline_repeat", 2,
                                 19);
  hydra::test::require_key_error(parse, "[scoring.tests]\nattempts = 2.5\n", "scoring.tests.attempts", 2, 12);
}
