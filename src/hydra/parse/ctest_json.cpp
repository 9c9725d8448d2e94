#include <hydra/parse/ctest_json.hpp>

#include <algorithm>
#include <limits>
#include <unordered_map>

#include <nlohmann/json.hpp>

#include <hydra/error.hpp>
#include <hydra/parse/json_error.hpp>
#include <hydra/util/files.hpp>

namespace hydra::parse {
namespace {

using nlohmann::json;

void sort_unique(std::vector<std::string>& values) {
  std::sort(values.begin(), values.end());
  values.erase(std::unique(values.begin(), values.end()), values.end());
}

class DefinitionReader {
 public:
  explicit DefinitionReader(const std::string& source_name) : source_name_(source_name) {}

  std::vector<model::TestDefinition> read(const json& document) const {
    // Every value is type-checked before it is read: the file may be anything.
    const auto kind = document.is_object() ? document.find("kind") : document.end();
    if (!document.is_object() || kind == document.end() || !kind->is_string() || *kind != "ctestInfo")
      fail(std::string(document.is_object() && kind != document.end() ? "/kind: " : "") +
           "not `ctest --show-only=json-v1` output (expected an object with \"kind\": \"ctestInfo\")");
    const auto version = document.find("version");
    if (version == document.end() || !version->is_object() || !version->contains("major") ||
        !(*version)["major"].is_number_integer() || (*version)["major"] != 1)
      fail("/version/major: unsupported ctest JSON version (expected json-v1, \"version\": {\"major\": 1})");
    std::vector<model::TestDefinition> definitions;
    const auto tests = document.find("tests");
    if (tests == document.end()) return definitions;
    if (!tests->is_array()) fail("\"tests\" must be an array");
    definitions.reserve(tests->size());
    for (const json& test : *tests) definitions.push_back(read_test(test));
    return definitions;
  }

 private:
  [[noreturn]] void fail(const std::string& message) const { throw InputError(source_name_, message); }

  std::vector<std::string> strings(const json& value, const std::string& what) const {
    std::vector<std::string> out;
    if (value.is_string()) {
      out.push_back(value.get<std::string>());
      return out;
    }
    if (!value.is_array()) fail(what + " must be a string or an array of strings");
    for (const json& item : value) {
      if (!item.is_string()) fail(what + " must contain only strings");
      out.push_back(item.get<std::string>());
    }
    return out;
  }

  bool boolean(const json& value, const std::string& what) const {
    if (value.is_boolean()) return value.get<bool>();
    // CMake writes booleans, but a property set to "ON"/"1" is a string.
    if (value.is_string()) {
      std::string text = value.get<std::string>();
      std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return std::toupper(c); });
      return text == "1" || text == "ON" || text == "YES" || text == "TRUE" || text == "Y";
    }
    if (value.is_number_integer()) return value.get<long long>() != 0;
    fail(what + " must be a boolean");
  }

  model::TestDefinition read_test(const json& test) const {
    if (!test.is_object() || !test.contains("name") || !test["name"].is_string())
      fail("a test entry without a \"name\" string");
    model::TestDefinition definition;
    definition.name = test["name"].get<std::string>();
    const std::string where = "test \"" + definition.name + "\": ";
    if (const auto command = test.find("command"); command != test.end())
      definition.command = strings(*command, where + "\"command\"");
    const auto properties = test.find("properties");
    if (properties == test.end()) return definition;
    if (!properties->is_array()) fail(where + "\"properties\" must be an array");
    for (const json& property : *properties) {
      if (!property.is_object() || !property.contains("name") || !property["name"].is_string() ||
          !property.contains("value"))
        fail(where + "a property without \"name\" and \"value\"");
      const std::string name = property["name"].get<std::string>();
      const json& value = property["value"];
      definition.properties[name] = value.dump();
      const std::string what = where + name;
      if (name == "LABELS") {
        definition.labels = strings(value, what);
        sort_unique(definition.labels);
      } else if (name == "DISABLED") {
        definition.disabled = boolean(value, what);
      } else if (name == "WILL_FAIL") {
        definition.will_fail = boolean(value, what);
      } else if (name == "SKIP_RETURN_CODE") {
        if (!value.is_number_integer() || value < std::numeric_limits<int>::min() ||
            value > std::numeric_limits<int>::max())
          fail(what + " must be an integer (an exit code)");
        definition.skip_return_code = value.get<int>();
      } else if (name == "SKIP_REGULAR_EXPRESSION") {
        definition.skip_regular_expression = strings(value, what);
      } else if (name == "PASS_REGULAR_EXPRESSION") {
        definition.pass_regular_expression = strings(value, what);
      } else if (name == "FAIL_REGULAR_EXPRESSION") {
        definition.fail_regular_expression = strings(value, what);
      } else if (name == "WORKING_DIRECTORY") {
        if (!value.is_string()) fail(what + " must be a string");
        definition.working_directory = value.get<std::string>();
      }
    }
    return definition;
  }

  const std::string& source_name_;
};

}  // namespace

std::vector<model::TestDefinition> parse_ctest_json(std::string_view json_text,
                                                    const std::string& source_name) {
  return DefinitionReader(source_name).read(parse_json_document(json_text, source_name));
}

std::vector<model::TestDefinition> parse_ctest_json_file(const std::filesystem::path& file) {
  return parse_ctest_json(util::read_file(file), file.string());
}

void apply_labels(std::vector<model::TestCase>& tests,
                  const std::vector<model::TestDefinition>& definitions) {
  std::unordered_map<std::string_view, const model::TestDefinition*> by_name;
  by_name.reserve(definitions.size());
  for (const auto& definition : definitions) by_name.emplace(definition.name, &definition);
  for (auto& test : tests) {
    if (test.suite != "ctest") continue;
    const auto found = by_name.find(test.name);
    if (found == by_name.end() || found->second->labels.empty()) continue;
    test.labels.insert(test.labels.end(), found->second->labels.begin(), found->second->labels.end());
    sort_unique(test.labels);
  }
}

}  // namespace hydra::parse
