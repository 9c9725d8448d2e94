// The runs of the compiler's view (lint/compiler_view_run.hpp).
#include <hydra/capture/lint/compiler_view_run.hpp>

#include <hydra/capture/lint/compiled_inputs.hpp>
#include <hydra/capture/lint/database.hpp>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <mutex>
#include <optional>

#include <hydra/capture/core/plan.hpp>
#include <hydra/capture/lint/cache.hpp>
#include <hydra/capture/lint/compiler_view.hpp>
#include <hydra/capture/lint/completeness.hpp>
#include <hydra/capture/lint/system_regions.hpp>
#include <hydra/util/files.hpp>
#include <hydra/util/git.hpp>
#include <hydra/util/text.hpp>
#include <hydra/util/thread_pool.hpp>

namespace hydra::capture {
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

using util::starts_with;

/// How many units a changed header is compared through.
constexpr std::size_t kUnitsPerHeader = 8;

/// A changed file with added lines: where it is and how a marker may name it.
struct ChangedFile {
  std::string diff_path;
  fs::path real;             ///< absolute, clean, on this side of the sandbox
  std::set<fs::path> names;  ///< every path it is known by (as is, resolved, as the steps see it)
  const std::set<std::uint64_t>* added = nullptr;
};

/// One command compared: its unit, both sides' preprocessed text.
struct Compared {
  CompileCommand command;
  std::string compiler_text, clang_text;
  PreprocessedText compiler, clang;
  std::string problem;
  std::vector<std::string> search;  ///< the compiler's `#include <...>` folders (its `-v` report)
  std::set<std::string> judged;     ///< "file:first-last" of the lines judged in its view
};

std::vector<ChangedFile> changed_files(const Plan& plan, const LintView& view) {
  const fs::path top = plan.in_git ? util::work_tree_root(plan.source) : plan.source;
  std::vector<ChangedFile> files;
  for (const auto& [path, added] : view.added_lines) {
    ChangedFile file{path, util::absolute_clean(top / path), {}, &added};
    std::error_code error;
    if (added.empty() || !fs::is_regular_file(file.real, error)) continue;
    file.names = {file.real, plan.seen(file.real)};
    const fs::path resolved = fs::weakly_canonical(file.real, error);
    if (!error) file.names.insert(resolved);
    files.push_back(std::move(file));
  }
  return files;
}

/// Every command of the lint database (several per file when a file is
/// compiled again), with its file absolute and clean.
std::vector<CompileCommand> database_commands(const LintView& view) {
  std::vector<CompileCommand> commands;
  json database;
  try {
    database = json::parse(util::read_file(view.database_dir / "compile_commands.json"));
  } catch (const std::exception&) {
    return commands;
  }
  for (const auto& entry : database) {
    if (!entry.is_object() || !entry.contains("file") || !entry.contains("directory")) continue;
    CompileCommand command;
    command.directory = entry["directory"].get<std::string>();
    fs::path file = entry["file"].get<std::string>();
    command.file = util::absolute_clean(file.is_absolute() ? file : command.directory / file);
    if (entry.contains("arguments") && entry["arguments"].is_array())
      for (const auto& argument : entry["arguments"]) command.arguments.push_back(argument.get<std::string>());
    else if (entry.contains("command") && entry["command"].is_string())
      command.arguments = split_command(entry["command"].get<std::string>());
    if (!command.arguments.empty()) commands.push_back(std::move(command));
  }
  return commands;
}

/// Whether `name` (a file a command or marker names) is one of `file`'s names.
bool names_file(const fs::path& name, const ChangedFile& file) {
  if (file.names.count(name)) return true;
  std::error_code error;
  const fs::path resolved = fs::weakly_canonical(name, error);
  return !error && file.names.count(resolved);
}

/// The commands to compare: those of a changed unit, and, for each changed
/// header, one unit including it per distinct preprocessor signature (up to
/// kUnitsPerHeader).
std::vector<CompileCommand> commands_to_compare(const std::vector<CompileCommand>& all,
                                                const std::vector<ChangedFile>& changed, const std::string& deps,
                                                const fs::path& build) {
  std::set<fs::path> units;
  std::vector<const ChangedFile*> headers;
  for (const auto& file : changed) {
    const bool is_unit = std::any_of(all.begin(), all.end(), [&](const auto& command) { return names_file(command.file, file); });
    if (is_unit) {
      for (const auto& command : all)
        if (names_file(command.file, file)) units.insert(command.file);
    } else {
      headers.push_back(&file);
    }
  }
  if (!headers.empty() && !deps.empty()) {
    std::set<fs::path> known;
    for (const auto& command : all) known.insert(command.file);
    for (const auto& including : sources_including(deps, build)) {
      const fs::path& header = including.first;  // a plain name: lambdas capture it
      const std::set<fs::path>& sources = including.second;
      const auto file = std::find_if(headers.begin(), headers.end(), [&](const ChangedFile* each) { return names_file(header, *each); });
      if (file == headers.end()) continue;
      // One unit per way of compiling it (its macros, include paths and
      // standard): a header's code can differ with each.
      std::set<std::vector<std::string>> seen;
      for (const auto& source : sources) {
        if (!known.count(source) || seen.size() >= kUnitsPerHeader) continue;
        const auto command = std::find_if(all.begin(), all.end(), [&](const auto& each) { return each.file == source; });
        if (seen.insert(preprocessor_signature(command->arguments)).second) units.insert(source);
      }
    }
  }
  std::vector<CompileCommand> chosen;
  for (const auto& command : all)
    if (units.count(command.file)) chosen.push_back(command);
  return chosen;
}

/// `command`'s preprocessing to standard output, without comments.
std::vector<std::string> compiler_preprocessing(const CompileCommand& command) {
  std::vector<std::string> argv = preprocess_arguments(command);
  const auto comments = std::find(argv.begin(), argv.end(), "-C");
  if (comments != argv.end()) argv.erase(comments);
  return argv;
}

/// Whether the program `argv0` is a C++ driver (`g++`, `c++`, `clang++-14`):
/// clang-tidy runs such a command in clang's g++ mode.
bool cxx_driver(const std::string& argv0) {
  std::string name = fs::path(argv0).filename().string();
  while (!name.empty() && (std::isdigit(static_cast<unsigned char>(name.back())) || name.back() == '.' || name.back() == '-'))
    name.pop_back();
  return name.size() >= 2 && name.compare(name.size() - 2, 2, "++") == 0;
}

/// The same preprocessing by clang as clang-tidy parses the unit: clang-tidy's
/// extra arguments, the lint view's overlay.
std::vector<std::string> clang_preprocessing(const CompileCommand& command, const fs::path& clang, const LintView& view) {
  std::vector<std::string> argv = compiler_preprocessing(command);
  argv[0] = clang.string();
  std::vector<std::string> extra = {"-Qunused-arguments", "-Wno-unknown-warning-option"};
  if (cxx_driver(command.arguments.front())) argv.insert(argv.begin() + 1, "--driver-mode=g++");
  for (const auto& option : view.options) {
    if (starts_with(option, "--extra-arg=")) extra.push_back(option.substr(12));
    if (starts_with(option, "--vfsoverlay=")) extra.insert(extra.end(), {"-ivfsoverlay", option.substr(13)});
  }
  argv.insert(argv.end() - 2, extra.begin(), extra.end());  // before "-o -"
  return argv;
}

/// The arguments clang-tidy parses the compiler's view with: the command's
/// language and code-generation flags, and the include folders and macros
/// the system headers the view includes (lint/system_regions.hpp) are read
/// with; no forced includes (GCC expanded them).
std::vector<std::string> view_arguments(const CompileCommand& command) {
  static const std::set<std::string> with_value = {"-o", "-MF", "-MT", "-MQ", "-include", "-imacros", "-x"};
  static const std::vector<std::string> joined = {"-o", "-MF", "-MT", "-MQ", "-include", "-imacros"};
  static const std::set<std::string> kept_with_value = {"-D", "-U", "-I", "-isystem", "-iquote", "-idirafter",
                                                        "-cxx-isystem"};
  std::vector<std::string> out;
  if (cxx_driver(command.arguments.front())) out.push_back("--driver-mode=g++");
  for (std::size_t i = 1; i < command.arguments.size(); ++i) {
    const std::string& argument = command.arguments[i];
    if (with_value.count(argument)) {
      ++i;
      continue;
    }
    if (kept_with_value.count(argument) && i + 1 < command.arguments.size()) {
      out.insert(out.end(), {argument, command.arguments[++i]});
      continue;
    }
    if (argument == "-c" || argument == "-E" || starts_with(argument, "-M") ||
        std::any_of(joined.begin(), joined.end(), [&](const std::string& flag) { return starts_with(argument, flag); }))
      continue;
    if (!argument.empty() && argument.front() != '-') continue;  // an input
    out.push_back(argument);
  }
  out.insert(out.end(), {"-ferror-limit=0", "-Wno-unused-command-line-argument"});
  return out;
}

util::ProcessResult run_preprocessor(const CompilerViewRequest& request, const std::vector<std::string>& argv,
                                     const fs::path& directory) {
  util::ProcessRequest process = request.prepare ? request.prepare(argv) : util::ProcessRequest{};
  if (!request.prepare) process.argv = argv;
  process.working_directory = directory;
  process.timeout = std::chrono::duration<double>(request.timeout_seconds);
  process.keep_output_bytes = std::size_t(1) << 31;
  process.separate_stderr = true;
  return util::run_process(process);
}

/// Both sides' preprocessing of `compared.command` (`problem` says why not).
void preprocess_both(const CompilerViewRequest& request, const fs::path& clang, const LintView& view, Compared& compared) {
  const CompileCommand& command = compared.command;
  std::vector<std::string> argv = compiler_preprocessing(command);
  argv.insert(argv.end() - 2, "-v");  // its search folders, on standard error (before "-o -")
  const util::ProcessResult compiler = run_preprocessor(request, argv, command.directory);
  const util::ProcessResult by_clang = run_preprocessor(request, clang_preprocessing(command, clang, view), command.directory);
  const auto failed = [&](const util::ProcessResult& result, const std::string& who) {
    if (result.started && !result.timed_out && result.exit_code == 0) return false;
    compared.problem = command.file.string() + ": " + who + " cannot preprocess it" +
                       (result.started ? " (exit code " + std::to_string(result.exit_code) + ")" : ": " + result.error);
    return true;
  };
  if (failed(compiler, "its compiler") || failed(by_clang, "clang")) return;
  compared.compiler_text = compiler.output;
  compared.clang_text = by_clang.output;
  compared.search = include_search_list(compiler.error_output);
  compared.compiler = read_preprocessed(compiler.output);
  compared.clang = read_preprocessed(by_clang.output);
}

/// The token lines of `text` in `file`, its markers' names resolved against `directory`.
std::set<std::uint64_t> lines_of(const PreprocessedText& text, const ChangedFile& file, const fs::path& directory,
                                 std::vector<std::string>* names = nullptr, std::set<std::size_t>* indices = nullptr) {
  std::set<std::uint64_t> lines;
  for (std::size_t index = 0; index < text.files.size(); ++index) {
    const std::string& name = text.files[index];
    if (name.empty() || name.front() == '<') continue;
    const fs::path path = util::absolute_clean(fs::path(name).is_absolute() ? fs::path(name) : directory / name);
    if (fs::path(name).filename() != file.real.filename() || !names_file(path, file)) continue;
    if (names) names->push_back(name);
    if (indices) indices->insert(index);
    if (const auto found = text.token_lines.find(index); found != text.token_lines.end())
      lines.insert(found->second.begin(), found->second.end());
  }
  return lines;
}

json runs_json(const std::string& file, const std::set<std::uint64_t>& lines, const std::set<std::uint64_t>& seen) {
  json runs = json::array();
  for (const auto& [first, last] : line_runs(lines, seen)) runs.push_back({{"file", file}, {"first", first}, {"last", last}});
  return runs;
}

/// clang-tidy over `compared`'s compiler view, its system headers included
/// as clang reads them: its findings on `judged`. A view clang-tidy did not
/// parse whole (compiler errors, a crash, a timeout) leaves the judged lines
/// unlinted: the lint is incomplete, and `problems` says where.
std::string lint_one_view(const CompilerViewRequest& request, const Plan& plan, const LintView& view,
                          const Compared& compared, std::size_t index, const std::map<std::string, JudgedFile>& judged,
                          CompilerViewResult& result, std::size_t& count) {
  const std::string extension = compared.command.file.extension() == ".c" && !cxx_driver(compared.command.arguments.front()) ? ".c" : ".cpp";
  const fs::path file = request.scratch / (std::to_string(index) + "-" + compared.command.file.stem().string() + extension);
  const SystemRegions rewritten = include_system_headers(compared.compiler_text, compared.search, compared.command.directory);
  util::write_file_atomic(file, rewritten.text);
  // Every file's findings: line markers with flag 1 make the project's
  // headers included ones, and only those on judged lines are kept.
  std::vector<std::string> argv = {request.clang_tidy.string(), "--quiet", "--header-filter=.*"};
  for (const auto& option : view.options)
    if (starts_with(option, "--config-file=") || starts_with(option, "--config=") || starts_with(option, "--extra-arg"))
      argv.push_back(option);
  argv.push_back(plan.seen(file).string());
  argv.push_back("--");
  const std::vector<std::string> arguments = view_arguments(compared.command);
  argv.insert(argv.end(), arguments.begin(), arguments.end());
  util::ProcessRequest process = request.prepare ? request.prepare(argv) : util::ProcessRequest{};
  if (!request.prepare) process.argv = argv;
  process.working_directory = compared.command.directory;
  process.timeout = std::chrono::duration<double>(request.timeout_seconds);
  process.keep_output_bytes = std::size_t(1) << 30;
  const util::ProcessResult ran = util::run_process(process);
  const std::string unit = "the compiler's view of " + compared.command.file.string();
  if (std::string why = compiler_view_not_linted(ran, unit, compared.judged); !why.empty())
    result.incomplete.push_back(std::move(why));
  std::size_t kept = 0;
  std::string findings = compiler_view_findings(ran.output, plan.seen(file).string(), read_preprocessed(rewritten.text),
                                                judged, &kept);
  count += kept;
  return findings;
}

/// Compares `file` in every unit of `compared`: its lines only the compiler
/// compiles (compiled_not_linted) and those it expands otherwise
/// (expanded_differently) join `record`, `judged` and the units to lint.
void judge_file(const ChangedFile& file, std::vector<Compared>& compared, json& record,
                std::map<std::string, JudgedFile>& judged, std::vector<bool>& to_lint) {
  LinesBySide sides;
  std::vector<std::vector<std::string>> names(compared.size());
  std::vector<std::set<std::uint64_t>> compiled_by(compared.size()), expanded_by(compared.size());
  for (std::size_t index = 0; index < compared.size(); ++index) {
    Compared& unit = compared[index];
    if (!unit.problem.empty()) continue;
    const fs::path& directory = unit.command.directory;
    std::set<std::size_t> by_compiler, by_clang;
    compiled_by[index] = lines_of(unit.compiler, file, directory, &names[index], &by_compiler);
    sides.compiled.insert(compiled_by[index].begin(), compiled_by[index].end());
    const auto linted = lines_of(unit.clang, file, directory, nullptr, &by_clang);
    sides.linted.insert(linted.begin(), linted.end());
    expanded_by[index] = expanded_differently(line_tokens(unit.compiler_text, unit.compiler, by_compiler),
                                              line_tokens(unit.clang_text, unit.clang, by_clang), *file.added);
  }
  if (sides.compiled.empty()) return;
  const std::string text = util::read_file(file.real);
  const HiddenLines hidden = hidden_lines(conditional_branches(text), *file.added, sides);
  std::set<std::uint64_t> expanded;  // over every unit, less the lines judged as compiled_not_linted
  for (auto& lines : expanded_by) {
    for (const std::uint64_t line : hidden.compiled_not_linted) lines.erase(line);
    expanded.insert(lines.begin(), lines.end());
  }
  for (auto& run : runs_json(file.diff_path, hidden.compiled_not_linted, sides.linted))
    record["compiled_not_linted"].push_back(std::move(run));
  for (auto& run : runs_json(file.diff_path, hidden.linted_not_compiled, sides.compiled))
    record["linted_not_compiled"].push_back(std::move(run));
  for (auto& run : runs_json(file.diff_path, expanded, sides.compiled))
    record["expanded_differently"].push_back(std::move(run));
  const std::vector<std::string_view> source_lines = util::split(text, '\n');
  for (std::size_t index = 0; index < compared.size(); ++index) {
    std::set<std::uint64_t> lines = expanded_by[index];
    for (const std::uint64_t line : hidden.compiled_not_linted)
      if (compiled_by[index].count(line)) lines.insert(line);
    if (lines.empty()) continue;
    to_lint[index] = true;
    for (const auto& [first, last] : line_runs(lines, sides.compiled))
      compared[index].judged.insert(file.diff_path + ":" + std::to_string(first) + "-" + std::to_string(last));
    for (const auto& name : names[index]) {
      JudgedFile& entry = judged[name];
      entry.shown = file.real.string();
      for (const std::uint64_t line : lines)
        if (line <= source_lines.size()) entry.lines[line] = std::string(source_lines[line - 1]);
    }
  }
}

}  // namespace

std::string compiler_view_not_linted(const util::ProcessResult& ran, const std::string& unit,
                                     const std::set<std::string>& judged) {
  std::string why = clang_tidy_stopped_early(ran, unit);
  if (why.empty() && ran.timed_out) why = "clang-tidy timed out on " + unit;
  if (why.empty()) {
    std::size_t errors = 0;
    std::string first;
    for (const std::string_view line : util::split(ran.output, '\n')) {
      if (line.find("error: ") == std::string_view::npos || line.find("[clang-diagnostic-error]") == std::string_view::npos)
        continue;
      if (errors++ == 0) first = std::string(line);
    }
    if (errors != 0)
      why = "clang-tidy could not parse " + unit + " (" + std::to_string(errors) + " compiler errors; the first: " +
            first + ")";
  }
  if (why.empty()) return why;
  std::string lines;
  for (const auto& each : judged) lines += (lines.empty() ? "" : ", ") + each;
  return why + ": its lines " + lines + " are not linted";
}

std::map<fs::path, std::set<fs::path>> sources_including(std::string_view deps, const fs::path& build) {
  std::map<fs::path, std::set<fs::path>> including;
  const auto path_of = [&](const std::string& named) {
    const fs::path name(named);
    return util::absolute_clean(name.is_absolute() ? name : build / name);
  };
  for (const NinjaDepsEntry& entry : parse_ninja_deps(deps)) {
    if (entry.inputs.empty()) continue;
    const fs::path source = path_of(entry.inputs.front());  // an object's first dependency
    for (std::size_t index = 1; index < entry.inputs.size(); ++index) including[path_of(entry.inputs[index])].insert(source);
  }
  return including;
}

fs::path clang_beside(const fs::path& clang_tidy) {
  std::error_code error;
  const fs::path resolved = fs::canonical(clang_tidy, error);
  for (const fs::path& folder : {error ? fs::path() : resolved.parent_path(), clang_tidy.parent_path()})
    if (!folder.empty() && fs::is_regular_file(folder / "clang", error)) return folder / "clang";
  return {};
}

CompilerViewResult lint_compiler_view(const Plan& plan, const LintView& view, const CompilerViewRequest& request) {
  CompilerViewResult result;
  json& record = result.record;
  record = {{"units_compared", 0}, {"compiled_not_linted", json::array()}, {"linted_not_compiled", json::array()},
            {"expanded_differently", json::array()}, {"findings", 0}, {"problems", json::array()}};
  const std::vector<ChangedFile> changed = changed_files(plan, view);
  if (changed.empty()) return result;
  const fs::path clang = clang_beside(request.clang_tidy);
  if (clang.empty()) {
    record["problems"].push_back("no clang beside " + request.clang_tidy.string() + ": the compiler's view is not compared");
    return result;
  }
  std::vector<Compared> compared;
  for (auto& command : commands_to_compare(database_commands(view), changed, request.deps, plan.build_dir)) {
    compared.emplace_back();
    compared.back().command = std::move(command);
  }
  record["units_compared"] = compared.size();
  util::parallel_for(compared.size(), std::max(1u, request.jobs),
                     [&](std::size_t index) { preprocess_both(request, clang, view, compared[index]); });
  // Per changed file: the lines each side compiled, united over the commands.
  std::map<std::string, JudgedFile> judged;  // marker name -> judged lines
  std::vector<bool> to_lint(compared.size(), false);
  for (const auto& file : changed) judge_file(file, compared, record, judged, to_lint);
  for (const auto& each : compared)
    if (!each.problem.empty()) record["problems"].push_back(each.problem);
  if (std::none_of(to_lint.begin(), to_lint.end(), [](bool each) { return each; })) return result;
  std::error_code ignored;
  fs::remove_all(request.scratch, ignored);
  fs::create_directories(request.scratch);
  std::mutex mutex;
  std::size_t count = 0;
  util::parallel_for(compared.size(), std::max(1u, request.jobs), [&](std::size_t index) {
    if (!to_lint[index]) return;
    CompilerViewResult local;
    std::size_t found = 0;
    std::string findings = lint_one_view(request, plan, view, compared[index], index, judged, local, found);
    const std::lock_guard<std::mutex> lock(mutex);
    result.findings += findings;
    result.incomplete.insert(result.incomplete.end(), local.incomplete.begin(), local.incomplete.end());
    for (const auto& problem : local.incomplete) record["problems"].push_back(problem);
    count += found;
  });
  record["findings"] = count;
  return result;
}

}  // namespace hydra::capture
