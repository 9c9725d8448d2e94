// A candidate's own compiler cache (own_cache.hpp).
#include <hydra/capture/cmake/own_cache.hpp>

#include <hydra/capture/cmake/compiler_cache.hpp>

#include <algorithm>
#include <system_error>

#include <hydra/util/files.hpp>
#include <hydra/util/text.hpp>

namespace hydra::capture {
namespace fs = std::filesystem;

namespace {

/// A file the build system is made of, by its name alone.
bool is_build_system_file(const std::string& path) {
  const fs::path name = fs::path(path).filename();
  return name == "CMakeLists.txt" || name.extension() == ".cmake" || name == "CMakePresets.json" ||
         name == "CMakeUserPresets.json";
}

/// The words of a shell command line, quotes removed (a quoted text with
/// spaces is still split: each part is looked at). The separators `&&`,
/// `||`, `;` and `|` are words of their own.
std::vector<std::string> shell_words(const std::string& line) {
  std::vector<std::string> words;
  std::string word;
  const auto flush = [&] {
    if (!word.empty()) words.push_back(word);
    word.clear();
  };
  for (std::size_t index = 0; index < line.size(); ++index) {
    const char c = line[index];
    if (c == '"' || c == '\'') continue;
    if (c == ' ' || c == '\t') {
      flush();
    } else if (c == ';' || c == '|' || c == '&') {
      flush();
      std::string separator(1, c);
      if ((c == '|' || c == '&') && index + 1 < line.size() && line[index + 1] == c) separator += line[++index];
      words.push_back(separator);
    } else {
      word += c;
    }
  }
  flush();
  return words;
}

bool is_separator(const std::string& word) {
  return word == "&&" || word == "||" || word == ";" || word == "|" || word == "&";
}

/// `word` (or what follows its last '=') as a path from `directory`; empty
/// when it names no path (no '/').
fs::path path_in(const std::string& word, const fs::path& directory) {
  std::string value = word;
  if (const auto equals = value.rfind('='); equals != std::string::npos) value = value.substr(equals + 1);
  if (value.find('/') == std::string::npos) return {};
  const fs::path path(value);
  return (path.is_absolute() ? path : directory / path).lexically_normal();
}

/// One simple command of a build statement: its words and the folder it runs in.
struct SimpleCommand {
  std::vector<std::string> words;
  fs::path directory;
  bool compilation = false;  ///< behind the compiler cache's launcher
};

std::vector<SimpleCommand> simple_commands(const std::string& line, const fs::path& build, const std::string& launcher) {
  std::vector<SimpleCommand> commands;
  fs::path directory = build;
  std::vector<std::string> current;
  const auto finish = [&] {
    if (current.empty()) return;
    if (current.front() == "cd" && current.size() >= 2) {
      const fs::path target(current[1]);
      directory = (target.is_absolute() ? target : directory / target).lexically_normal();
    } else if (current.front() != ":") {
      SimpleCommand command{current, directory, false};
      command.compilation = !launcher.empty() && current.front() == launcher;
      commands.push_back(std::move(command));
    }
    current.clear();
  };
  for (const auto& word : shell_words(line)) {
    if (is_separator(word)) finish();
    else current.push_back(word);
  }
  finish();
  return commands;
}

/// The program a simple command runs: its first word after variable
/// assignments, `env` and the compiler cache's launcher.
std::string program_of(const SimpleCommand& command) {
  for (std::size_t index = 0; index < command.words.size(); ++index) {
    const std::string& word = command.words[index];
    const bool assignment = word.find('=') != std::string::npos && word.find('/') > word.find('=');
    if (assignment || word == "env" || util::ends_with(word, "/env") || (index == 0 && command.compilation)) continue;
    return word;
  }
  return {};
}

/// The output a command that is no compilation names after `-o`: what a link makes.
std::vector<fs::path> link_outputs(const SimpleCommand& command) {
  std::vector<fs::path> outputs;
  if (command.compilation) return outputs;
  for (std::size_t index = 0; index + 1 < command.words.size(); ++index)
    if (command.words[index] == "-o") {
      const fs::path path(command.words[index + 1]);
      outputs.push_back((path.is_absolute() ? path : command.directory / path).lexically_normal());
    }
  return outputs;
}

std::string shell_quoted(const fs::path& path) {
  std::string text = "'";
  for (const char c : path.string()) text += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return text + "'";
}

/// Why `path` cannot stand in ccache's settings (the prefix command is split
/// at spaces, a storage URL's attributes follow a '|').
std::string unusable(const fs::path& path) {
  const std::string text = path.string();
  if (text.find_first_of(" \t|\n") != std::string::npos)
    return "the path " + text + " holds a space or a '|', which ccache's settings cannot";
  return {};
}

/// The script ccache runs as its prefix command: ccache again, on the own
/// cache's storage alone, writing it or only reading it.
std::string own_script(const CompilerCache& cache, const fs::path& seen_folder, const fs::path& local,
                       const fs::path& stats_log, bool writer) {
  std::string script = "#!/bin/sh\n"
                       "# HydraScore: a capture's own compiler cache (src/hydra/capture/cmake/own_cache.hpp).\n"
                       "unset CCACHE_DISABLE CCACHE_PREFIX CCACHE_PREFIX_CPP CCACHE_RESHARE CCACHE_READONLY "
                       "CCACHE_LOGFILE CCACHE_DEBUG CCACHE_REMOTE_STORAGE\n";
  script += "export CCACHE_CONFIGPATH=" + shell_quoted(seen_folder / "ccache.conf") + "\n";
  script += "export CCACHE_DIR=" + shell_quoted(local) + "\n";
  script += "export CCACHE_REMOTE_ONLY=1\n";
  script += "export CCACHE_REMOTE_STORAGE=" +
            shell_quoted("file:" + (seen_folder / "store").string() + "|layout=flat" + (writer ? "" : "|read-only=true")) +
            "\n";
  script += "export CCACHE_STATSLOG=" + shell_quoted(stats_log) + "\n";
  if (!writer) script += "export CCACHE_READONLY=1\n";
  script += "exec " + shell_quoted(cache.program) + " \"$@\"\n";
  return script;
}

void write_script(const fs::path& file, const std::string& text) {
  util::write_file_atomic(file, text);
  fs::permissions(file, fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec |
                            fs::perms::others_read | fs::perms::others_exec);
}

}  // namespace

std::string own_cache_refusal(const OwnCacheInputs& inputs) {
  std::set<fs::path> changed;
  for (const auto& file : inputs.changed) {
    if (file.empty()) continue;
    if (is_build_system_file(file)) return "the change touches " + file + ", a file of the build system";
    changed.insert((inputs.top / file).lexically_normal());
  }
  for (const auto& input : inputs.configure_inputs) {
    const fs::path path = path_in(input, inputs.build);
    if (changed.count(path))
      return "the configure read " + path.lexically_relative(inputs.top).generic_string() + ", which the change touches";
  }
  if (inputs.commands.empty()) return "the build's commands are unknown (only Ninja's are read)";
  std::vector<SimpleCommand> commands;
  for (const auto& line : inputs.commands)
    for (auto& command : simple_commands(line, inputs.build, inputs.launcher)) commands.push_back(std::move(command));
  std::set<fs::path> linked;
  for (const auto& command : commands)
    for (const auto& output : link_outputs(command)) linked.insert(output);
  for (const auto& command : commands) {
    const fs::path program = path_in(program_of(command), command.directory);
    if (!program.empty() && util::is_within(program, inputs.build))
      return "the build runs " + program.string() + ", which the build tree holds";
    if (!program.empty() && changed.count(program))
      return "the build runs " + program.string() + ", a file of the change";
    const bool links = !link_outputs(command).empty();
    for (std::size_t index = 0; index < command.words.size(); ++index) {
      const bool output = index > 0 && command.words[index - 1] == "-o";
      const fs::path path = path_in(command.words[index], command.directory);
      if (path.empty() || output) continue;
      if (!command.compilation && changed.count(path))
        return "a command of the build names " + path.string() + ", a file of the change";
      if (!links && linked.count(path))
        return "a command of the build names " + path.string() + ", which the build links";
    }
  }
  return {};
}

fs::path own_cache_folder(const fs::path& staging) { return staging / ".hydra-own-ccache"; }

std::string prepare_own_cache_writer(CompilerCache& cache, const fs::path& folder, const fs::path& seen_folder,
                                     const fs::path& seen_build, std::vector<fs::path>& writable,
                                     std::vector<fs::path>& readable) {
  for (const fs::path& path : {seen_folder, seen_build, cache.program})
    if (std::string why = unusable(path); !why.empty()) return why;
  std::error_code ignored;
  fs::remove_all(folder, ignored);
  fs::create_directories(folder / "store");
  fs::create_directories(folder / "local");
  util::write_file_atomic(folder / "ccache.conf", "");
  const fs::path stats_log = seen_build / ".hydra-ccache-own-stats.log";
  write_script(folder / "write.sh", own_script(cache, seen_folder, seen_folder / "local", stats_log, true));
  cache.own_role = "writer";
  cache.own_stats_log = cache.stats_log.parent_path() / stats_log.filename();
  fs::remove(cache.own_stats_log, ignored);
  cache.environment["CCACHE_PREFIX"] = (seen_folder / "write.sh").string();
  readable.push_back(folder);
  writable.push_back(folder / "store");
  writable.push_back(folder / "local");
  return {};
}

std::string prepare_own_cache_reader(CompilerCache& cache, const fs::path& folder, const fs::path& seen_folder,
                                     const fs::path& build_dir, const fs::path& seen_build,
                                     std::vector<fs::path>& readable) {
  for (const fs::path& path : {seen_folder, seen_build, cache.program})
    if (std::string why = unusable(path); !why.empty()) return why;
  if (!fs::is_directory(folder / "store")) return "the candidate's build stored nothing";
  // Its statistics only, in a folder of the held-out build tree made afresh.
  const fs::path local = build_dir / ".hydra-ccache-own";
  std::error_code ignored;
  fs::remove_all(local, ignored);
  fs::create_directories(local);
  const fs::path stats_log = seen_build / ".hydra-ccache-own-stats.log";
  write_script(folder / "read.sh", own_script(cache, seen_folder, seen_build / local.filename(), stats_log, false));
  cache.own_role = "reader";
  cache.own_stats_log = build_dir / stats_log.filename();
  fs::remove(cache.own_stats_log, ignored);
  cache.environment["CCACHE_PREFIX"] = (seen_folder / "read.sh").string();
  readable.push_back(folder);
  return {};
}

}  // namespace hydra::capture
