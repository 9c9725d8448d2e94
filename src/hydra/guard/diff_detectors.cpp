// The detectors that read the change's diff: protected configuration edits,
// added lint suppressions, removed assertions, tests no longer built (code
// that is no test reaching into a test framework: harness_reach.cpp).
#include <hydra/guard/guard.hpp>

#include <algorithm>
#include <cctype>
#include <iterator>
#include <map>
#include <set>
#include <unordered_map>

#include <hydra/error.hpp>
#include <hydra/guard/diff_text.hpp>
#include <hydra/util/path_pattern.hpp>
#include <hydra/util/regex.hpp>
#include <hydra/util/text.hpp>

namespace hydra::guard {
using util::ends_with;
using diff_text::is_c_family;
using diff_text::trimmed;
using util::first_match;
namespace {

// RE2 (util::Regex): a candidate's diff may hold lines of any length, which
// std::regex matched by recursion.
using regex = util::Regex;
constexpr bool case_sensitive = false;
constexpr bool ignore_case = true;
using Groups = std::vector<std::string_view>;

bool regex_search(std::string_view text, const regex& pattern) { return pattern.search(text); }
bool regex_search(std::string_view text, Groups& groups, const regex& pattern) {
  return pattern.search(text, groups);
}

std::string_view file_name(std::string_view path) {
  const auto slash = path.rfind('/');
  return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

std::string lower(std::string_view text) {
  std::string out(text);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

/// Prose formats: text there about suppression comments or flags suppresses nothing.
bool is_document(std::string_view path) {
  const std::string name = lower(file_name(path));
  return ends_with(name, ".md") || ends_with(name, ".markdown") || ends_with(name, ".rst") ||
         ends_with(name, ".adoc");
}

bool is_cmake_file(std::string_view path) {
  const std::string_view name = file_name(path);
  return name == "CMakeLists.txt" || ends_with(name, ".cmake") || ends_with(name, ".cmake.in");
}

/// A CMake line without its comment ("#" outside a quoted argument, which
/// also starts a bracket comment "#[[").
std::string_view without_cmake_comment(std::string_view text) {
  bool quoted = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (quoted && c == '\\') {
      ++i;
    } else if (c == '"') {
      quoted = !quoted;
    } else if (c == '#' && !quoted) {
      return text.substr(0, i);
    }
  }
  return text;
}

/// CMake's false constants (if() and option() semantics), case-insensitive.
bool is_cmake_false(std::string_view value) {
  std::string upper(value);
  if (upper.size() >= 2 && upper.front() == '"' && upper.back() == '"')
    upper = upper.substr(1, upper.size() - 2);
  std::transform(upper.begin(), upper.end(), upper.begin(),
                 [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
  return upper.empty() || upper == "OFF" || upper == "FALSE" || upper == "NO" || upper == "N" ||
         upper == "0" || upper == "IGNORE" || upper == "NOTFOUND" || ends_with(upper, "-NOTFOUND");
}

bool names_tests(std::string_view name) { return lower(name).find("test") != std::string::npos; }

/// Multiset of whitespace-stripped texts.
using TextCounts = std::unordered_map<std::string, std::size_t>;

TextCounts stripped_counts(const std::vector<parse::ChangedLine>& lines) {
  TextCounts counts;
  for (const parse::ChangedLine& line : lines) ++counts[parse::strip_whitespace(line.text)];
  return counts;
}

/// Takes one `text` out of `counts`; false when there is none left.
bool take(TextCounts& counts, const std::string& text) {
  const auto found = counts.find(text);
  if (found == counts.end() || found->second == 0) return false;
  --found->second;
  return true;
}

std::string location(std::string_view path, std::uint64_t line) {
  return std::string(path) + ":" + std::to_string(line);
}

}  // namespace

// ---- protected configuration -------------------------------------------------

std::vector<ConfigEdit> find_config_edits(const Settings& settings, const parse::DiffLines& diff) {
  std::vector<ConfigEdit> edits;
  for (const parse::FileLines& file : diff.files) {
    const std::string* pattern = first_match(settings.protected_config_files, file.path);
    if (pattern == nullptr && file.old_path != file.path)
      pattern = first_match(settings.protected_config_files, file.old_path);
    // Always protected, whatever the settings: the files that change how git
    // writes the tree it checks out (attributes: ident, eol, encodings,
    // filters) or what it checks out with it (submodules), so that the tree
    // built could differ from the bytes the diff shows and apply merges.
    static const std::string repository_settings = "repository settings (.gitattributes, .gitmodules)";
    const auto is_repository_setting = [](const std::string& path) {
      const std::string name = path.substr(path.rfind('/') == std::string::npos ? 0 : path.rfind('/') + 1);
      return name == ".gitattributes" || name == ".gitmodules";
    };
    if (pattern == nullptr && (is_repository_setting(file.path) || is_repository_setting(file.old_path)))
      pattern = &repository_settings;
    // How a user configures the project where the scorer's configure does
    // not look: a preset can select other sources, options or a toolchain
    // than the tree HydraScore built and tested.
    static const std::string presets = "configure presets the scorer does not use (CMakePresets.json, CMakeUserPresets.json)";
    const auto is_preset = [](const std::string& path) {
      const std::string name = path.substr(path.rfind('/') == std::string::npos ? 0 : path.rfind('/') + 1);
      return name == "CMakePresets.json" || name == "CMakeUserPresets.json";
    };
    if (pattern == nullptr && (is_preset(file.path) || is_preset(file.old_path))) pattern = &presets;
    // Object code added or changed by the change: linked into the build, it
    // is code that neither lint, the reference checks nor a reviewer reads.
    static const std::string object_code = "object code (.o, .obj, .a, .lib, .so, .dylib, .dll)";
    const auto is_object_code = [](const std::string& path) {
      static const regex named(R"((\.(o|obj|a|lib|so|dylib|dll)|\.so\.[0-9.]+)$)", case_sensitive);
      return named.search(path);
    };
    if (pattern == nullptr && !file.deleted && file.binary && is_object_code(file.path)) pattern = &object_code;
    if (pattern == nullptr) continue;
    std::string change = "modified";
    if (file.deleted) change = "deleted";
    else if (file.renamed) change = "renamed from " + file.old_path;
    else if (file.created) change = "created";
    edits.push_back(ConfigEdit{file.path, change, *pattern});
  }
  return edits;
}

// ---- lint suppressions -------------------------------------------------------

std::optional<std::string> suppression_kind(std::string_view path, std::string_view text, bool compiled) {
  if (!compiled && is_document(path)) return std::nullopt;
  // clang-tidy honours the marker wherever it stands, glued to a word too
  // ("fooNOLINTBEGIN"), unless a letter or digit follows it.
  static const regex nolint(R"(NOLINT(NEXTLINE|BEGIN|END)?([^A-Za-z0-9]|$))", case_sensitive);
  // A GNU line marker ("# 12 \"file\" 3") or a #line directive: the lines
  // after it are named after another file (a system header, with flag 3).
  static const regex line_marker(R"(^\s*#\s*(line\s+)?[0-9]+(\s|$))", case_sensitive);
  static const regex pragma_ignored(
      R"(#\s*pragma\s+(GCC|clang)\s+diagnostic\s+ignored|_Pragma\s*\(\s*"\s*(GCC|clang)\s+diagnostic\s+ignored)",
      case_sensitive);
  static const regex pragma_warning_disable(
      R"(#\s*pragma\s+warning\s*\(\s*disable|__pragma\s*\(\s*warning\s*\(\s*disable)", case_sensitive);
  static const regex pragma_system_header(R"(#\s*pragma\s+(GCC|clang)\s+system_header)", case_sensitive);
  static const regex no_warning_flag(R"((^|[\s"'(;=,:>])-Wno-[A-Za-z0-9])", case_sensitive);
  static const regex no_warnings_flag(R"((^|[\s"'(;,:>])-w($|[\s"');,>]))", case_sensitive);
  static const regex flags_context(R"(FLAGS|COMPILE_OPTIONS|add_compile|compile_options)", ignore_case);
  static const regex msvc_disable(R"((^|[\s"'(;,:>])[/-]wd[0-9]{4})", case_sensitive);
  static const regex msvc_level_zero(R"((^|[\s"'(;,:>])[/-]W0($|[\s"');,>]))", case_sensitive);
  // A SYSTEM include directory: the compiler reports nothing in its headers.
  static const regex system_keyword(R"((^|[\s(])SYSTEM($|[\s)]))", case_sensitive);
  static const regex isystem_flag(R"((^|[\s"'(;,:>])-(isystem|idirafter|cxx-isystem))", case_sensitive);

  // A cheap filter first: most changed lines hold none of these.
  const bool candidate = text.find("NOLINT") != std::string_view::npos ||  // and its variants
                         text.find("ragma") != std::string_view::npos ||
                         text.find("-W") != std::string_view::npos ||
                         text.find("-w") != std::string_view::npos ||
                         text.find("/w") != std::string_view::npos ||
                         text.find("/W") != std::string_view::npos ||
                         text.find("SYSTEM") != std::string_view::npos ||
                         text.find("system") != std::string_view::npos ||
                         text.find("idirafter") != std::string_view::npos ||
                         text.find('#') != std::string_view::npos;
  if (!candidate) return std::nullopt;
  const std::string_view line = text;
  Groups match;
  if (regex_search(line, match, nolint)) {
    // The END marker closes a BEGIN region: the region is one suppression.
    if (match[1] != "END") return "NOLINT" + std::string(match[1]);
  }
  if ((compiled || is_c_family(path)) && regex_search(line, line_marker)) return std::string("line marker");
  if (regex_search(line, pragma_ignored)) return std::string("pragma diagnostic ignored");
  if (regex_search(line, pragma_warning_disable)) return std::string("pragma warning disable");
  if (regex_search(line, pragma_system_header)) return std::string("pragma system_header");
  if (regex_search(line, no_warning_flag)) return std::string("-Wno-*");
  if (regex_search(line, no_warnings_flag) &&
      (is_cmake_file(path) || regex_search(line, flags_context)))
    return std::string("-w");
  if (regex_search(line, msvc_disable)) return std::string("MSVC /wd");
  if (regex_search(line, msvc_level_zero)) return std::string("MSVC /W0");
  if ((is_cmake_file(path) && regex_search(line, system_keyword)) ||
      (regex_search(line, isystem_flag) && (is_cmake_file(path) || regex_search(line, flags_context))))
    return std::string("SYSTEM include");
  return std::nullopt;
}

namespace {

/// The added suppressions of `diff`; with `region_ends`, also the added
/// NOLINTEND lines (kind "NOLINTEND"), which close a region but suppress
/// nothing by themselves.
std::vector<Suppression> added_suppressions(const parse::DiffLines& diff, bool region_ends,
                                           const std::set<std::string>& compiled) {
  static const regex nolint_end(R"(NOLINTEND([^A-Za-z0-9]|$))", case_sensitive);
  std::vector<Suppression> found;
  for (const parse::FileLines& file : diff.files) {
    const bool code = compiled.count(file.path) > 0;
    if (file.added.empty() || (!code && is_document(file.path))) continue;
    TextCounts removed = stripped_counts(file.removed);
    for (const parse::ChangedLine& line : file.added) {
      auto kind = suppression_kind(file.path, line.text, code);
      if (!kind && region_ends && line.text.find("NOLINTEND") != std::string::npos &&
          regex_search(line.text, nolint_end))
        kind = "NOLINTEND";
      if (!kind) continue;
      if (take(removed, parse::strip_whitespace(line.text))) continue;  // moved or re-indented
      found.push_back(Suppression{file.path, line.number, trimmed(line.text), std::move(*kind)});
    }
  }
  return found;
}

}  // namespace

std::vector<Suppression> find_added_suppressions(const parse::DiffLines& diff, const std::set<std::string>& compiled) {
  return added_suppressions(diff, false, compiled);
}

std::vector<Suppression> find_added_suppression_markers(const parse::DiffLines& diff,
                                                        const std::set<std::string>& compiled) {
  return added_suppressions(diff, true, compiled);
}

// ---- removed assertions ------------------------------------------------------

bool is_assertion_line(std::string_view text) {
  // C and C++ (Catch2, doctest, GoogleTest, Boost.Test, CppUnit, Unity, Qt
  // Test, assert, static_assert), JUnit-style assertX(...), jest's expect(...),
  // Python's assert statement and Rust's assertion macros.
  static const regex call(
      R"(\b(REQUIRE|CHECK|REQUIRE_[A-Z_]+|CHECK_[A-Z_]+|EXPECT_[A-Z_]+|ASSERT_[A-Z_]+|)"
      R"(static_assert|assert|assert[A-Z]\w*|BOOST_(TEST|CHECK|REQUIRE|WARN)[A-Z_]*|)"
      R"(CPPUNIT_ASSERT[A-Z_]*|TEST_ASSERT[A-Z_]*|QCOMPARE|QVERIFY[A-Z0-9_]*|expect)\s*\()",
      case_sensitive);
  static const regex python_assert(R"(^\s*assert\s)", case_sensitive);
  // Rust's assertion macros (assert!, assert_eq!, assert_ne!, debug_ forms).
  static const regex rust_assert(R"(\b(debug_)?assert(_eq|_ne)?!\s*[(\[{])", case_sensitive);
  return regex_search(text, call) || regex_search(text, python_assert) || regex_search(text, rust_assert);
}

std::vector<RemovedAssertion> find_removed_assertions(const Settings& settings,
                                                      const parse::DiffLines& diff) {
  std::vector<regex> extra;
  for (const std::string& pattern : settings.assertion_patterns) {
    extra.emplace_back(pattern, case_sensitive);
    if (!extra.back().ok())  // config::load rejects it first
      throw Error("anti_gaming.assertion_patterns: invalid regular expression \"" + pattern +
                  "\": " + extra.back().error());
  }
  const auto is_assertion = [&](const std::string& text) {
    if (is_assertion_line(text)) return true;
    return std::any_of(extra.begin(), extra.end(),
                       [&](const regex& pattern) { return regex_search(text, pattern); });
  };

  std::vector<RemovedAssertion> found;
  for (const parse::FileLines& file : diff.files) {
    if (file.removed.empty()) continue;
    if (first_match(settings.test_file_globs, file.old_path) == nullptr &&
        first_match(settings.test_file_globs, file.path) == nullptr)
      continue;
    TextCounts added = stripped_counts(file.added);
    for (const parse::ChangedLine& line : file.removed) {
      if (!is_assertion(line.text)) continue;
      if (take(added, parse::strip_whitespace(line.text))) continue;  // moved or re-indented
      found.push_back(RemovedAssertion{file.path, line.number, trimmed(line.text)});
    }
  }
  return found;
}

// ---- tests not built ---------------------------------------------------------

std::vector<std::string> find_tests_not_built(const parse::DiffLines& diff,
                                              std::size_t baseline_test_count,
                                              std::size_t candidate_test_count) {
  static const regex option_call(
      R"(^\s*option\s*\(\s*([A-Za-z0-9_.+-]+)\s+"(?:[^"\\]|\\.)*"\s*([^\s)]*)\s*\))", ignore_case);
  static const regex set_call(R"(^\s*set\s*\(\s*([A-Za-z0-9_.+-]+)\s+("[^"]*"|[^\s)]+))",
                              ignore_case);
  static const regex if_false(R"(^\s*(else)?if\s*\(\s*(FALSE|OFF|NO|N|0|IGNORE|NOTFOUND)\s*\))",
                              ignore_case);
  static const regex define_off(R"(-D\s*([A-Za-z0-9_]+)(:BOOL)?=(OFF|FALSE|NO|0)\b)", ignore_case);
  static const regex preset_off(
      R"re("([A-Za-z0-9_]+)"\s*:\s*(false|"(OFF|FALSE|NO|0)"))re", ignore_case);

  struct Construct {
    const char* what;
    regex pattern;
  };
  static const std::vector<Construct> constructs = [] {
    std::vector<Construct> list;  // (built in place: a Regex is not copyable)
    list.push_back({"enable_testing() removed", regex(R"((^|[^A-Za-z0-9_])enable_testing\s*\()", ignore_case)});
    list.push_back({"add_test() removed", regex(R"((^|[^A-Za-z0-9_])add_test\s*\()", ignore_case)});
    list.push_back({"include(CTest) removed",
                    regex(R"((^|[^A-Za-z0-9_])include\s*\(\s*CTest\s*[)\s])", ignore_case)});
    list.push_back({"add_subdirectory() of tests removed",
                    regex(R"((^|[^A-Za-z0-9_])add_subdirectory\s*\(\s*"?[^\s")]*test)", ignore_case)});
    return list;
  }();

  std::vector<std::string> evidence;

  struct OptionLine {
    std::string path;
    std::uint64_t line = 0;
    std::string text;
    std::string value;
  };
  std::map<std::string, OptionLine> removed_options;  // sorted: deterministic evidence order
  std::map<std::string, OptionLine> added_options;
  struct ConstructLine {
    std::string path;
    std::uint64_t line = 0;
    std::string text;
  };
  std::vector<std::vector<ConstructLine>> removed_constructs(constructs.size());
  std::vector<TextCounts> added_constructs(constructs.size());
  std::vector<std::size_t> added_construct_count(constructs.size(), 0);

  for (const parse::FileLines& file : diff.files) {
    if (is_document(file.path) || file.binary) continue;
    const bool cmake = is_cmake_file(file.path) || is_cmake_file(file.old_path);
    const bool presets = ends_with(file_name(file.path), "Presets.json");
    TextCounts removed_texts = stripped_counts(file.removed);

    for (const parse::ChangedLine& line : file.added) {
      const std::string stripped = parse::strip_whitespace(line.text);
      const bool unchanged = removed_texts.count(stripped) > 0 && removed_texts[stripped] > 0;
      Groups match;
      if (!unchanged) {
        if (line.text.find("-D") != std::string::npos &&
            regex_search(line.text, match, define_off) && names_tests(std::string(match[1])))
          evidence.push_back(location(file.path, line.number) + ": " + std::string(match[1]) +
                             " set to " + std::string(match[3]) + ": " + trimmed(line.text));
        if (presets && regex_search(line.text, match, preset_off) && names_tests(std::string(match[1])))
          evidence.push_back(location(file.path, line.number) + ": preset sets " + std::string(match[1]) +
                             " to " + std::string(match[2]) + ": " + trimmed(line.text));
      }
      if (!cmake) continue;
      const std::string code(without_cmake_comment(line.text));
      if (regex_search(code, match, option_call))
        added_options[std::string(match[1])] =
            OptionLine{file.path, line.number, trimmed(line.text), std::string(match[2])};
      for (std::size_t i = 0; i < constructs.size(); ++i) {
        if (!regex_search(code, constructs[i].pattern)) continue;
        ++added_constructs[i][parse::strip_whitespace(code)];
        ++added_construct_count[i];
      }
      if (unchanged) continue;
      if (regex_search(code, match, set_call) && names_tests(std::string(match[1])) &&
          is_cmake_false(std::string(match[2])))
        evidence.push_back(location(file.path, line.number) + ": " + std::string(match[1]) +
                           " set to " + std::string(match[2]) + ": " + trimmed(line.text));
      if (regex_search(code, if_false))
        evidence.push_back(location(file.path, line.number) +
                           ": a condition that is always false added: " + trimmed(line.text));
    }

    if (!cmake) continue;
    for (const parse::ChangedLine& line : file.removed) {
      const std::string code(without_cmake_comment(line.text));
      Groups match;
      if (regex_search(code, match, option_call))
        removed_options[std::string(match[1])] =
            OptionLine{file.old_path, line.number, trimmed(line.text), std::string(match[2])};
      for (std::size_t i = 0; i < constructs.size(); ++i)
        if (regex_search(code, constructs[i].pattern))
          removed_constructs[i].push_back(ConstructLine{file.old_path, line.number, trimmed(line.text)});
    }
  }

  for (const auto& [name, removed] : removed_options) {
    if (!names_tests(name) || is_cmake_false(removed.value)) continue;
    const auto added = added_options.find(name);
    if (added == added_options.end()) {
      evidence.push_back(location(removed.path, removed.line) + ": option " + name + " (default " +
                         removed.value + ") removed: " + removed.text);
    } else if (is_cmake_false(added->second.value)) {
      const std::string now = added->second.value.empty() ? "none (OFF)" : added->second.value;
      evidence.push_back(location(added->second.path, added->second.line) + ": option " + name +
                         " default " + removed.value + " -> " + now + ": " + added->second.text);
    }
  }

  for (std::size_t i = 0; i < constructs.size(); ++i) {
    if (removed_constructs[i].size() <= added_construct_count[i]) continue;
    std::size_t surplus = removed_constructs[i].size() - added_construct_count[i];
    // List the removed lines that were not put back verbatim, up to the surplus.
    TextCounts put_back = added_constructs[i];
    for (const ConstructLine& line : removed_constructs[i]) {
      if (surplus == 0) break;
      if (take(put_back, parse::strip_whitespace(without_cmake_comment(line.text)))) continue;
      evidence.push_back(location(line.path, line.line) + ": " + constructs[i].what + ": " +
                         line.text);
      --surplus;
    }
  }

  if (candidate_test_count < baseline_test_count)
    evidence.push_back("ctest lists " + std::to_string(candidate_test_count) +
                       " tests, the baseline " + std::to_string(baseline_test_count));
  return evidence;
}

}  // namespace hydra::guard
