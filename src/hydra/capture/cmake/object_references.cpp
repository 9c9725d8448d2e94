#include <hydra/capture/cmake/object_references.hpp>

#include <algorithm>
#include <cctype>
#include <map>
#include <optional>
#include <set>
#include <vector>

#include <hydra/capture/cmake/codemodel.hpp>
#include <hydra/capture/cmake/object_readings.hpp>
#include <hydra/capture/cmake/own_constructors.hpp>
#include <hydra/capture/cmake/runtime_exports.hpp>
#include <hydra/capture/cmake/system_calls.hpp>
#include <hydra/error.hpp>
#include <hydra/parse/test_files.hpp>
#include <hydra/util/git.hpp>
#include <hydra/util/files.hpp>
#include <hydra/util/process.hpp>
#include <hydra/util/text.hpp>

namespace hydra::capture {
namespace fs = std::filesystem;

namespace {

bool is_object(std::string_view path) {
  return util::ends_with(path, ".o") || util::ends_with(path, ".obj");
}

bool is_source(const fs::path& path) {
  static const std::set<std::string> extensions = {".c",  ".cc", ".cpp", ".cxx", ".c++", ".C",   ".m",
                                                   ".mm", ".s",  ".S",   ".sx",  ".cu",  ".ixx", ".cppm"};
  return extensions.count(path.extension().string()) > 0;
}

/// "<object>: #deps N, ..." then indented paths: object -> its first source.
std::map<std::string, std::string> object_sources(const std::string& deps) {
  std::map<std::string, std::string> sources;
  std::string object;
  for (const std::string_view line : util::split(deps, '\n')) {
    if (line.empty()) continue;
    if (line[0] != ' ') {
      const std::size_t colon = line.find(": #deps");
      object = colon == std::string_view::npos ? std::string() : std::string(line.substr(0, colon));
      continue;
    }
    if (object.empty() || sources.count(object)) continue;
    const std::size_t first = line.find_first_not_of(' ');
    const std::string dep(line.substr(first));
    if (is_source(dep)) sources.emplace(object, dep);
  }
  return sources;
}

/// Where the parameter list of a demangled function name starts: the first
/// '(' outside template arguments and past an `operator` word's own
/// characters ("std::function<void ()>::operator()() const" -> the second
/// "()"); npos when there is none.
std::size_t parameters_start(const std::string& name) {
  int depth = 0;
  for (std::size_t at = 0; at < name.size(); ++at) {
    if (name.compare(at, 8, "operator") == 0) {
      // The operator's own characters: "()", "<<=", "->", "[]", ...
      std::size_t next = at + 8;
      if (name.compare(next, 2, "()") == 0) next += 2;
      else
        while (next < name.size() && std::string_view("<>=!+-*/%&|^~[],").find(name[next]) != std::string_view::npos)
          ++next;
      at = next - 1;
      continue;
    }
    const char c = name[at];
    if (c == '<') ++depth;
    else if (c == '>' && depth > 0) --depth;
    else if (c == '(' && depth == 0) return at;
  }
  return std::string::npos;
}

/// One line of `nm -P -C` ("<name> <type> [<value> [<size>]]") -> name
/// (cut before its parameters: "f(int)" -> "f") and type.
std::optional<std::pair<std::string, char>> nm_symbol(const std::string& line) {
  std::vector<std::string> tokens;
  for (const std::string_view token : util::split(line, ' '))
    if (!token.empty()) tokens.emplace_back(token);
  const auto hex = [](const std::string& token) {
    return token.find_first_not_of("0123456789abcdefABCDEF") == std::string::npos;
  };
  const auto letter = [](const std::string& token) {
    return token.size() == 1 && std::isalpha(static_cast<unsigned char>(token[0]));
  };
  // The type is followed by up to two hexadecimal numbers (value, size).
  for (int numbers = 2; numbers >= 0; --numbers) {
    if (tokens.size() < std::size_t(numbers) + 2) continue;
    const std::size_t at = tokens.size() - 1 - std::size_t(numbers);
    bool fits = letter(tokens[at]);
    for (std::size_t index = at + 1; index < tokens.size(); ++index) fits = fits && hex(tokens[index]);
    if (!fits) continue;
    std::string name;
    for (std::size_t index = 0; index < at; ++index) name += (index ? " " : "") + tokens[index];
    const std::size_t open = parameters_start(name);
    if (open != std::string::npos && open > 0) name.erase(open);
    return std::make_pair(name, tokens[at][0]);
  }
  return std::nullopt;
}

/// The catalogue references of one object's `nm -P -C` lines and strings.
/// The tree's own paths (`roots`: __FILE__ in an assertion's message) name
/// where it was built, not what the code looks for.
std::set<std::string> own_references(const std::vector<std::string>& symbol_lines, std::vector<std::string> texts,
                                     const std::vector<fs::path>& roots) {
  std::vector<std::string> names;
  for (std::string line : symbol_lines) {
    while (!line.empty() && line.back() == ' ') line.pop_back();
    if (util::ends_with(line, " U")) names.push_back(line.substr(0, line.size() - 2));
  }
  for (std::string& text : texts)
    for (const fs::path& root_path : roots) {
      const std::string root = root_path.string();
      for (std::size_t at = text.find(root); !root.empty() && at != std::string::npos; at = text.find(root, at))
        text.replace(at, root.size(), "<tree>");
    }
  return guard::catalogue_references(names, texts);
}

bool is_undefined(char type) { return type == 'U' || type == 'w' || type == 'v'; }

/// A test framework's own namespace: code that is no test has no business there.
bool framework_symbol(const std::string& name) {
  for (const char* prefix : {"testing::", "Catch::", "doctest::", "boost::unit_test::"})
    if (util::starts_with(name, prefix)) return true;
  return false;
}

/// A global definition (nm's type): any upper-case letter but U, a unique
/// global (u) or an indirect function (i).
bool is_global_definition(char type) {
  return (std::isupper(static_cast<unsigned char>(type)) && type != 'U') || type == 'u' || type == 'i';
}
bool is_strong(char type) { return is_global_definition(type) && type != 'W' && type != 'V' && type != 'u' && type != 'C'; }

/// One line of `nm -P` (mangled) -> the definition it names.
std::optional<guard::Definition> definition_of(const std::string& line) {
  const std::size_t space = line.find(' ');
  if (space == std::string::npos || space + 1 >= line.size() || !is_global_definition(line[space + 1]))
    return std::nullopt;
  return guard::Definition{line.substr(0, space), is_strong(line[space + 1])};
}

/// What scan_object_references reads of the objects (`files`, the code's)
/// and the test objects (`test_files`) with binutils.
struct Readings {
  using Lines = std::map<std::string, std::vector<std::string>>;
  Lines symbols, texts, mangled;                          ///< the code's: nm -P -C, strings -d, nm -g (mangled)
  Lines test_definitions, test_symbols, test_texts;      ///< the tests': nm -g --defined-only, nm -P -C, strings -d
  std::set<std::string> issuing;       ///< objects whose own instructions enter the kernel
  std::set<std::string> constructing;  ///< objects with functions of their own before or after main
  bool failed = false;
};

/// The readings of every object (read_object_files, kept by content in
/// `cache_dir`), split into the code's and the tests'.
Readings read_objects(const std::vector<std::string>& files, const std::vector<std::string>& test_files,
                      const ObjectTools& tools, const std::optional<fs::path>& cache_dir, std::uint64_t max_bytes) {
  std::vector<std::string> every_file = files;
  every_file.insert(every_file.end(), test_files.begin(), test_files.end());
  Readings read;
  std::map<std::string, ObjectReading> of = read_object_files(every_file, tools, cache_dir, read.failed, max_bytes);
  // A file with no line of a reading has no entry in it (as the tools' output gives none).
  const auto put = [](Readings::Lines& lines, const std::string& file, std::vector<std::string>& from) {
    if (!from.empty()) lines[file] = std::move(from);
  };
  for (const std::string& file : files) {
    ObjectReading& reading = of[file];
    put(read.symbols, file, reading.symbols);
    put(read.texts, file, reading.texts);
    put(read.mangled, file, reading.mangled);
    if (reading.issuing) read.issuing.insert(file);
    if (reading.constructing) read.constructing.insert(file);
  }
  for (const std::string& file : test_files) {
    ObjectReading& reading = of[file];
    put(read.test_definitions, file, reading.definitions);
    put(read.test_symbols, file, reading.symbols);
    put(read.test_texts, file, reading.texts);
    if (reading.issuing) read.issuing.insert(file);
    if (reading.constructing) read.constructing.insert(file);
  }
  return read;
}

}  // namespace

ObjectScan scan_object_references(const fs::path& build_dir, const fs::path& seen_build, const fs::path& seen_top,
                                  const std::function<bool(const std::string& source)>& judged,
                                  const std::string& compiler, const std::optional<fs::path>& cache_dir,
                                  std::uint64_t cache_max_bytes) {
  ObjectScan scan;
  const std::optional<std::string> deps = ninja_tool(build_dir, {"deps"});
  const std::optional<std::string> outputs = ninja_tool(build_dir, {"targets", "all"});
  if (!deps || !outputs) {
    scan.problem = "not a Ninja build tree, or ninja cannot list its objects";
    return scan;
  }
  const auto nm = util::find_program("nm");
  const auto strings = util::find_program("strings");
  const auto objdump = util::find_program("objdump");
  if (!nm || !strings || !objdump) {
    scan.problem = "binutils (nm, strings, objdump) not installed";
    return scan;
  }
  // A path as the build saw it -> the key of the source it names.
  const auto key = [&](const std::string& seen) {
    fs::path path = fs::path(seen).is_relative() ? seen_build / seen : fs::path(seen);
    path = path.lexically_normal();
    if (util::is_within(path, seen_build)) return "<build>/" + path.lexically_relative(seen_build).generic_string();
    if (util::is_within(path, seen_top)) return path.lexically_relative(seen_top).generic_string();
    return path.generic_string();
  };
  // The object files on HydraScore's side, with their sources' keys.
  std::map<std::string, std::string> objects;
  std::map<std::string, std::string> test_objects;  // read for what only they define
  const auto add = [&](const std::string& object, const std::string& source) {
    const fs::path seen = fs::path(object).is_relative() ? seen_build / object : fs::path(object);
    if (!util::is_within(seen.lexically_normal(), seen_build)) return;
    const fs::path file = build_dir / seen.lexically_normal().lexically_relative(seen_build);
    std::error_code error;
    if (!fs::is_regular_file(file, error)) return;
    if (judged(source)) objects.emplace(file.string(), source);
    else test_objects.emplace(file.string(), source);
  };
  for (const auto& [object, source] : object_sources(*deps)) add(object, key(source));
  for (const std::string_view line : util::split(*outputs, '\n')) {
    const std::size_t colon = line.rfind(": ");
    if (colon == std::string_view::npos || !is_object(line.substr(0, colon))) continue;
    const std::string object(line.substr(0, colon));
    const fs::path file = build_dir / object;
    if (!objects.count(file.string()) && !test_objects.count(file.string())) add(object, key(object));
  }
  std::vector<std::string> files;
  for (const auto& [file, source] : objects) files.push_back(file);
  std::vector<std::string> test_files;
  for (const auto& [file, source] : test_objects) test_files.push_back(file);
  Readings read = read_objects(files, test_files, {*nm, *strings, *objdump}, cache_dir, cache_max_bytes);
  // Whether nm read any of the code's objects, before the lookups below
  // (which add an empty entry for every object) could make it look so.
  const bool none_read = read.failed && !files.empty() && read.symbols.empty();
  auto& symbols = read.symbols;
  auto& texts = read.texts;
  // What test objects define: the harness (a tally of failed checks, a
  // helper). Code that is no test referring to what only they define, or to
  // a test framework's namespace, reaches into what judges it; code defining
  // what they define too overrides or shares it (harness_definitions).
  std::set<std::string> test_defined;
  for (const auto& [file, lines] : read.test_definitions)
    for (const auto& line : lines)
      if (const auto symbol = nm_symbol(line)) test_defined.insert(symbol->first);
  std::map<std::string, std::vector<guard::NamedDefinition>> defined;  // non-test object -> its definitions
  std::set<std::string> own_scopes;  // where the code defines strongly what no test object defines
  for (const auto& [file, lines] : symbols)
    for (const auto& line : lines)
      if (const auto symbol = nm_symbol(line); symbol && is_global_definition(symbol->second)) {
        const char type = symbol->second;
        defined[file].push_back({symbol->first, is_strong(type), type == 'V' || type == 'u'});
        if (is_strong(type) && !test_defined.count(symbol->first)) own_scopes.insert(guard::top_scope(symbol->first));
      }
  std::set<std::string> only_tests_define = test_defined;
  for (const auto& [file, lines] : symbols)
    for (const auto& line : lines)
      if (const auto symbol = nm_symbol(line); symbol && !is_undefined(symbol->second))
        only_tests_define.erase(symbol->first);
  // The tests' own references: what a header of the change compiles into
  // them (the harness is theirs to reference).
  auto& test_symbols = read.test_symbols;
  auto& test_texts = read.test_texts;
  const std::set<std::string>& issuing = read.issuing;
  const std::set<std::string>& constructing = read.constructing;
  for (const auto& [file, source] : test_objects) {
    auto& references = scan.test_references[source];
    references.merge(own_references(test_symbols[file], test_texts[file], {seen_build, seen_top}));
    if (issuing.count(file)) references.insert(kSystemCallInstruction);
    if (constructing.count(file)) references.insert(kOwnConstructor);
  }
  // Definitions of what the C and C++ runtimes export: interposition.
  const std::set<std::string> exports =
      runtime_exports(compiler.empty() ? user_compiler(parse::CMakeCache{}) : compiler, *nm);
  auto& mangled = read.mangled;
  for (const auto& [file, source] : objects) {
    std::set<std::string> harness;
    for (const std::string& line : symbols[file])
      if (const auto symbol = nm_symbol(line))
        if (only_tests_define.count(symbol->first) || framework_symbol(symbol->first)) harness.insert(symbol->first);
    auto found = own_references(symbols[file], texts[file], {seen_build, seen_top});
    found.insert(harness.begin(), harness.end());
    found.merge(guard::harness_definitions(defined[file], test_defined, own_scopes));
    // A resolver of its own (nm's type `i`): the loader runs it first.
    for (const std::string& line : symbols[file])
      if (const auto symbol = nm_symbol(line); symbol && symbol->second == 'i') found.insert(guard::kOwnResolver);
    std::vector<guard::Definition> definitions;
    for (const std::string& line : mangled[file])
      if (auto definition = definition_of(line)) definitions.push_back(std::move(*definition));
    found.merge(guard::interposed_definitions(definitions, exports));
    if (issuing.count(file)) found.insert(kSystemCallInstruction);
    if (constructing.count(file)) found.insert(kOwnConstructor);
    if (!found.empty()) scan.references[source].insert(found.begin(), found.end());
  }
  scan.objects = objects.size();
  if (none_read)
    scan.problem = "nm could not read the objects of " + build_dir.string();
  return scan;
}

void record_object_references(const Plan& plan, const CaptureRequest& request, const TestFiles& own_files,
                              Staging& staging) {
  const auto& settings = plan.config.anti_gaming;
  std::vector<std::string> globs = settings.test_file_globs;
  globs.insert(globs.end(), settings.test_paths.begin(), settings.test_paths.end());
  TestFiles baseline_files;
  const bool against_baseline =
      request.baseline_run && fs::is_regular_file(*request.baseline_run / "test-files.json");
  if (against_baseline) {
    try {
      baseline_files = parse::parse_test_files_file(*request.baseline_run / "test-files.json");
    } catch (const InputError& error) {
      staging.problem(std::string("object references: ") + error.what());
    }
  }
  const auto judged = [&](const std::string& source) {
    if (against_baseline) return !is_test_file_of_change(source, baseline_files, own_files, globs);
    return !is_test_file(source, own_files.files, globs);
  };
  const fs::path top = plan.in_git ? util::work_tree_root(plan.source) : plan.source;
  const ObjectScan scan = scan_object_references(plan.build_dir, plan.seen(plan.build_dir), plan.seen(top), judged,
                                                 user_compiler(plan.initial_cache), plan.cache_dir,
                                                 plan.config.cache.lint_max_megabytes * 1024 * 1024);
  nlohmann::json record = nlohmann::json::object();
  if (!scan.problem.empty()) {
    record["problem"] = scan.problem;
  } else {
    record["objects"] = scan.objects;
    nlohmann::json sources = nlohmann::json::object();
    for (const auto& [source, references] : scan.references) sources[source] = references;
    record["sources"] = std::move(sources);
    nlohmann::json tests = nlohmann::json::object();
    for (const auto& [source, references] : scan.test_references) tests[source] = references;
    record["test_sources"] = std::move(tests);
  }
  staging.manifest["object_references"] = std::move(record);
}

}  // namespace hydra::capture
