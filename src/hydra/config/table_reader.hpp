// Reading hydra.toml tables with errors that name the key and its
// line:column: the one reader that config::parse and the modules owning a
// table ([eval], [judge], [compare], [anti_gaming], [loop]) share.
#pragma once

#include <cstdint>
#include <functional>
#include <initializer_list>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <toml++/toml.h>

namespace hydra::config {

/// Parses TOML text; a syntax error becomes a hydra::InputError naming
/// `source_name` and its line:column.
toml::table parse_toml(std::string_view toml_text, const std::string& source_name);

/// Allowed range of a number-valued key.
struct NumberRange {
  double minimum = 0;
  bool minimum_exclusive = false;
  std::optional<double> maximum;
};

inline const NumberRange non_negative{0, false, std::nullopt};
inline const NumberRange positive{0, true, std::nullopt};
inline const NumberRange percent{0, false, 100.0};
inline const NumberRange ratio{0, false, 1.0};

/// Reads the keys of one TOML table, remembering which keys it asked for so
/// that every other key can be reported as unknown. Every error is a
/// hydra::InputError naming the key's full path ("scoring.weights.lint") and
/// its line:column. An absent key leaves its target as it is.
class TableReader {
 public:
  /// Checks one element of a string list: an error message, or "" when valid.
  using ElementCheck = std::function<std::string(const std::string& element)>;

  /// `path` is the table's own path ("" for the document's root).
  TableReader(const toml::table& table, std::string path, const std::string& source_name);

  /// The full path of `key` in this table ("scoring.weights" + "lint").
  std::string path_of(std::string_view key) const;

  /// Throws InputError for `key_path` at `region`.
  [[noreturn]] void fail(const toml::source_region& region, const std::string& key_path,
                         const std::string& message) const;
  /// Throws InputError for `key` of this table at `node`.
  [[noreturn]] void fail(const toml::node& node, std::string_view key, const std::string& message) const;
  /// Throws InputError for this table itself (e.g. "all weights are zero").
  [[noreturn]] void fail_table(const std::string& message) const;

  /// A number (integer or float) within `range`. Returns whether the key was present.
  bool number(std::string_view key, double& out, const NumberRange& range);
  /// An integer of at least `minimum`.
  void unsigned_integer(std::string_view key, std::uint64_t& out, std::uint64_t minimum);
  /// An integer in [minimum, maximum].
  void integer(std::string_view key, int& out, int minimum, int maximum);
  void boolean(std::string_view key, bool& out);
  /// Whether `key` is present and holds a table (it is then read with `table`).
  bool is_table(std::string_view key) const { return table_.get(key) && table_.get(key)->is_table(); }
  /// A string; returns the node (for follow-up checks) or nullptr when absent.
  const toml::node* string(std::string_view key, std::string& out);

  /// One of the strings in `choices`, mapped to its value.
  template <class Value>
  void choice(std::string_view key, Value& out, std::initializer_list<std::pair<std::string_view, Value>> choices) {
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
    fail(*node, key, "must be one of " + allowed + ", got \"" + text + "\"");
  }

  /// An array of non-empty strings, each passing `check` when one is given.
  void string_list(std::string_view key, std::vector<std::string>& out, const ElementCheck& check = {});

  /// A sub-table, or nullopt when absent.
  std::optional<TableReader> table(std::string_view key);

  /// The node of `key` (nullptr when absent), counted as asked for.
  const toml::node* node(std::string_view key);

  /// Throws for the first key (in source order) that no read asked for.
  void reject_unknown_keys() const;

 private:
  const toml::table& table_;
  std::string path_;
  const std::string& source_name_;
  std::set<std::string> asked_;
};

}  // namespace hydra::config
