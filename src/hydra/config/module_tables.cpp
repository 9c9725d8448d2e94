#include <hydra/config/module_tables.hpp>

#include <algorithm>
#include <cctype>
#include <cmath>

#include <hydra/error.hpp>
#include <hydra/remote/storage.hpp>
#include <hydra/util/files.hpp>
#include <hydra/util/regex.hpp>

namespace hydra::config {
namespace {

std::filesystem::path resolve(const std::filesystem::path& base, const std::string& path) {
  std::filesystem::path result(path);
  if (result.is_relative() && !base.empty()) result = base / result;
  return result;
}

}  // namespace

EvalSettings read_eval(TableReader& table) {
  EvalSettings eval;
  table.number("w_obj", eval.objective_weight, positive);
  table.number("w_judge", eval.judge_weight, non_negative);
  table.number("cost_weight", eval.cost_weight, ratio);
  table.string_list("check_labels", eval.check_labels);
  if (const toml::node* node = table.string("check_regex", eval.check_regex)) {
    if (const std::string error = util::regex_error(eval.check_regex); !error.empty())
      table.fail(*node, "check_regex", "invalid regular expression (RE2 syntax): " + error);
  }
  table.reject_unknown_keys();
  return eval;
}

JudgeSettings read_judge(TableReader& table, const std::filesystem::path& base_directory) {
  JudgeSettings judge;
  table.string("command", judge.command);
  table.number("timeout_seconds", judge.timeout_seconds, positive);
  const toml::node* rubric = table.string("rubric", judge.rubric);
  std::string rubric_file;
  const toml::node* rubric_file_node = table.string("rubric_file", rubric_file);
  if (!rubric_file.empty()) {
    if (rubric != nullptr) table.fail(*rubric_file_node, "rubric_file", "give either rubric or rubric_file, not both");
    judge.rubric = util::read_file(resolve(base_directory, rubric_file));
  }
  std::string prompt_template;
  table.string("template", prompt_template);
  if (!prompt_template.empty()) judge.prompt_template = resolve(base_directory, prompt_template);
  table.reject_unknown_keys();
  return judge;
}

CompareThresholds read_compare(TableReader& table) {
  CompareThresholds thresholds;
  table.number("min_composite_gain", thresholds.min_composite_gain, non_negative);
  table.number("regression_composite_drop", thresholds.regression_composite_drop, non_negative);
  table.boolean("objective_drop_is_regression", thresholds.objective_drop_is_regression);
  table.reject_unknown_keys();
  return thresholds;
}

void validate(const CompareThresholds& thresholds) {
  auto check = [](double value, const char* name) {
    if (!std::isfinite(value) || value < 0.0) throw UsageError(std::string(name) + " must be a finite number >= 0");
  };
  check(thresholds.min_composite_gain, "min_composite_gain");
  check(thresholds.regression_composite_drop, "regression_composite_drop");
}

AntiGaming read_anti_gaming(TableReader& table) {
  AntiGaming settings;
  table.number("suppression_weight", settings.suppression_weight, non_negative);
  table.number("assertion_penalty", settings.assertion_penalty, non_negative);
  table.boolean("test_tampering_is_regression", settings.test_tampering_is_regression);
  table.boolean("fail_gate_on_tampering", settings.fail_gate_on_tampering);
  table.string_list("assertion_patterns", settings.assertion_patterns, [](const std::string& pattern) {
    const std::string error = util::regex_error(pattern);
    if (error.empty()) return error;
    // The pattern itself may be huge: quote at most its first 80 bytes.
    const std::string shown = pattern.size() > 80 ? pattern.substr(0, 80) + "..." : pattern;
    return "invalid regular expression \"" + shown + "\" (RE2 syntax): " + error;
  });
  table.string_list("test_file_globs", settings.test_file_globs);
  table.string_list("test_paths", settings.test_paths);
  table.string("private_test_patch", settings.private_test_patch);
  table.string_list("protected_config_files", settings.protected_config_files);
  table.string_list("allowed_references", settings.allowed_references, [](const std::string& reference) {
    return reference.empty() || reference == "*" ? std::string("an allowed reference must name something")
                                                 : std::string();
  });
  table.reject_unknown_keys();
  return settings;
}

std::string_view to_string(LoopMetric metric) noexcept {
  return metric == LoopMetric::composite ? "composite" : "pass_rate";
}

LoopSettings read_loop(TableReader& table) {
  LoopSettings settings;
  table.integer("max_iterations", settings.max_iterations, 1, 100000);
  table.integer("stuck_after", settings.stuck_after, 1, 100000);
  table.string("improver", settings.improver);
  table.choice("metric", settings.metric,
               {{"pass_rate", LoopMetric::pass_rate}, {"composite", LoopMetric::composite}});
  table.number("improver_timeout_seconds", settings.improver_timeout_seconds, positive);
  table.string_list("paths", settings.paths, [](const std::string& path) {
    const std::filesystem::path normal = std::filesystem::path(path).lexically_normal();
    if (normal.is_absolute() || normal.native().rfind("..", 0) == 0)
      return "\"" + path + "\" must be a relative path inside the source tree";
    return std::string();
  });
  table.reject_unknown_keys();
  return settings;
}

CacheSettings read_cache(TableReader& table, const std::filesystem::path& base_directory) {
  CacheSettings settings;
  table.boolean("enabled", settings.enabled);
  table.boolean("lint", settings.lint);
  table.boolean("compiler", settings.compiler);
  std::string directory;
  table.string("directory", directory);
  if (!directory.empty()) settings.directory = resolve(base_directory, directory);
  table.unsigned_integer("lint_max_megabytes", settings.lint_max_megabytes, 1);
  if (const toml::node* node = table.string("remote", settings.remote); node && !settings.remote.empty()) {
    try {
      remote::parse_address(settings.remote);
    } catch (const Error& error) {
      table.fail(*node, "remote", error.what());
    }
  }
  table.unsigned_integer("remote_timeout_milliseconds", settings.remote_timeout_milliseconds, 1);
  table.reject_unknown_keys();
  return settings;
}

SandboxSettings read_sandbox(TableReader& table, const std::filesystem::path& base_directory) {
  SandboxSettings settings;
  table.boolean("network", settings.network);
  table.boolean("require", settings.require);
  table.string_list("environment", settings.environment, [](const std::string& name) {
    const std::string body = !name.empty() && name.back() == '*' ? name.substr(0, name.size() - 1) : name;
    const bool valid = !body.empty() && (std::isalpha(static_cast<unsigned char>(body[0])) || body[0] == '_') &&
                       std::all_of(body.begin(), body.end(), [](char c) {
                         return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
                       });
    return valid ? std::string()
                 : "\"" + name + "\" is not a variable name (letters, digits and _, not starting with a digit; "
                   "a final * for a prefix)";
  });
  std::vector<std::string> paths;
  table.string_list("hidden", paths);
  for (const auto& path : paths) settings.hidden.push_back(util::absolute_clean(resolve(base_directory, path)));
  paths.clear();
  table.string_list("read_only", paths);
  for (const auto& path : paths) settings.read_only.push_back(util::absolute_clean(resolve(base_directory, path)));
  std::uint64_t memory = 0;
  if (const toml::node* node = table.node("memory_megabytes")) {
    table.unsigned_integer("memory_megabytes", memory, 0);
    if (memory > (std::uint64_t(1) << 30))  // a petabyte: beyond any machine, and bytes still fit 64 bits
      table.fail(*node, "memory_megabytes", "must be at most 1073741824, got " + std::to_string(memory));
    settings.memory_megabytes = memory;
  }
  table.unsigned_integer("cpu_seconds", settings.cpu_seconds, 0);
  table.unsigned_integer("processes", settings.processes, 0);
  table.reject_unknown_keys();
  return settings;
}

}  // namespace hydra::config
