#include <hydra/config/config.hpp>

#include <hydra/compare/thresholds.hpp>
#include <hydra/eval/settings.hpp>
#include <hydra/guard/settings.hpp>
#include <hydra/loop/settings.hpp>

#include <fnmatch.h>

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

/// The TOML type of `node`, as a user reads it in an error message.
std::string type_name(const toml::node& node) {
  switch (node.type()) {
    case toml::node_type::table: return "a table";
    case toml::node_type::array: return "an array";
    case toml::node_type::string: return "a string";
    case toml::node_type::integer: return "an integer";
    case toml::node_type::floating_point: return "a float";
    case toml::node_type::boolean: return "a boolean";
    case toml::node_type::date: return "a date";
    case toml::node_type::time: return "a time";
    case toml::node_type::date_time: return "a date-time";
    case toml::node_type::none: break;
  }
  return "nothing";
}

/// Shortest text of `value` for messages ("0.5", "300", "-1").
std::string number_text(double value) {
  nlohmann::json number = value;
  if (std::isfinite(value) && value == std::floor(value) && std::fabs(value) < 1e15) {
    number = static_cast<std::int64_t>(value);
  }
  return number.dump();
}

/// Allowed range of a number-valued key.
struct NumberRange {
  double minimum = 0;
  bool minimum_exclusive = false;
  std::optional<double> maximum;
};

/// Reads the keys of one TOML table into a Config, remembering which keys it
/// asked for so that every other key can be reported as unknown. Every error
/// names the key's full path ("scoring.weights.lint") and its line:column.
class TableReader {
 public:
  TableReader(const toml::table& table, std::string path, const std::string& source_name)
      : table_(table), path_(std::move(path)), source_name_(source_name) {}

  /// The full path of `key` in this table ("scoring.weights" + "lint").
  std::string path_of(std::string_view key) const {
    return path_.empty() ? std::string(key) : path_ + "." + std::string(key);
  }

  /// Throws InputError for `key_path` at `region`.
  [[noreturn]] void fail(const toml::source_region& region, const std::string& key_path,
                         const std::string& message) const {
    throw InputError(source_name_, key_path + ": " + message, region.begin.line,
                     region.begin.column);
  }

  /// Throws InputError for this table itself (e.g. "all weights are zero").
  [[noreturn]] void fail_table(const std::string& message) const {
    fail(table_.source(), path_, message);
  }

  /// A number (integer or float) within `range`; absent leaves `out` as is.
  /// Returns whether the key was present.
  bool number(std::string_view key, double& out, const NumberRange& range) {
    const toml::node* node = take(key);
    if (!node) return false;
    double value = 0;
    if (auto integer = node->as_integer()) {
      value = static_cast<double>(integer->get());
    } else if (auto floating = node->as_floating_point()) {
      value = floating->get();
    } else {
      fail(node->source(), path_of(key), "expected a number, got " + type_name(*node));
    }
    if (!std::isfinite(value)) {
      fail(node->source(), path_of(key), "expected a finite number");
    }
    const bool below = range.minimum_exclusive ? value <= range.minimum : value < range.minimum;
    if (below || (range.maximum && value > *range.maximum)) {
      std::string expected = range.minimum_exclusive
                                 ? "greater than " + number_text(range.minimum)
                                 : "at least " + number_text(range.minimum);
      if (range.maximum) {
        expected = "between " + number_text(range.minimum) + " and " + number_text(*range.maximum);
      }
      fail(node->source(), path_of(key), "must be " + expected + ", got " + number_text(value));
    }
    out = value;
    return true;
  }

  /// An integer of at least `minimum`.
  void unsigned_integer(std::string_view key, std::uint64_t& out, std::uint64_t minimum) {
    const toml::node* node = take(key);
    if (!node) return;
    auto integer = node->as_integer();
    if (!integer) fail(node->source(), path_of(key), "expected an integer, got " + type_name(*node));
    const std::int64_t value = integer->get();
    if (value < 0 || static_cast<std::uint64_t>(value) < minimum) {
      fail(node->source(), path_of(key),
           "must be at least " + std::to_string(minimum) + ", got " + std::to_string(value));
    }
    out = static_cast<std::uint64_t>(value);
  }

  void boolean(std::string_view key, bool& out) {
    const toml::node* node = take(key);
    if (!node) return;
    auto value = node->as_boolean();
    if (!value) fail(node->source(), path_of(key), "expected a boolean, got " + type_name(*node));
    out = value->get();
  }

  /// A string; returns the node (for follow-up checks) or nullptr when absent.
  const toml::node* string(std::string_view key, std::string& out) {
    const toml::node* node = take(key);
    if (!node) return nullptr;
    auto value = node->as_string();
    if (!value) fail(node->source(), path_of(key), "expected a string, got " + type_name(*node));
    out = value->get();
    return node;
  }

  /// One of the strings in `choices`, mapped to its value.
  template <class Value>
  void choice(std::string_view key, Value& out,
              std::initializer_list<std::pair<std::string_view, Value>> choices) {
    std::string text;
    const toml::node* node = string(key, text);
    if (!node) return;
    std::string allowed;
    for (const auto& [name, value] : choices) {
      if (name == text) {
        out = value;
        return;
      }
      allowed += (allowed.empty() ? "\"" : ", \"") + std::string(name) + "\"";
    }
    fail(node->source(), path_of(key), "must be one of " + allowed + ", got \"" + text + "\"");
  }

  /// An array of non-empty strings.
  void string_list(std::string_view key, std::vector<std::string>& out) {
    const toml::node* node = take(key);
    if (!node) return;
    auto array = node->as_array();
    if (!array) {
      fail(node->source(), path_of(key), "expected an array of strings, got " + type_name(*node));
    }
    std::vector<std::string> values;
    for (std::size_t index = 0; index < array->size(); ++index) {
      const toml::node& element = *array->get(index);
      const std::string element_path = path_of(key) + "[" + std::to_string(index) + "]";
      auto text = element.as_string();
      if (!text) fail(element.source(), element_path, "expected a string, got " + type_name(element));
      if (text->get().empty()) fail(element.source(), element_path, "must not be empty");
      values.push_back(text->get());
    }
    out = std::move(values);
  }

  /// A sub-table, or nullopt when absent.
  std::optional<TableReader> table(std::string_view key) {
    const toml::node* node = take(key);
    if (!node) return std::nullopt;
    auto sub_table = node->as_table();
    if (!sub_table) fail(node->source(), path_of(key), "expected a table, got " + type_name(*node));
    return TableReader(*sub_table, path_of(key), source_name_);
  }

  /// Throws for the first key (in source order) that no read asked for.
  void reject_unknown_keys() const {
    const toml::key* first_unknown = nullptr;
    for (const auto& [key, node] : table_) {
      (void)node;
      if (asked_.count(std::string(key.str()))) continue;
      auto position = [](const toml::key& k) {
        return std::make_pair(k.source().begin.line, k.source().begin.column);
      };
      if (!first_unknown || position(key) < position(*first_unknown)) first_unknown = &key;
    }
    if (first_unknown) {
      fail(first_unknown->source(), path_of(first_unknown->str()), "unknown key");
    }
  }

 private:
  const toml::node* take(std::string_view key) {
    asked_.insert(std::string(key));
    return table_.get(key);
  }

  const toml::table& table_;
  std::string path_;
  const std::string& source_name_;
  std::set<std::string> asked_;
};

const NumberRange non_negative{0, false, std::nullopt};
const NumberRange positive{0, true, std::nullopt};
const NumberRange percent{0, false, 100.0};
const NumberRange ratio{0, false, 1.0};

void read_weights(TableReader& table, Weights& weights) {
  table.number("build", weights.build, non_negative);
  table.number("tests", weights.tests, non_negative);
  table.number("lint", weights.lint, non_negative);
  table.number("diff_scope", weights.diff_scope, non_negative);
  table.number("speed", weights.speed, non_negative);
  table.number("judge", weights.judge, non_negative);
  table.reject_unknown_keys();
}

void read_scoring(TableReader& scoring, Config& config) {
  if (const toml::node* node = scoring.string("profile", config.profile)) {
    const auto& profiles = builtin_profiles();
    const bool known = std::any_of(profiles.begin(), profiles.end(),
                                   [&](const Profile& p) { return p.name == config.profile; });
    if (!known) {
      std::string allowed;
      for (const auto& profile : profiles) {
        allowed += (allowed.empty() ? "\"" : ", \"") + profile.name + "\"";
      }
      scoring.fail(node->source(), scoring.path_of("profile"),
                   "unknown profile \"" + config.profile + "\" (known: " + allowed + ")");
    }
  }

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

std::string_view strip_dot_slash(std::string_view text) {
  while (text.size() >= 2 && text[0] == '.' && text[1] == '/') text.remove_prefix(2);
  return text;
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

/// Tables owned by other modules. config::parse checks them with those
/// modules' readers, so a hydra.toml is validated in one place and an error
/// in any table names its key and line:column, whoever reads it later.
void validate_module_tables(TableReader& root, std::string_view toml_text, const std::string& source_name,
                            const std::filesystem::path& base_directory, Config& config) {
  bool eval_tables = false;
  for (const char* name : {"eval", "judge"}) eval_tables = root.table(name).has_value() || eval_tables;
  if (eval_tables) eval::parse_eval_tables(toml_text, source_name, base_directory);
  if (root.table("compare")) compare::parse_compare_table(toml_text, source_name);
  if (root.table("anti_gaming")) config.anti_gaming = guard::parse_anti_gaming(toml_text, source_name);
  if (root.table("loop")) loop::parse_loop_settings(toml_text, source_name);
}

Config parse_document(std::string_view toml_text, const std::string& source_name,
                      const std::filesystem::path& base_directory);

}  // namespace

Config parse(std::string_view toml_text, const std::string& source_name) {
  return parse_document(toml_text, source_name, std::filesystem::current_path());
}

namespace {

Config parse_document(std::string_view toml_text, const std::string& source_name,
                      const std::filesystem::path& base_directory) {
  toml::table document;
  try {
    document = toml::parse(toml_text, source_name);
  } catch (const toml::parse_error& error) {
    throw InputError(source_name, std::string(error.description()), error.source().begin.line,
                     error.source().begin.column);
  }

  Config config;
  TableReader root(document, "", source_name);
  for (const auto& section : sections) {
    if (auto table = root.table(section.name)) section.read(*table, config);
  }
  validate_module_tables(root, toml_text, source_name, base_directory, config);
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
        {"security_command", config.gates.security_command}}},
      {"diff_scope",
       {{"max_files_soft", config.diff_scope.max_files_soft},
        {"max_churn_soft", config.diff_scope.max_churn_soft},
        {"protected_paths", config.diff_scope.protected_paths}}},
      {"tests", {{"regression", regression_name(config.tests.regression)}}},
      {"lint",
       {{"match", match_name(config.lint.match)},
        {"compiler_warnings", config.lint.compiler_warnings},
        {"exclude", config.lint.exclude}}},
      {"speed", {{"include_failed", config.speed.include_failed}}},
  };
  const auto& guard = config.anti_gaming;
  json anti_gaming = {
      {"suppression_weight", guard.suppression_weight},
      {"assertion_penalty", guard.assertion_penalty},
      {"test_tampering_is_regression", guard.test_tampering_is_regression},
      {"fail_gate_on_tampering", guard.fail_gate_on_tampering},
      {"assertion_patterns", guard.assertion_patterns},
      {"test_file_globs", guard.test_file_globs},
      {"protected_config_files", guard.protected_config_files},
  };
  return json{{"scoring", std::move(scoring)}, {"anti_gaming", std::move(anti_gaming)}};
}

std::string digest(const Config& config) { return util::sha256_hex(to_json(config).dump()); }

bool path_matches(std::string_view pattern, std::string_view path) {
  pattern = strip_dot_slash(pattern);
  path = strip_dot_slash(path);
  if (pattern.empty()) return false;
  if (pattern.find_first_of("*?[") != std::string_view::npos) {
    return fnmatch(std::string(pattern).c_str(), std::string(path).c_str(), 0) == 0;
  }
  if (pattern.back() == '/') return path.substr(0, pattern.size()) == pattern;
  if (path == pattern) return true;
  return path.size() > pattern.size() && path.substr(0, pattern.size()) == pattern &&
         path[pattern.size()] == '/';
}

}  // namespace hydra::config
