#include <hydra/config/config.hpp>

#include <hydra/config/module_tables.hpp>
#include <hydra/config/table_reader.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <set>
#include <utility>

#include <toml++/toml.h>

#include <hydra/error.hpp>
#include <hydra/util/files.hpp>
#include <hydra/util/sha256.hpp>

namespace hydra::config {

namespace {

void read_weights(TableReader& table, Weights& weights) {
  table.number("build", weights.build, non_negative);
  table.number("tests", weights.tests, non_negative);
  table.number("lint", weights.lint, non_negative);
  table.number("diff_scope", weights.diff_scope, non_negative);
  table.number("speed", weights.speed, non_negative);
  table.number("judge", weights.judge, non_negative);
  table.reject_unknown_keys();
}

/// `profile = "name"`, or the table `[scoring.profile]` with `name` and the
/// commands that replace the built-in ones of that profile.
void read_profile(TableReader& scoring, Config& config) {
  const auto check_name = [&](const toml::node& node, const std::string& key_path) {
    const auto& profiles = builtin_profiles();
    const bool known = std::any_of(profiles.begin(), profiles.end(),
                                   [&](const Profile& p) { return p.name == config.profile; });
    if (known) return;
    std::string allowed;
    for (const auto& profile : profiles) allowed += (allowed.empty() ? "\"" : ", \"") + profile.name + "\"";
    scoring.fail(node.source(), key_path, "unknown profile \"" + config.profile + "\" (known: " + allowed + ")");
  };
  if (scoring.is_table("profile")) {
    auto table = scoring.table("profile");
    if (const toml::node* node = table->string("name", config.profile)) check_name(*node, table->path_of("name"));
    config.steps = find_profile(config.profile);
    const std::pair<std::string_view, std::string*> commands[] = {
        {"build", &config.steps.build}, {"test", &config.steps.test}, {"lint", &config.steps.lint}};
    for (const auto& [key, target] : commands) {
      std::string text;
      const toml::node* node = table->string(key, text);
      if (!node) continue;
      if (config.profile == "cmake")
        table->fail(*node, key,
                    "the cmake profile's steps are driven by hydra-score capture itself; build, test and lint "
                    "commands apply to the js-node, rust and python profiles (set name)");
      if (key == "test" && text.find_first_not_of(" \t") == std::string::npos)
        table->fail(*node, key, "must not be empty: the test step is what the tests dimension reads");
      *target = text;
    }
    table->reject_unknown_keys();
    return;
  }
  if (const toml::node* node = scoring.string("profile", config.profile)) check_name(*node, scoring.path_of("profile"));
  config.steps = find_profile(config.profile);
}

void read_scoring(TableReader& scoring, Config& config) {
  read_profile(scoring, config);

  double per_check = 0;
  if (scoring.number("timeout_per_check_seconds", per_check, positive)) {
    config.timeout_per_check_seconds = per_check;
    config.build_timeout_seconds = per_check;
    config.test_timeout_seconds = per_check;
    config.lint_timeout_seconds = per_check;
  }
  if (auto timeouts = scoring.table("timeouts")) {
    timeouts->number("build", config.build_timeout_seconds, positive);
    timeouts->number("test", config.test_timeout_seconds, positive);
    timeouts->number("lint", config.lint_timeout_seconds, positive);
    timeouts->reject_unknown_keys();
  }

  if (auto weights = scoring.table("weights")) {
    read_weights(*weights, config.weights);
    const Weights& w = config.weights;
    if (w.build + w.tests + w.lint + w.diff_scope + w.speed + w.judge <= 0) {
      weights->fail_table("all weights are zero; at least one must be positive");
    }
  }

  if (auto gates = scoring.table("gates")) {
    gates->boolean("require_build_pass", config.gates.require_build_pass);
    gates->number("max_test_regression_percent", config.gates.max_test_regression_percent, percent);
    gates->number("min_test_count_ratio", config.gates.min_test_count_ratio, ratio);
    gates->string("security_command", config.gates.security_command);
    gates->boolean("require_resolved", config.gates.require_resolved);
    gates->reject_unknown_keys();
  }

  if (auto diff_scope = scoring.table("diff_scope")) {
    diff_scope->unsigned_integer("max_files_soft", config.diff_scope.max_files_soft, 1);
    diff_scope->unsigned_integer("max_churn_soft", config.diff_scope.max_churn_soft, 1);
    diff_scope->string_list("protected_paths", config.diff_scope.protected_paths);
    diff_scope->reject_unknown_keys();
  }

  if (auto tests = scoring.table("tests")) {
    tests->choice<Tests::Regression>("regression", config.tests.regression,
                                     {{"count", Tests::Regression::count},
                                      {"identity", Tests::Regression::identity}});
    // Flaky tests: reruns of failing tests, repeats of the baseline's suite.
    tests->integer("attempts", config.tests.attempts, 1, 100);
    tests->integer("baseline_repeat", config.tests.baseline_repeat, 1, 100);
    // Test cases of framework programs; new tests' weight.
    tests->choice<Tests::Granularity>("granularity", config.tests.granularity,
                                      {{"case", Tests::Granularity::test_case},
                                       {"program", Tests::Granularity::program}});
    tests->boolean("dilution_guard", config.tests.dilution_guard);
    tests->reject_unknown_keys();
  }

  if (auto lint = scoring.table("lint")) {
    lint->choice<Lint::Match>("match", config.lint.match,
                              {{"count", Lint::Match::count},
                               {"fingerprint", Lint::Match::fingerprint}});
    lint->boolean("compiler_warnings", config.lint.compiler_warnings);
    lint->string_list("exclude", config.lint.exclude);
    lint->reject_unknown_keys();
  }

  if (auto speed = scoring.table("speed")) {
    speed->boolean("include_failed", config.speed.include_failed);
    speed->reject_unknown_keys();
  }

  scoring.reject_unknown_keys();
}

/// The top-level tables of hydra.toml and their readers. Adding a table
/// ([capture], [judge], ...) is one entry here plus its reader function.
struct Section {
  std::string_view name;
  void (*read)(TableReader& table, Config& config);
};
constexpr std::array<Section, 1> sections{{
    {"scoring", &read_scoring},
}};

std::string_view regression_name(Tests::Regression regression) {
  return regression == Tests::Regression::identity ? "identity" : "count";
}

std::string_view match_name(Lint::Match match) {
  return match == Lint::Match::fingerprint ? "fingerprint" : "count";
}

}  // namespace

const std::vector<Profile>& builtin_profiles() {
  static const std::vector<Profile> profiles{
      {"cmake", "cmake --build <build-dir>",
       "ctest --test-dir <build-dir> --output-junit <run>/ctest-junit.xml",
       "clang-tidy -p <build-dir> <every source in compile_commands.json>"},
      {"js-node", "npm run build", "npm test -- --runInBand", "npm run lint"},
      {"rust", "cargo build --all-targets", "cargo test",
       "cargo clippy --all-targets -- -D warnings"},
      {"python", "", "pytest -q", "ruff check ."},
  };
  return profiles;
}

const Profile& find_profile(std::string_view name) {
  for (const auto& profile : builtin_profiles()) {
    if (profile.name == name) return profile;
  }
  throw Error("unknown profile \"" + std::string(name) + "\"");
}

namespace {

/// The module tables: read here with the rest of the file, so hydra.toml is
/// parsed once and an error in any table names its key and line:column.
void read_module_tables(TableReader& root, const std::filesystem::path& base_directory, Config& config) {
  if (auto table = root.table("eval")) config.eval = read_eval(*table);
  if (auto table = root.table("judge")) config.judge = read_judge(*table, base_directory);
  if (auto table = root.table("compare")) config.compare = read_compare(*table);
  if (auto table = root.table("anti_gaming")) config.anti_gaming = read_anti_gaming(*table);
  if (auto table = root.table("loop")) config.loop = read_loop(*table);
  if (auto table = root.table("cache")) config.cache = read_cache(*table, base_directory);
  if (auto table = root.table("sandbox")) config.sandbox = read_sandbox(*table, base_directory);
}

Config parse_document(std::string_view toml_text, const std::string& source_name,
                      const std::filesystem::path& base_directory);

}  // namespace

Config parse(std::string_view toml_text, const std::string& source_name,
             const std::filesystem::path& base_directory) {
  return parse_document(toml_text, source_name,
                        base_directory.empty() ? std::filesystem::current_path() : base_directory);
}

namespace {

Config parse_document(std::string_view toml_text, const std::string& source_name,
                      const std::filesystem::path& base_directory) {
  const toml::table document = parse_toml(toml_text, source_name);

  Config config;
  TableReader root(document, "", source_name);
  for (const auto& section : sections) {
    if (auto table = root.table(section.name)) section.read(*table, config);
  }
  read_module_tables(root, base_directory, config);
  root.reject_unknown_keys();
  return config;
}

}  // namespace

Config load(const std::filesystem::path& file) {
  const std::string text = util::read_file(file);
  util::require_text(text, file.string());
  return parse_document(text, file.string(), file.parent_path());
}

nlohmann::json to_json(const Config& config) {
  using nlohmann::json;
  const auto& w = config.weights;
  json scoring = {
      {"profile", config.profile},
      {"timeout_per_check_seconds",
       config.timeout_per_check_seconds ? json(*config.timeout_per_check_seconds) : json(nullptr)},
      {"timeouts",
       {{"build", config.build_timeout_seconds},
        {"test", config.test_timeout_seconds},
        {"lint", config.lint_timeout_seconds}}},
      {"weights",
       {{"build", w.build},
        {"tests", w.tests},
        {"lint", w.lint},
        {"diff_scope", w.diff_scope},
        {"speed", w.speed},
        {"judge", w.judge}}},
      {"gates",
       {{"require_build_pass", config.gates.require_build_pass},
        {"max_test_regression_percent", config.gates.max_test_regression_percent},
        {"min_test_count_ratio", config.gates.min_test_count_ratio},
        {"security_command", config.gates.security_command},
        {"require_resolved", config.gates.require_resolved}}},
      {"diff_scope",
       {{"max_files_soft", config.diff_scope.max_files_soft},
        {"max_churn_soft", config.diff_scope.max_churn_soft},
        {"protected_paths", config.diff_scope.protected_paths}}},
      {"tests",
       {{"regression", regression_name(config.tests.regression)},
        {"attempts", config.tests.attempts},
        {"baseline_repeat", config.tests.baseline_repeat},
        {"granularity", config.tests.granularity == Tests::Granularity::program ? "program" : "case"},
        {"dilution_guard", config.tests.dilution_guard}}},
      {"lint",
       {{"match", match_name(config.lint.match)},
        {"compiler_warnings", config.lint.compiler_warnings},
        {"exclude", config.lint.exclude}}},
      {"speed", {{"include_failed", config.speed.include_failed}}},
  };
  // The commands are part of what a configuration means; cmake's are fixed.
  if (config.profile != "cmake")
    scoring["steps"] = {{"build", config.steps.build}, {"test", config.steps.test}, {"lint", config.steps.lint}};
  const auto& guard = config.anti_gaming;
  json anti_gaming = {
      {"suppression_weight", guard.suppression_weight},
      {"assertion_penalty", guard.assertion_penalty},
      {"test_tampering_is_regression", guard.test_tampering_is_regression},
      {"fail_gate_on_tampering", guard.fail_gate_on_tampering},
      {"assertion_patterns", guard.assertion_patterns},
      {"test_file_globs", guard.test_file_globs},
      {"test_paths", guard.test_paths},
      {"private_test_patch", guard.private_test_patch},
      {"protected_config_files", guard.protected_config_files},
  };
  // Set only when used, so configurations without it keep their digests.
  if (!guard.allowed_references.empty()) anti_gaming["allowed_references"] = guard.allowed_references;
  return json{{"scoring", std::move(scoring)}, {"anti_gaming", std::move(anti_gaming)}};
}

std::string digest(const Config& config) { return util::sha256_hex(to_json(config).dump()); }

}  // namespace hydra::config
