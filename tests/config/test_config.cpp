#include <catch2/catch.hpp>

#include <hydra/config/config.hpp>
#include <hydra/error.hpp>
#include <hydra/util/files.hpp>

#include "config/key_error.hpp"

#include <string>
#include "test_paths.hpp"

namespace config = hydra::config;

namespace {

const std::string fixtures = std::string(HYDRA_FIXTURES_DIR) + "/config";

/// Parses `text` expecting an InputError that names `key_path` at `line`:`column`.
void require_input_error(const std::string& text, const std::string& key_path,
                         std::uint64_t line, std::uint64_t column) {
  hydra::test::require_key_error([](std::string_view toml, const std::string& name) { return config::parse(toml, name); },
                                 text, key_path, line, column);
}

}  // namespace

TEST_CASE("the seed's section-12 example parses and means what it says", "[config]") {
  const config::Config parsed = config::load(fixtures + "/seed-example.toml");

  CHECK(parsed.profile == "js-node");
  REQUIRE(parsed.timeout_per_check_seconds);
  CHECK(*parsed.timeout_per_check_seconds == 300);
  CHECK(parsed.build_timeout_seconds == 300);
  CHECK(parsed.test_timeout_seconds == 300);
  CHECK(parsed.lint_timeout_seconds == 300);

  CHECK(parsed.weights.build == 30);
  CHECK(parsed.weights.tests == 30);
  CHECK(parsed.weights.lint == 15);
  CHECK(parsed.weights.diff_scope == 15);
  CHECK(parsed.weights.speed == 10);
  CHECK(parsed.weights.judge == 0);

  CHECK(parsed.gates.require_build_pass);
  CHECK(parsed.gates.max_test_regression_percent == 0);
  CHECK(parsed.gates.min_test_count_ratio == 0.8);  // not in the example: default

  CHECK(parsed.diff_scope.max_files_soft == 20);
  CHECK(parsed.diff_scope.max_churn_soft == 800);
  CHECK(parsed.diff_scope.protected_paths ==
        std::vector<std::string>{"infra/", "scripts/release/"});

  const config::Profile& profile = config::find_profile(parsed.profile);
  CHECK(profile.build == "npm run build");
  CHECK(profile.test == "npm test -- --runInBand");
  CHECK(profile.lint == "npm run lint");
}

TEST_CASE("parse fills defaults and reads every key", "[config]") {
  SECTION("valid input: empty file gives the defaults") {
    const config::Config parsed = config::parse("", "hydra.toml");
    CHECK(parsed.profile == "cmake");
    CHECK_FALSE(parsed.timeout_per_check_seconds);
    // Seed section 11: build 300 s, test 600 s, lint 300 s.
    CHECK(parsed.build_timeout_seconds == 300);
    CHECK(parsed.test_timeout_seconds == 600);
    CHECK(parsed.lint_timeout_seconds == 300);
    CHECK(parsed.weights.build == 30);
    CHECK(parsed.tests.regression == config::Tests::Regression::count);
    CHECK(parsed.lint.match == config::Lint::Match::count);
    CHECK(parsed.lint.compiler_warnings);
    CHECK(parsed.speed.include_failed);
    CHECK(config::to_json(parsed) == config::to_json(config::Config{}));
  }

  SECTION("valid input: every key") {
    const config::Config parsed = config::parse(R"(
[scoring]
profile = "rust"

[scoring.timeouts]
build = 120
test = 90.5
lint = 60

[scoring.weights]
build = 1
tests = 2.5
lint = 3
diff_scope = 4
speed = 0
judge = 5

[scoring.gates]
require_build_pass = false
max_test_regression_percent = 12.5
min_test_count_ratio = 1
security_command = "scripts/audit.sh"
require_resolved = false

[scoring.diff_scope]
max_files_soft = 5
max_churn_soft = 100
protected_paths = ["cmake/*.cmake"]

[scoring.tests]
regression = "identity"

[scoring.lint]
match = "fingerprint"
compiler_warnings = false
exclude = ["third_party/", "*.pb.cc"]

[scoring.speed]
include_failed = false
)",
                                                "hydra.toml");
    CHECK(parsed.profile == "rust");
    CHECK(parsed.build_timeout_seconds == 120);
    CHECK(parsed.test_timeout_seconds == 90.5);
    CHECK(parsed.lint_timeout_seconds == 60);
    CHECK(parsed.weights.build == 1);
    CHECK(parsed.weights.tests == 2.5);
    CHECK(parsed.weights.lint == 3);
    CHECK(parsed.weights.diff_scope == 4);
    CHECK(parsed.weights.speed == 0);
    CHECK(parsed.weights.judge == 5);
    CHECK_FALSE(parsed.gates.require_build_pass);
    CHECK(parsed.gates.max_test_regression_percent == 12.5);
    CHECK(parsed.gates.min_test_count_ratio == 1);
    CHECK(parsed.gates.security_command == "scripts/audit.sh");
    CHECK_FALSE(parsed.gates.require_resolved);
    CHECK(parsed.diff_scope.max_files_soft == 5);
    CHECK(parsed.diff_scope.max_churn_soft == 100);
    CHECK(parsed.diff_scope.protected_paths == std::vector<std::string>{"cmake/*.cmake"});
    CHECK(parsed.tests.regression == config::Tests::Regression::identity);
    CHECK(parsed.lint.match == config::Lint::Match::fingerprint);
    CHECK_FALSE(parsed.lint.compiler_warnings);
    CHECK(parsed.lint.exclude == std::vector<std::string>{"third_party/", "*.pb.cc"});
    CHECK_FALSE(parsed.speed.include_failed);
  }

  SECTION("valid input: a per-step timeout overrides timeout_per_check_seconds") {
    const config::Config parsed = config::parse(R"(
[scoring]
timeout_per_check_seconds = 100
[scoring.timeouts]
test = 900
)",
                                                "hydra.toml");
    CHECK(parsed.build_timeout_seconds == 100);
    CHECK(parsed.test_timeout_seconds == 900);
    CHECK(parsed.lint_timeout_seconds == 100);
  }

  SECTION("valid input: dotted keys and inline tables") {
    const config::Config parsed =
        config::parse("scoring.weights.lint = 7\nscoring.speed = { include_failed = false }\n",
                      "hydra.toml");
    CHECK(parsed.weights.lint == 7);
    CHECK_FALSE(parsed.speed.include_failed);
  }
}

TEST_CASE("parse rejects bad values naming the key and its line:column", "[config]") {
  SECTION("bad input: unknown keys at every level") {
    require_input_error("[scoring]\nprofile = \"cmake\"\nbogus = 1\n", "scoring.bogus", 3, 1);
    require_input_error("[scoring.weights]\nbuild = 1\n  typo = 2\n", "scoring.weights.typo", 3, 3);
    require_input_error("[scoring.gates]\nmax_regression = 1\n", "scoring.gates.max_regression", 2, 1);
    require_input_error("title = \"x\"\n", "title", 1, 1);
    require_input_error("[scoring]\n[unknown_table]\nkey = 1\n", "unknown_table", 2, 2);
  }

  SECTION("bad input: wrong types") {
    require_input_error("[scoring.weights]\nlint = \"high\"\n", "scoring.weights.lint", 2, 8);
    require_input_error("[scoring]\nprofile = 3\n", "scoring.profile", 2, 11);
    require_input_error("[scoring.gates]\nrequire_build_pass = \"yes\"\n",
                        "scoring.gates.require_build_pass", 2, 22);
    require_input_error("[scoring.diff_scope]\nmax_files_soft = 2.5\n",
                        "scoring.diff_scope.max_files_soft", 2, 18);
    require_input_error("[scoring.diff_scope]\nprotected_paths = \"infra/\"\n",
                        "scoring.diff_scope.protected_paths", 2, 19);
    require_input_error("[scoring.diff_scope]\nprotected_paths = [\"infra/\", 3]\n",
                        "scoring.diff_scope.protected_paths[1]", 2, 30);
    require_input_error("scoring = 1\n", "scoring", 1, 11);
    require_input_error("[scoring]\nweights = 30\n", "scoring.weights", 2, 11);
  }

  SECTION("bad input: out-of-range values") {
    require_input_error("[scoring]\ntimeout_per_check_seconds = -5\n",
                        "scoring.timeout_per_check_seconds", 2, 29);
    require_input_error("[scoring.timeouts]\nbuild = 0\n", "scoring.timeouts.build", 2, 9);
    require_input_error("[scoring.weights]\nspeed = -1\n", "scoring.weights.speed", 2, 9);
    require_input_error("[scoring.weights]\nspeed = nan\n", "scoring.weights.speed", 2, 9);
    require_input_error("[scoring.gates]\nmax_test_regression_percent = 101\n",
                        "scoring.gates.max_test_regression_percent", 2, 31);
    require_input_error("[scoring.gates]\nmin_test_count_ratio = 1.5\n",
                        "scoring.gates.min_test_count_ratio", 2, 24);
    require_input_error("[scoring.diff_scope]\nmax_churn_soft = 0\n",
                        "scoring.diff_scope.max_churn_soft", 2, 18);
    require_input_error("[scoring]\nprofile = \"gradle\"\n", "scoring.profile", 2, 11);
    require_input_error("[scoring.tests]\nregression = \"names\"\n", "scoring.tests.regression", 2, 14);
    require_input_error("[scoring.lint]\nmatch = \"exact\"\n", "scoring.lint.match", 2, 9);
    require_input_error("[scoring.lint]\nexclude = [\"\"]\n", "scoring.lint.exclude[0]", 2, 12);
  }

  SECTION("bad input: all weights zero names the weights table") {
    require_input_error(
        "[scoring.weights]\nbuild = 0\ntests = 0\nlint = 0\ndiff_scope = 0\nspeed = 0\n",
        "scoring.weights", 1, 1);
  }

  SECTION("bad input: TOML syntax errors carry toml++'s line:column") {
    try {
      config::parse("[scoring]\nprofile = \"cmake\n", "hydra.toml");
      FAIL("expected hydra::InputError");
    } catch (const hydra::InputError& error) {
      CAPTURE(error.what());
      CHECK(error.file() == "hydra.toml");
      CHECK(error.line() == 2);  // the unterminated string is on line 2
      CHECK(error.column() > 0);
    }
    try {
      config::parse("[scoring]\n[scoring]\n", "hydra.toml");
      FAIL("expected hydra::InputError");
    } catch (const hydra::InputError& error) {
      CAPTURE(error.what());
      CHECK(error.line() == 2);  // the table is redefined on line 2
    }
  }

  SECTION("bad input: unreadable file") {
    CHECK_THROWS_AS(config::load(fixtures + "/does-not-exist.toml"), hydra::InputError);
  }
}

TEST_CASE("to_json lists every key deterministically and digest identifies it", "[config]") {
  SECTION("valid input") {
    const config::Config defaults;
    const nlohmann::json json = config::to_json(defaults);
    CHECK(json.dump() == config::to_json(config::Config{}).dump());
    CHECK(json == nlohmann::json::parse(R"({
      "scoring": {
        "profile": "cmake",
        "timeout_per_check_seconds": null,
        "timeouts": {"build": 300.0, "test": 600.0, "lint": 300.0},
        "weights": {"build": 30.0, "tests": 30.0, "lint": 15.0, "diff_scope": 15.0,
                    "speed": 10.0, "judge": 0.0},
        "gates": {"require_build_pass": true, "max_test_regression_percent": 0.0,
                  "min_test_count_ratio": 0.8, "security_command": "", "require_resolved": true},
        "diff_scope": {"max_files_soft": 20, "max_churn_soft": 800, "protected_paths": []},
        "tests": {"regression": "count", "attempts": 3, "baseline_repeat": 1,
                  "granularity": "case", "dilution_guard": true},
        "lint": {"match": "count", "compiler_warnings": true, "exclude": []},
        "speed": {"include_failed": true}
      },
      "anti_gaming": {
        "suppression_weight": 2.0, "assertion_penalty": 2.0,
        "test_tampering_is_regression": true, "fail_gate_on_tampering": true,
        "assertion_patterns": [],
        "test_file_globs": ["test/", "tests/", "*_test.*", "test_*.*", "*Test.*", "*_tests.*", "*.test.*", "*.spec.*",
                            "__tests__/", "conftest.py", "pytest.ini", "jest.config.*"],
        "test_paths": [], "private_test_patch": "",
        "protected_config_files": ["hydra.toml", ".clang-tidy", "cmake/HydraScore.cmake",
                                   "cmake/HydraScoreConfig.cmake.in", "cmake/HydraScore*.cmake",
                                   "hydra-score/", "eslint.config.*", ".eslintrc*", ".flake8", "ruff.toml",
                                   ".ruff.toml", "clippy.toml", ".clippy.toml"]
      }
    })"));
    // Keys are sorted in the dump, so equal configurations give equal text.
    const std::string text = json.dump();
    CHECK(text.find("\"diff_scope\"") < text.find("\"gates\""));

    CHECK(config::digest(defaults).size() == 64);
    CHECK(config::digest(defaults) == config::digest(config::Config{}));
    config::Config changed;
    changed.weights.lint = 16;
    CHECK(config::digest(changed) != config::digest(defaults));
  }

  SECTION("valid input: a config parsed from text round-trips its values") {
    const config::Config parsed = config::parse("[scoring.lint]\nexclude = [\"gen/\"]\n", "h.toml");
    CHECK(config::to_json(parsed)["scoring"]["lint"]["exclude"] ==
          nlohmann::json::array({"gen/"}));
  }
}


TEST_CASE("builtin profiles are data and find_profile rejects unknown names", "[config]") {
  SECTION("valid input") {
    std::vector<std::string> names;
    for (const auto& profile : config::builtin_profiles()) names.push_back(profile.name);
    CHECK(names == std::vector<std::string>{"cmake", "js-node", "rust", "python"});
    CHECK(config::find_profile("rust").lint == "cargo clippy --all-targets -- -D warnings");
    CHECK(config::find_profile("python").build.empty());  // seed: build optional
  }
  SECTION("bad input") {
    CHECK_THROWS_AS(config::find_profile("gradle"), hydra::Error);
  }
}

TEST_CASE("docs/config.md's complete file lists every key with its default", "[config]") {
  const std::string docs = hydra::util::read_file(std::string(HYDRA_SOURCE_DIR) + "/docs/config.md");
  const std::string heading = "## A complete file";
  const auto section = docs.find(heading);
  REQUIRE(section != std::string::npos);
  const auto begin = docs.find("```toml\n", section);
  REQUIRE(begin != std::string::npos);
  const auto end = docs.find("```", begin + 8);
  REQUIRE(end != std::string::npos);
  const std::string complete = docs.substr(begin + 8, end - begin - 8);

  SECTION("valid input: it parses to the defaults") {
    const config::Config parsed = config::parse(complete, "docs/config.md");
    CHECK(config::to_json(parsed) == config::to_json(config::Config{}));
  }
  SECTION("valid input: every key of to_json appears in it") {
    const nlohmann::json json = config::to_json(config::Config{});
    for (const auto& [key, value] : json["scoring"].items()) {
      CAPTURE(key);
      if (value.is_object()) {
        CHECK(complete.find("[scoring." + key + "]") != std::string::npos);
        for (const auto& [inner, unused] : value.items()) {
          (void)unused;
          CAPTURE(inner);
          CHECK(complete.find("\n" + inner + " = ") != std::string::npos);
        }
      } else {
        CHECK(complete.find(key + " = ") != std::string::npos);
      }
    }
  }
}

TEST_CASE("tables owned by other modules are validated by config::parse", "[config]") {
  SECTION("valid input") {
    const auto config = hydra::config::parse(R"([scoring]
profile = "cmake"

[eval]
w_obj = 0.6
w_judge = 0.4

[judge]
command = "claude -p --output-format json"
timeout_seconds = 60

[compare]
min_composite_gain = 0.02

[loop]
max_iterations = 5
)",
                                             "hydra.toml");
    CHECK(config.profile == "cmake");
  }
  SECTION("bad input") {
    try {
      hydra::config::parse("[compare]\nmin_composite_gain = 0.01\nbogus = 1\n", "hydra.toml");
      FAIL("expected an error");
    } catch (const hydra::InputError& error) {
      CHECK(error.line() == 3);
      CHECK(std::string(error.what()).find("bogus") != std::string::npos);
    }
    CHECK_THROWS_AS(hydra::config::parse("[judge]\ntimeout_seconds = -1\n", "hydra.toml"), hydra::InputError);
    CHECK_THROWS_AS(hydra::config::parse("[anti_gaming]\nsuppression_weight = -1\n", "hydra.toml"),
                    hydra::InputError);
    CHECK_THROWS_AS(hydra::config::parse("[loop]\nbogus = 1\n", "hydra.toml"), hydra::InputError);
  }
}

TEST_CASE("regex-valued keys with 30,000 nested parentheses do not crash config::load", "[config][hostile]") {
  // std::regex once compiled such a pattern by recursion and overflowed the
  // stack, so every command that reads the config died. RE2 compiles it
  // without recursion: a balanced pattern is accepted, an unbalanced one is
  // an error naming the key and its line and column.
  const std::size_t depth = 30000;
  const std::string balanced = std::string(depth, '(') + "x" + std::string(depth, ')');
  SECTION("balanced: accepted and usable") {
    const config::Config parsed = config::parse(
        "[eval]\ncheck_regex = '" + balanced + "'\n[anti_gaming]\nassertion_patterns = ['" + balanced + "']\n",
        "hydra.toml");
    CHECK(parsed.eval.check_regex == balanced);
    CHECK(parsed.anti_gaming.assertion_patterns == std::vector<std::string>{balanced});
  }
  SECTION("unbalanced: an error at the key") {
    const std::string open_only(depth, '(');
    // check_regex's value starts at line 2, column 15; the array element at column 23.
    require_input_error("[eval]\ncheck_regex = '" + open_only + "'\n", "eval.check_regex", 2, 15);
    require_input_error("[anti_gaming]\nassertion_patterns = ['" + open_only + "']\n",
                        "anti_gaming.assertion_patterns[0]", 2, 23);
  }
  SECTION("lookaround and backreferences (not RE2) are errors at the key, not crashes") {
    require_input_error("[eval]\ncheck_regex = '(?=x)'\n", "eval.check_regex", 2, 15);
    require_input_error("[eval]\ncheck_regex = '(a)\\1'\n", "eval.check_regex", 2, 15);
  }
}

TEST_CASE("[cache] is read, validated and left out of the digest", "[config]") {
  const auto defaults = config::parse("", "hydra.toml", "/project");
  CHECK(defaults.cache.enabled);
  CHECK(defaults.cache.lint);
  CHECK(defaults.cache.compiler);
  CHECK(defaults.cache.directory.empty());
  CHECK(defaults.cache.lint_max_megabytes == 256);
  const auto set = config::parse("[cache]\nenabled = true\nlint = false\ncompiler = false\n"
                                 "directory = \"caches\"\nlint_max_megabytes = 16\n"
                                 "remote = \"redis://cache:6379\"\nremote_timeout_milliseconds = 500\n",
                                 "hydra.toml", "/project");
  CHECK(defaults.cache.remote.empty());
  CHECK(defaults.cache.remote_timeout_milliseconds == 2000);
  CHECK(set.cache.remote == "redis://cache:6379");
  CHECK(set.cache.remote_timeout_milliseconds == 500);
  CHECK_FALSE(set.cache.lint);
  CHECK_FALSE(set.cache.compiler);
  CHECK(set.cache.directory == std::filesystem::path("/project/caches"));
  CHECK(set.cache.lint_max_megabytes == 16);
  // Caches never change a result: the digest (the run's config_digest) ignores them.
  CHECK(config::digest(set) == config::digest(defaults));
  const auto parse = [](std::string_view toml, const std::string& name) { return config::parse(toml, name); };
  hydra::test::require_key_error(parse, "[cache]\nlint = \"yes\"\n", "cache.lint", 2, 8);
  hydra::test::require_key_error(parse, "[cache]\nlint_max_megabytes = 0\n", "cache.lint_max_megabytes", 2, 22);
  hydra::test::require_key_error(parse, "[cache]\nsize = 1\n", "cache.size", 2, 1);
  hydra::test::require_key_error(parse, "[cache]\nremote = \"ftp://cache\"\n", "cache.remote", 2, 10);
}

TEST_CASE("[sandbox] is read, validated and left out of the digest", "[config][sandbox]") {
  const auto defaults = config::parse("", "hydra.toml", "/project");
  CHECK_FALSE(defaults.sandbox.network);
  CHECK_FALSE(defaults.sandbox.require);
  CHECK(defaults.sandbox.environment.empty());
  CHECK(defaults.sandbox.hidden.empty());
  CHECK(defaults.sandbox.read_only.empty());
  CHECK_FALSE(defaults.sandbox.memory_megabytes);  // half of the machine's memory
  CHECK(defaults.sandbox.cpu_seconds == 3600);
  CHECK(defaults.sandbox.processes == 4096);
  const auto set = config::parse(
      "[sandbox]\nnetwork = true\nrequire = true\nenvironment = [\"MY_LICENSE\", \"QT_*\", \"_X1\"]\n"
      "hidden = [\"secrets\", \"/srv/data\"]\nread_only = [\"/home/me/sdk\"]\n"
      "memory_megabytes = 2048\ncpu_seconds = 0\nprocesses = 64\n",
      "hydra.toml", "/project");
  CHECK(set.sandbox.network);
  CHECK(set.sandbox.require);
  CHECK(set.sandbox.environment == std::vector<std::string>{"MY_LICENSE", "QT_*", "_X1"});
  CHECK(set.sandbox.hidden == std::vector<std::filesystem::path>{"/project/secrets", "/srv/data"});
  CHECK(set.sandbox.read_only == std::vector<std::filesystem::path>{"/home/me/sdk"});
  REQUIRE(set.sandbox.memory_megabytes);
  CHECK(*set.sandbox.memory_megabytes == 2048);
  CHECK(set.sandbox.cpu_seconds == 0);
  CHECK(set.sandbox.processes == 64);
  // What candidate code may reach never changes how a result is scored.
  CHECK(config::digest(set) == config::digest(defaults));
  const auto parse = [](std::string_view toml, const std::string& name) { return config::parse(toml, name); };
  hydra::test::require_key_error(parse, "[sandbox]\nnetwork = \"no\"\n", "sandbox.network", 2, 11);
  hydra::test::require_key_error(parse, "[sandbox]\nenvironment = [\"OK\", \"NOT-A-NAME\"]\n",
                                 "sandbox.environment[1]", 2, 22);
  hydra::test::require_key_error(parse, "[sandbox]\nenvironment = [\"9LIVES\"]\n", "sandbox.environment[0]", 2, 16);
  hydra::test::require_key_error(parse, "[sandbox]\nhidden = [\"\"]\n", "sandbox.hidden[0]", 2, 11);
  hydra::test::require_key_error(parse, "[sandbox]\nmemory_megabytes = -1\n", "sandbox.memory_megabytes", 2, 20);
  hydra::test::require_key_error(parse, "[sandbox]\nmemory_megabytes = 2000000000\n", "sandbox.memory_megabytes", 2,
                                 20);
  hydra::test::require_key_error(parse, "[sandbox]\nprocesses = 1.5\n", "sandbox.processes", 2, 13);
  hydra::test::require_key_error(parse, "[sandbox]\nshare = 1\n", "sandbox.share", 2, 1);
}

TEST_CASE("a profile is a name, or a table with the name and commands that replace the built-in ones",
          "[config]") {
  SECTION("the name alone: the profile's own commands") {
    const config::Config parsed = config::parse("[scoring]\nprofile = \"rust\"\n", "hydra.toml");
    CHECK(parsed.steps.build == "cargo build --all-targets");
    CHECK(parsed.steps.test == "cargo test");
    CHECK(parsed.steps.lint == "cargo clippy --all-targets -- -D warnings");
  }
  SECTION("the table: overrides per step, the others stay") {
    const config::Config parsed = config::parse(
        "[scoring.profile]\nname = \"python\"\nlint = \"flake8 src\"\nbuild = \"python3 -m compileall -q src\"\n",
        "hydra.toml");
    CHECK(parsed.profile == "python");
    CHECK(parsed.steps.lint == "flake8 src");
    CHECK(parsed.steps.build == "python3 -m compileall -q src");
    CHECK(parsed.steps.test == "pytest -q");
  }
  SECTION("the commands are part of the digest, so runs captured with other commands do not compare as equal") {
    const auto plain = config::parse("[scoring]\nprofile = \"python\"\n", "a.toml");
    const auto other = config::parse("[scoring.profile]\nname = \"python\"\nlint = \"flake8\"\n", "b.toml");
    CHECK(config::digest(plain) != config::digest(other));
    // cmake's commands are fixed and not in the digest.
    CHECK(config::to_json(config::Config{})["scoring"].count("steps") == 0);
  }
  SECTION("bad tables name the key") {
    require_input_error("[scoring.profile]\nname = \"gradle\"\n", "scoring.profile.name", 2, 8);
    require_input_error("[scoring.profile]\nname = \"rust\"\ntest = \"\"\n", "scoring.profile.test", 3, 8);
    require_input_error("[scoring.profile]\nname = \"rust\"\ntest = 5\n", "scoring.profile.test", 3, 8);
    require_input_error("[scoring.profile]\nname = \"rust\"\nformat = \"x\"\n", "scoring.profile.format", 3, 1);
    // The cmake profile's steps are HydraScore's own.
    require_input_error("[scoring.profile]\nbuild = \"make\"\n", "scoring.profile.build", 2, 9);
  }
}
