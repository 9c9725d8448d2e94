#include <hydra/eval/settings.hpp>

#include <cmath>
#include <regex>

#include <toml++/toml.h>

#include <hydra/error.hpp>
#include <hydra/util/files.hpp>

namespace hydra::eval {
namespace {

/// Reports problems in one table with the file name and the node's line:column.
class TableReader {
 public:
  TableReader(const toml::table& table, std::string table_name, const std::string& source_name)
      : table_(table), table_name_(std::move(table_name)), source_name_(source_name) {}

  [[noreturn]] void fail(const toml::node& node, const std::string& key,
                         const std::string& message) const {
    const toml::source_region& where = node.source();
    throw InputError(source_name_, table_name_ + "." + key + ": " + message, where.begin.line,
                     where.begin.column);
  }

  void reject_unknown_keys(std::initializer_list<std::string_view> known) const {
    for (const auto& [key, node] : table_) {
      bool is_known = false;
      for (std::string_view name : known) is_known = is_known || key.str() == name;
      if (!is_known) {
        // Point at the key itself, not its value.
        throw InputError(source_name_, table_name_ + "." + std::string(key.str()) + ": unknown key",
                         key.source().begin.line, key.source().begin.column);
      }
    }
  }

  /// A finite number in [minimum, maximum]; `exclusive_minimum` excludes it.
  void read_number(std::string_view key, double& target, double minimum, double maximum,
                   bool exclusive_minimum = false) const {
    const toml::node* node = table_.get(key);
    if (node == nullptr) return;
    const std::string name(key);
    if (!node->is_number()) fail(*node, name, "expected a number");
    const double value = node->value<double>().value_or(std::nan(""));
    const bool too_small = exclusive_minimum ? !(value > minimum) : !(value >= minimum);
    if (!std::isfinite(value) || too_small || value > maximum) {
      std::string range = std::string(exclusive_minimum ? "(" : "[") + format(minimum) + ", " +
                          (std::isinf(maximum) ? std::string("inf)") : format(maximum) + "]");
      fail(*node, name, "must be a finite number in " + range);
    }
    target = value;
  }

  void read_string(std::string_view key, std::string& target) const {
    const toml::node* node = table_.get(key);
    if (node == nullptr) return;
    if (!node->is_string()) fail(*node, std::string(key), "expected a string");
    target = node->value<std::string>().value_or("");
  }

  void read_string_list(std::string_view key, std::vector<std::string>& target) const {
    const toml::node* node = table_.get(key);
    if (node == nullptr) return;
    const toml::array* array = node->as_array();
    if (array == nullptr) fail(*node, std::string(key), "expected an array of strings");
    target.clear();
    for (const toml::node& element : *array) {
      if (!element.is_string()) fail(element, std::string(key), "expected an array of strings");
      target.push_back(element.value<std::string>().value_or(""));
    }
  }

  const toml::node* get(std::string_view key) const { return table_.get(key); }

 private:
  static std::string format(double value) {
    std::string text = std::to_string(value);
    text.erase(text.find_last_not_of('0') + 1);
    if (!text.empty() && text.back() == '.') text.pop_back();
    return text;
  }

  const toml::table& table_;
  std::string table_name_;
  const std::string& source_name_;
};

const toml::table* sub_table(const toml::table& root, std::string_view name,
                             const std::string& source_name) {
  const toml::node* node = root.get(name);
  if (node == nullptr) return nullptr;
  const toml::table* table = node->as_table();
  if (table == nullptr) {
    const toml::source_region& where = node->source();
    throw InputError(source_name, std::string(name) + ": expected a table", where.begin.line,
                     where.begin.column);
  }
  return table;
}

std::filesystem::path resolve(const std::filesystem::path& base, const std::string& path) {
  std::filesystem::path result(path);
  if (result.is_relative() && !base.empty()) result = base / result;
  return result;
}

}  // namespace

EvalTables parse_eval_tables(std::string_view toml_text, const std::string& source_name,
                             const std::filesystem::path& base_directory) {
  toml::table root;
  try {
    root = toml::parse(toml_text, source_name);
  } catch (const toml::parse_error& error) {
    throw InputError(source_name, std::string(error.description()), error.source().begin.line,
                     error.source().begin.column);
  }

  EvalTables tables;
  if (const toml::table* eval_table = sub_table(root, "eval", source_name)) {
    TableReader reader(*eval_table, "eval", source_name);
    reader.reject_unknown_keys({"w_obj", "w_judge", "cost_weight", "check_labels", "check_regex"});
    const double unbounded = INFINITY;
    reader.read_number("w_obj", tables.eval.objective_weight, 0.0, unbounded, /*exclusive_minimum=*/true);
    reader.read_number("w_judge", tables.eval.judge_weight, 0.0, unbounded);
    reader.read_number("cost_weight", tables.eval.cost_weight, 0.0, 1.0);
    reader.read_string_list("check_labels", tables.eval.check_labels);
    reader.read_string("check_regex", tables.eval.check_regex);
    if (!tables.eval.check_regex.empty()) {
      try {
        std::regex check(tables.eval.check_regex, std::regex::ECMAScript);
      } catch (const std::regex_error& error) {
        reader.fail(*reader.get("check_regex"), "check_regex",
                    std::string("invalid regular expression: ") + error.what());
      }
    }
  }

  if (const toml::table* judge_table = sub_table(root, "judge", source_name)) {
    TableReader reader(*judge_table, "judge", source_name);
    reader.reject_unknown_keys({"command", "timeout_seconds", "rubric", "rubric_file", "template"});
    reader.read_string("command", tables.judge.command);
    reader.read_number("timeout_seconds", tables.judge.timeout_seconds, 0.0, INFINITY,
                       /*exclusive_minimum=*/true);
    reader.read_string("rubric", tables.judge.rubric);
    std::string rubric_file;
    reader.read_string("rubric_file", rubric_file);
    if (!rubric_file.empty()) {
      if (reader.get("rubric") != nullptr)
        reader.fail(*reader.get("rubric_file"), "rubric_file", "give either rubric or rubric_file, not both");
      tables.judge.rubric = util::read_file(resolve(base_directory, rubric_file));
    }
    std::string prompt_template;
    reader.read_string("template", prompt_template);
    if (!prompt_template.empty()) tables.judge.prompt_template = resolve(base_directory, prompt_template);
  }
  return tables;
}

EvalTables load_eval_tables(const std::filesystem::path& file) {
  return parse_eval_tables(util::read_file(file), file.string(), file.parent_path());
}

}  // namespace hydra::eval
