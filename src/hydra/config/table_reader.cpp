#include <hydra/config/table_reader.hpp>

#include <cmath>

#include <nlohmann/json.hpp>

#include <hydra/error.hpp>

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

}  // namespace

toml::table parse_toml(std::string_view toml_text, const std::string& source_name) {
  try {
    return toml::parse(toml_text, source_name);
  } catch (const toml::parse_error& error) {
    throw InputError(source_name, std::string(error.description()), error.source().begin.line,
                     error.source().begin.column);
  }
}

TableReader::TableReader(const toml::table& table, std::string path, const std::string& source_name)
    : table_(table), path_(std::move(path)), source_name_(source_name) {}

std::string TableReader::path_of(std::string_view key) const {
  return path_.empty() ? std::string(key) : path_ + "." + std::string(key);
}

void TableReader::fail(const toml::source_region& region, const std::string& key_path,
                       const std::string& message) const {
  throw InputError(source_name_, key_path + ": " + message, region.begin.line, region.begin.column);
}

void TableReader::fail(const toml::node& node, std::string_view key, const std::string& message) const {
  fail(node.source(), path_of(key), message);
}

void TableReader::fail_table(const std::string& message) const { fail(table_.source(), path_, message); }

bool TableReader::number(std::string_view key, double& out, const NumberRange& range) {
  const toml::node* found = node(key);
  if (!found) return false;
  double value = 0;
  if (auto integer = found->as_integer()) {
    value = static_cast<double>(integer->get());
  } else if (auto floating = found->as_floating_point()) {
    value = floating->get();
  } else {
    fail(*found, key, "expected a number, got " + type_name(*found));
  }
  if (!std::isfinite(value)) fail(*found, key, "expected a finite number");
  const bool below = range.minimum_exclusive ? value <= range.minimum : value < range.minimum;
  if (below || (range.maximum && value > *range.maximum)) {
    std::string expected = range.minimum_exclusive ? "greater than " + number_text(range.minimum)
                                                   : "at least " + number_text(range.minimum);
    if (range.maximum) {
      expected = "between " + number_text(range.minimum) + " and " + number_text(*range.maximum);
    }
    fail(*found, key, "must be " + expected + ", got " + number_text(value));
  }
  out = value;
  return true;
}

void TableReader::unsigned_integer(std::string_view key, std::uint64_t& out, std::uint64_t minimum) {
  const toml::node* found = node(key);
  if (!found) return;
  auto integer = found->as_integer();
  if (!integer) fail(*found, key, "expected an integer, got " + type_name(*found));
  const std::int64_t value = integer->get();
  if (value < 0 || static_cast<std::uint64_t>(value) < minimum) {
    fail(*found, key, "must be at least " + std::to_string(minimum) + ", got " + std::to_string(value));
  }
  out = static_cast<std::uint64_t>(value);
}

void TableReader::integer(std::string_view key, int& out, int minimum, int maximum) {
  const toml::node* found = node(key);
  if (!found) return;
  auto integer = found->as_integer();
  if (!integer) fail(*found, key, "expected an integer, got " + type_name(*found));
  const std::int64_t value = integer->get();
  if (value < minimum || value > maximum) {
    fail(*found, key,
         "must be between " + std::to_string(minimum) + " and " + std::to_string(maximum) + ", got " +
             std::to_string(value));
  }
  out = static_cast<int>(value);
}

void TableReader::boolean(std::string_view key, bool& out) {
  const toml::node* found = node(key);
  if (!found) return;
  auto value = found->as_boolean();
  if (!value) fail(*found, key, "expected a boolean, got " + type_name(*found));
  out = value->get();
}

const toml::node* TableReader::string(std::string_view key, std::string& out) {
  const toml::node* found = node(key);
  if (!found) return nullptr;
  auto value = found->as_string();
  if (!value) fail(*found, key, "expected a string, got " + type_name(*found));
  out = value->get();
  return found;
}

void TableReader::string_list(std::string_view key, std::vector<std::string>& out, const ElementCheck& check) {
  const toml::node* found = node(key);
  if (!found) return;
  auto array = found->as_array();
  if (!array) fail(*found, key, "expected an array of strings, got " + type_name(*found));
  std::vector<std::string> values;
  for (std::size_t index = 0; index < array->size(); ++index) {
    const toml::node& element = *array->get(index);
    const std::string element_path = path_of(key) + "[" + std::to_string(index) + "]";
    auto text = element.as_string();
    if (!text) fail(element.source(), element_path, "expected a string, got " + type_name(element));
    if (text->get().empty()) fail(element.source(), element_path, "must not be empty");
    if (check) {
      const std::string problem = check(text->get());
      if (!problem.empty()) fail(element.source(), element_path, problem);
    }
    values.push_back(text->get());
  }
  out = std::move(values);
}

std::optional<TableReader> TableReader::table(std::string_view key) {
  const toml::node* found = node(key);
  if (!found) return std::nullopt;
  auto sub_table = found->as_table();
  if (!sub_table) fail(*found, key, "expected a table, got " + type_name(*found));
  return TableReader(*sub_table, path_of(key), source_name_);
}

const toml::node* TableReader::node(std::string_view key) {
  asked_.insert(std::string(key));
  return table_.get(key);
}

void TableReader::reject_unknown_keys() const {
  const toml::key* first_unknown = nullptr;
  for (const auto& [key, value] : table_) {
    (void)value;
    if (asked_.count(std::string(key.str()))) continue;
    auto position = [](const toml::key& k) { return std::make_pair(k.source().begin.line, k.source().begin.column); };
    if (!first_unknown || position(key) < position(*first_unknown)) first_unknown = &key;
  }
  if (first_unknown) fail(first_unknown->source(), path_of(first_unknown->str()), "unknown key");
}

}  // namespace hydra::config
