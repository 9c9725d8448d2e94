#include <hydra/eval/settings.hpp>

#include <regex>

#include <hydra/error.hpp>
#include <hydra/util/files.hpp>

namespace hydra::eval {
namespace {

std::filesystem::path resolve(const std::filesystem::path& base, const std::string& path) {
  std::filesystem::path result(path);
  if (result.is_relative() && !base.empty()) result = base / result;
  return result;
}

}  // namespace

EvalTables read_eval_tables(config::TableReader& root, const std::filesystem::path& base_directory) {
  EvalTables tables;
  if (auto eval_table = root.table("eval")) {
    config::TableReader& table = *eval_table;
    table.number("w_obj", tables.eval.objective_weight, config::positive);
    table.number("w_judge", tables.eval.judge_weight, config::non_negative);
    table.number("cost_weight", tables.eval.cost_weight, config::ratio);
    table.string_list("check_labels", tables.eval.check_labels);
    if (const toml::node* node = table.string("check_regex", tables.eval.check_regex)) {
      try {
        std::regex check(tables.eval.check_regex, std::regex::ECMAScript);
      } catch (const std::regex_error& error) {
        table.fail(*node, "check_regex", std::string("invalid regular expression: ") + error.what());
      }
    }
    table.reject_unknown_keys();
  }

  if (auto judge_table = root.table("judge")) {
    config::TableReader& table = *judge_table;
    table.string("command", tables.judge.command);
    table.number("timeout_seconds", tables.judge.timeout_seconds, config::positive);
    const toml::node* rubric = table.string("rubric", tables.judge.rubric);
    std::string rubric_file;
    const toml::node* rubric_file_node = table.string("rubric_file", rubric_file);
    if (!rubric_file.empty()) {
      if (rubric != nullptr) table.fail(*rubric_file_node, "rubric_file", "give either rubric or rubric_file, not both");
      tables.judge.rubric = util::read_file(resolve(base_directory, rubric_file));
    }
    std::string prompt_template;
    table.string("template", prompt_template);
    if (!prompt_template.empty()) tables.judge.prompt_template = resolve(base_directory, prompt_template);
    table.reject_unknown_keys();
  }
  return tables;
}

EvalTables parse_eval_tables(std::string_view toml_text, const std::string& source_name,
                             const std::filesystem::path& base_directory) {
  const toml::table document = config::parse_toml(toml_text, source_name);
  config::TableReader root(document, "", source_name);
  return read_eval_tables(root, base_directory);
}

EvalTables load_eval_tables(const std::filesystem::path& file) {
  return parse_eval_tables(util::read_file(file), file.string(), file.parent_path());
}

}  // namespace hydra::eval
