#include <catch2/catch.hpp>

#include <string>

#include <hydra/error.hpp>
#include <hydra/config/config.hpp>
#include <hydra/guard/guard.hpp>

#include "config/key_error.hpp"

namespace guard = hydra::guard;

namespace {

guard::Settings parse_anti_gaming(std::string_view text, const std::string& source_name) {
  return hydra::config::parse(text, source_name).anti_gaming;
}

/// Parses `text` expecting an InputError that names `key_path` at `line`:`column`.
void require_input_error(const std::string& text, const std::string& key_path,
                         std::uint64_t line, std::uint64_t column) {
  hydra::test::require_key_error(&parse_anti_gaming, text, key_path, line, column);
}

}  // namespace

TEST_CASE("parse_anti_gaming reads the [anti_gaming] table", "[guard]") {
  SECTION("valid input") {
    const guard::Settings defaults = parse_anti_gaming("[scoring]\nprofile = \"cmake\"\n", "hydra.toml");
    CHECK(defaults.suppression_weight == 2.0);
    CHECK(defaults.assertion_penalty == 2.0);
    CHECK(defaults.test_tampering_is_regression);
    CHECK(defaults.fail_gate_on_tampering);
    CHECK(defaults.assertion_patterns.empty());
    CHECK(defaults.test_file_globs ==
          std::vector<std::string>{"test/", "tests/", "*_test.*", "test_*.*", "*Test.*", "*_tests.*",
                                                             "*.test.*", "*.spec.*", "__tests__/", "conftest.py",
                                                             "pytest.ini", "jest.config.*"});
    CHECK(defaults.protected_config_files.at(0) == "hydra.toml");
    CHECK(defaults.protected_config_files.at(1) == ".clang-tidy");

    const guard::Settings parsed = parse_anti_gaming(R"([anti_gaming]
suppression_weight = 0
assertion_penalty = 5.5
test_tampering_is_regression = false
fail_gate_on_tampering = false
assertion_patterns = ['\bverify\s*\(']
test_file_globs = ["spec/"]
protected_config_files = []
)",
                                                            "hydra.toml");
    CHECK(parsed.suppression_weight == 0.0);
    CHECK(parsed.assertion_penalty == 5.5);
    CHECK_FALSE(parsed.test_tampering_is_regression);
    CHECK_FALSE(parsed.fail_gate_on_tampering);
    CHECK(parsed.assertion_patterns == std::vector<std::string>{"\\bverify\\s*\\("});
    CHECK(parsed.test_file_globs == std::vector<std::string>{"spec/"});
    CHECK(parsed.protected_config_files.empty());
  }
  SECTION("bad input") {
    require_input_error("[anti_gaming]\nsupression_weight = 1\n", "anti_gaming.supression_weight", 2, 1);
    require_input_error("[anti_gaming]\nsuppression_weight = -1\n", "anti_gaming.suppression_weight", 2, 22);
    require_input_error("[anti_gaming]\nassertion_penalty = inf\n", "anti_gaming.assertion_penalty", 2, 21);
    require_input_error("[anti_gaming]\nassertion_penalty = \"2\"\n", "anti_gaming.assertion_penalty", 2, 21);
    require_input_error("[anti_gaming]\nfail_gate_on_tampering = 1\n", "anti_gaming.fail_gate_on_tampering", 2, 26);
    require_input_error("[anti_gaming]\ntest_file_globs = \"tests/\"\n", "anti_gaming.test_file_globs", 2, 19);
    require_input_error("[anti_gaming]\ntest_file_globs = [\"tests/\", 3]\n", "anti_gaming.test_file_globs[1]", 2, 30);
    require_input_error("[anti_gaming]\nprotected_config_files = [\"\"]\n", "anti_gaming.protected_config_files[0]", 2, 27);
    require_input_error("[anti_gaming]\nassertion_patterns = [\"CHECK(\"]\n", "anti_gaming.assertion_patterns[0]", 2, 23);
    require_input_error("anti_gaming = 3\n", "anti_gaming", 1, 15);

    try {
      parse_anti_gaming("[anti_gaming\n", "hydra.toml");
      FAIL("expected hydra::InputError");
    } catch (const hydra::InputError& error) {
      CHECK(error.file() == "hydra.toml");
      CHECK(error.line() == 1);
    }
  }
}
