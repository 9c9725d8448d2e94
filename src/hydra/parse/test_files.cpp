// test-files.json (test_files.hpp).
#include <hydra/parse/test_files.hpp>

#include <hydra/error.hpp>
#include <hydra/parse/json_error.hpp>
#include <hydra/util/files.hpp>

namespace hydra::parse {

using nlohmann::json;

json TestFiles::to_json() const {
  json value = {{"files", files}, {"code", code}, {"tests", json::object()}};
  for (const auto& [name, depends_on] : by_test) value["tests"][name] = depends_on;
  if (!codemodel_problem.empty()) value["codemodel_problem"] = codemodel_problem;
  return value;
}

TestFiles parse_test_files(std::string_view text, const std::string& source_name) {
  const json value = parse_json_document(text, source_name);
  const auto bad = [&](const std::string& what) { return InputError(source_name, what); };
  if (!value.is_object() || !value.contains("files") || !value["files"].is_array() || !value.contains("tests") ||
      !value["tests"].is_object())
    throw bad("expected an object with \"files\" (array) and \"tests\" (object)");
  TestFiles result;
  for (const json& file : value["files"]) {
    if (!file.is_string()) throw bad("/files: expected strings");
    result.files.insert(file.get<std::string>());
  }
  if (const auto code = value.find("code"); code != value.end()) {  // absent in older captures
    if (!code->is_array()) throw bad("/code: expected an array");
    for (const json& file : *code) {
      if (!file.is_string()) throw bad("/code: expected strings");
      result.code.insert(file.get<std::string>());
    }
  }
  for (const auto& [name, list] : value["tests"].items()) {
    if (!list.is_array()) throw bad("/tests/" + name + ": expected an array");
    auto& depends_on = result.by_test[name];
    for (const json& file : list) {
      if (!file.is_string()) throw bad("/tests/" + name + ": expected strings");
      depends_on.insert(file.get<std::string>());
    }
  }
  if (const auto problem = value.find("codemodel_problem"); problem != value.end()) {
    if (!problem->is_string()) throw bad("/codemodel_problem: expected a string");
    result.codemodel_problem = problem->get<std::string>();
  }
  return result;
}

TestFiles parse_test_files_file(const std::filesystem::path& file) {
  return parse_test_files(util::read_file(file), file.string());
}

}  // namespace hydra::parse
