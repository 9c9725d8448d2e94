// The listed tests' CTestTestfile.cmake (listed_tests.hpp).
#include <hydra/capture/runners/listed_tests.hpp>

#include <sstream>

#include <hydra/util/files.hpp>

namespace hydra::capture {
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

std::string number_text(const json& value) {
  if (value.is_number_integer() || value.is_number_unsigned()) return value.dump();
  std::ostringstream out;
  out.precision(17);
  out << value.get<double>();
  return out.str();
}

/// A scalar as CMake text; false when `value` is no scalar.
bool scalar_text(const json& value, std::string& text) {
  if (value.is_string()) text = value.get<std::string>();
  else if (value.is_boolean()) text = value.get<bool>() ? "ON" : "OFF";
  else if (value.is_number()) text = number_text(value);
  else return false;
  return true;
}

std::string join(const std::vector<std::string>& parts, const std::string& separator) {
  std::string text;
  for (std::size_t i = 0; i < parts.size(); ++i) text += (i ? separator : "") + parts[i];
  return text;
}

/// MEASUREMENT: [{"measurement": m, "value": v}] -> "m=v;...".
bool measurement_text(const json& value, std::string& text) {
  std::vector<std::string> parts;
  for (const auto& entry : value) {
    if (!entry.is_object() || !entry.contains("measurement") || !entry.contains("value")) return false;
    std::string name, measured;
    if (!scalar_text(entry["measurement"], name) || !scalar_text(entry["value"], measured)) return false;
    parts.push_back(name + "=" + measured);
  }
  text = join(parts, ";");
  return true;
}

/// TIMEOUT_AFTER_MATCH: {"timeout": t, "regex": [...]} -> "t;regex;...".
bool timeout_after_match_text(const json& value, std::string& text) {
  if (!value.is_object() || !value.contains("timeout") || !value["timeout"].is_number() ||
      !value.contains("regex") || !value["regex"].is_array())
    return false;
  std::vector<std::string> parts = {number_text(value["timeout"])};
  for (const auto& regex : value["regex"]) {
    if (!regex.is_string()) return false;
    parts.push_back(regex.get<std::string>());
  }
  text = join(parts, ";");
  return true;
}

/// RESOURCE_GROUPS: [{"requirements": [{".type": t, "slots": n}]}] -> "t:n,t:n;...".
bool resource_groups_text(const json& value, std::string& text) {
  std::vector<std::string> groups;
  for (const auto& group : value) {
    if (!group.is_object() || !group.contains("requirements") || !group["requirements"].is_array()) return false;
    std::vector<std::string> requirements;
    for (const auto& requirement : group["requirements"]) {
      if (!requirement.is_object() || !requirement.contains(".type") || !requirement[".type"].is_string() ||
          !requirement.contains("slots") || !requirement["slots"].is_number_integer())
        return false;
      requirements.push_back(requirement[".type"].get<std::string>() + ":" + requirement["slots"].dump());
    }
    groups.push_back(join(requirements, ","));
  }
  text = join(groups, ";");
  return true;
}

/// A listed property's value as CMake text; false when it has a shape
/// HydraScore cannot write back.
bool property_text(const std::string& name, const json& value, std::string& text) {
  if (name == "MEASUREMENT" && value.is_array()) return measurement_text(value, text);
  if (name == "TIMEOUT_AFTER_MATCH") return timeout_after_match_text(value, text);
  if (name == "RESOURCE_GROUPS" && value.is_array()) return resource_groups_text(value, text);
  if (value.is_array()) {
    std::vector<std::string> parts;
    for (const auto& element : value) {
      std::string part;
      if (!scalar_text(element, part)) return false;
      parts.push_back(part);
    }
    text = join(parts, ";");
    return true;
  }
  return scalar_text(value, text);
}

}  // namespace

std::string bracket_argument(const std::string& word) {
  // The first closing bracket of the text must be the one that ends it.
  std::string equals;
  while ((word + "]" + equals + "]").find("]" + equals + "]") != word.size()) equals += '=';
  // CMake drops a line break that directly follows the opening bracket.
  const std::string lead = !word.empty() && (word.front() == '\n' || word.front() == '\r') ? "\n" : "";
  return "[" + equals + "[" + lead + word + "]" + equals + "]";
}

std::string listed_tests_file(const json& listing, std::vector<std::string>& problems) {
  std::string text = "# The tests ctest listed, as HydraScore runs them.\n";
  if (!listing.is_object() || !listing.contains("tests") || !listing["tests"].is_array()) {
    problems.push_back("ctest's listing has no \"tests\" array");
    return text;
  }
  for (const auto& test : listing["tests"]) {
    if (!test.is_object() || !test.contains("name") || !test["name"].is_string()) {
      problems.push_back("ctest's listing holds a test without a name");
      continue;
    }
    const std::string name = test["name"].get<std::string>();
    std::string line = "add_test(" + bracket_argument(name);
    const json command = test.value("command", json::array());
    if (!command.is_array() || command.empty()) {
      // ctest lists no command when it finds no program (one that was not
      // built): a program of that name is found nowhere either, so ctest
      // runs the test as it did from the tree, "Unable to find executable".
      line += " " + bracket_argument(kNoListedProgram);
    } else {
      for (const auto& word : command) {
        if (!word.is_string()) {
          problems.push_back("ctest's listing gives test \"" + name + "\" a command word that is no string");
          continue;
        }
        line += " " + bracket_argument(word.get<std::string>());
      }
    }
    text += line + ")\n";
    const json properties = test.value("properties", json::array());
    if (!properties.is_array()) {
      problems.push_back("ctest's listing gives test \"" + name + "\" properties that are no array");
      continue;
    }
    std::string settings;
    for (const auto& property : properties) {
      if (!property.is_object() || !property.contains("name") || !property["name"].is_string() ||
          !property.contains("value")) {
        problems.push_back("ctest's listing gives test \"" + name + "\" a malformed property");
        continue;
      }
      const std::string property_name = property["name"].get<std::string>();
      std::string value;
      if (!property_text(property_name, property["value"], value)) {
        problems.push_back("ctest's listing gives test \"" + name + "\" property " + property_name +
                           " in a form HydraScore cannot run: " + property["value"].dump());
        continue;
      }
      settings += " " + bracket_argument(property_name) + " " + bracket_argument(value);
    }
    if (!settings.empty()) text += "set_tests_properties(" + bracket_argument(name) + " PROPERTIES" + settings + ")\n";
  }
  return text;
}

fs::path write_listed_tests(const fs::path& build_dir, const std::string& text) {
  const fs::path folder = build_dir / kListedTestsFolder;
  fs::remove_all(folder);  // a symbolic link is removed, never followed
  fs::create_directory(folder);
  util::write_file_atomic(folder / "CTestTestfile.cmake", text);
  return folder;
}

}  // namespace hydra::capture
