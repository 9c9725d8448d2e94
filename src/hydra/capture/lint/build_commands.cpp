// The compilers the build ran (lint/build_commands.hpp).
#include <hydra/capture/lint/build_commands.hpp>

#include <algorithm>
#include <set>

#include <hydra/capture/cmake/codemodel.hpp>
#include <hydra/util/files.hpp>
#include <hydra/util/text.hpp>
#include <hydra/util/regex.hpp>

namespace hydra::capture {
namespace fs = std::filesystem;

namespace {

bool is_separator(const std::string& word) {
  return word == "&&" || word == "||" || word == ";" || word == "|" || word == "&";
}

/// An environment assignment `NAME=value`.
bool is_assignment(const std::string& word) {
  static const util::Regex assignment(R"(^[A-Za-z_][A-Za-z0-9_]*=)");
  return assignment.search(word);
}

std::string base_name(const std::string& program) { return fs::path(program).filename().string(); }

/// `words` without the launchers and assignments in front of the program.
std::vector<std::string> without_launchers(std::vector<std::string> words) {
  static const std::set<std::string> launchers = {"ccache", "sccache", "distcc", "icecc", "nice", "nohup", "time"};
  bool changed = true;
  while (changed && !words.empty()) {
    changed = false;
    std::size_t skip = 0;
    while (skip < words.size() && is_assignment(words[skip])) ++skip;
    if (skip < words.size()) {
      const std::string name = base_name(words[skip]);
      if (name == "env") {
        ++skip;
        while (skip < words.size() && (is_assignment(words[skip]) || words[skip].rfind('-', 0) == 0)) ++skip;
      } else if ((name == "cmake" || name == "cmake3") && skip + 2 < words.size() && words[skip + 1] == "-E" &&
                 words[skip + 2] == "env") {
        skip += 3;
        while (skip < words.size() && (is_assignment(words[skip]) || words[skip].rfind("--", 0) == 0)) ++skip;
      } else if (launchers.count(name)) {
        ++skip;
      }
    }
    if (skip > 0) {
      words.erase(words.begin(), words.begin() + static_cast<std::ptrdiff_t>(std::min(skip, words.size())));
      changed = true;
    }
  }
  return words;
}

/// Options whose value is the next word.
bool takes_value(const std::string& option) {
  static const std::set<std::string> options = {
      "-o",        "-I",          "-D",          "-U",        "-include",  "-imacros",         "-isystem",
      "-iquote",   "-idirafter",  "-isysroot",   "-MF",       "-MT",       "-MQ",              "-x",
      "-Xclang",   "-Xlinker",    "-Xpreprocessor", "-Xassembler", "-L",  "-l",               "-T",
      "-arch",     "-target",     "-cxx-isystem", "-iprefix", "-iwithprefix", "-iwithprefixbefore",
      "-include-pch", "-MJ",      "-u",          "-z",        "-e",        "--sysroot",        "-aux-info",
      "-std",      "--param",     "-G"};
  return options.count(option) > 0;
}

bool has_source_extension(const std::string& file) {
  static const std::set<std::string> extensions = {".c", ".cc", ".cpp", ".cxx", ".c++", ".C", ".cp", ".CPP", ".i", ".ii"};
  return extensions.count(fs::path(file).extension().string()) > 0;
}

/// The compile commands of one invocation (`words`: program first).
void add_invocation(const std::vector<std::string>& words, const fs::path& directory,
                    std::vector<CompileCommand>& commands) {
  struct Input {
    std::size_t index;
    bool source;
  };
  std::vector<Input> inputs;
  std::string language;  // the last -x
  for (std::size_t index = 1; index < words.size(); ++index) {
    const std::string& word = words[index];
    if (word == "-E" || word == "-M" || word == "-MM") return;  // preprocessing only
    if (word == "-x" && index + 1 < words.size()) {
      language = words[++index];
      continue;
    }
    if (word.size() > 2 && word.compare(0, 2, "-x") == 0) {
      language = word.substr(2);
      continue;
    }
    if (word.size() > 1 && word[0] == '-') {
      if (takes_value(word)) ++index;
      continue;
    }
    const bool source = language.empty() || language == "none" ? has_source_extension(word)
                                                                : language == "c" || language == "c++";
    inputs.push_back({index, source});
  }
  for (const Input& input : inputs) {
    if (!input.source) continue;
    CompileCommand command;
    command.directory = directory;
    const fs::path file = words[input.index];
    command.file = util::absolute_clean(file.is_absolute() ? file : directory / file);
    for (std::size_t index = 0; index < words.size(); ++index) {
      const bool other_input = std::any_of(inputs.begin(), inputs.end(), [&](const Input& each) {
        return each.index == index && each.index != input.index;
      });
      if (!other_input) command.arguments.push_back(words[index]);
    }
    commands.push_back(std::move(command));
  }
}

}  // namespace

bool is_compiler_program(const std::string& program, const std::vector<std::string>& compilers) {
  static const util::Regex named(R"(^([A-Za-z0-9_.]+-)*(cc|c\+\+|gcc|g\+\+|clang|clang\+\+)(-[0-9]+(\.[0-9]+)*)?$)");
  const std::string name = base_name(program);
  if (named.search(name)) return true;
  return std::any_of(compilers.begin(), compilers.end(), [&](const std::string& compiler) {
    return !compiler.empty() && (compiler == program || base_name(compiler) == name);
  });
}

std::vector<CompileCommand> compiler_invocations(const std::vector<std::string>& lines,
                                                 const std::vector<std::string>& compilers, const fs::path& directory) {
  std::vector<CompileCommand> commands;
  for (const auto& line : lines) {
    const std::vector<std::string> words = split_command(line);
    fs::path folder = directory;
    std::vector<std::string> segment;
    const auto finish = [&] {
      const std::vector<std::string> program = without_launchers(segment);
      segment.clear();
      if (program.empty()) return;
      if (program[0] == "cd" && program.size() >= 2) {
        const fs::path to = program[1];
        folder = util::absolute_clean(to.is_absolute() ? to : folder / to);
        return;
      }
      if (is_compiler_program(program[0], compilers)) add_invocation(program, folder, commands);
    };
    for (const auto& word : words) {
      if (is_separator(word)) {
        finish();
      } else if (word.size() > 1 && word.back() == ';' && word[word.size() - 2] != '\\') {
        segment.push_back(word.substr(0, word.size() - 1));
        finish();
      } else {
        segment.push_back(word);
      }
    }
    finish();
  }
  return commands;
}

std::vector<CompileCommand> build_log_units(const fs::path& staging_directory, const std::vector<std::string>& compilers,
                                            const fs::path& build_dir) {
  const fs::path listed = staging_directory / "build-commands.txt";
  if (!fs::is_regular_file(listed)) return {};
  const std::string text = util::read_file(listed);
  std::vector<std::string> lines;
  for (const auto line : util::split(text, '\n'))
    if (!line.empty()) lines.emplace_back(line);
  return compiler_invocations(lines, compilers, build_dir);
}

std::set<fs::path> built_files(const std::vector<fs::path>& units, const std::vector<CompileCommand>& compiled,
                               const fs::path& build_dir) {
  std::set<fs::path> files(units.begin(), units.end());
  for (const auto& command : compiled) files.insert(command.file);
  for (const auto& [header, users] : header_users(build_dir))
    // As the build named it (lexically: an in-tree symbolic link stays one).
    files.insert(fs::absolute(fs::path(header).is_absolute() ? fs::path(header) : build_dir / header).lexically_normal());
  return files;
}

}  // namespace hydra::capture
