// What the C and C++ runtime libraries export (cmake/runtime_exports.hpp).
#include <hydra/capture/cmake/runtime_exports.hpp>

#include <sys/stat.h>

#include <cctype>
#include <cstdlib>
#include <map>
#include <mutex>

#include <hydra/parse/cmake_cache.hpp>
#include <hydra/util/files.hpp>
#include <hydra/util/process.hpp>
#include <hydra/util/sha256.hpp>
#include <hydra/util/text.hpp>

namespace hydra::capture {
namespace fs = std::filesystem;

namespace {

/// The shared libraries of the C and C++ runtimes `compiler` links against:
/// libc, libm, libpthread, libdl, libstdc++, libgcc_s and the dynamic loader
/// (what libc.so's linker script names).
std::vector<fs::path> runtime_libraries(const std::string& compiler) {
  const auto where = [&](const std::string& name) -> std::optional<fs::path> {
    util::ProcessRequest request;
    request.argv = {compiler, "-print-file-name=" + name};
    request.separate_stderr = true;
    request.timeout = std::chrono::seconds(60);
    const auto ran = util::run_process(request);
    std::string path = ran.output;
    while (!path.empty() && (path.back() == '\n' || path.back() == ' ')) path.pop_back();
    std::error_code error;
    if (!ran.started || ran.exit_code != 0 || !fs::path(path).is_absolute() || !fs::is_regular_file(path, error))
      return std::nullopt;
    return fs::canonical(path, error);
  };
  std::vector<fs::path> libraries;
  for (const char* name : {"libc.so.6", "libm.so.6", "libpthread.so.0", "libdl.so.2", "libstdc++.so.6", "libgcc_s.so.1"})
    if (const auto found = where(name)) libraries.push_back(*found);
  // The loader: an absolute ".so" path of libc.so's linker script.
  if (const auto script = where("libc.so"); script && fs::file_size(*script) < 65536) {
    const std::string text = util::read_file(*script);
    for (std::size_t at = text.find('/'); at != std::string::npos; at = text.find('/', at)) {
      std::size_t end = at;
      while (end < text.size() && !std::isspace(static_cast<unsigned char>(text[end])) && text[end] != ')') ++end;
      const std::string path = text.substr(at, end - at);
      std::error_code error;
      if (path.find(".so") != std::string::npos && path.find("/ld-") != std::string::npos &&
          fs::is_regular_file(path, error))
        libraries.push_back(path);
      at = end;
    }
  }
  return libraries;
}

/// The names (mangled, versions dropped) `nm -D` lists as defined by
/// `libraries`; `complete` says whether every library was read.
std::set<std::string> exported_names(const std::vector<fs::path>& libraries, const fs::path& nm, bool& complete) {
  std::set<std::string> names;
  complete = !libraries.empty();
  for (const fs::path& library : libraries) {
    util::ProcessRequest request;
    request.argv = {nm.string(), "-D", "--defined-only", "-P", library.string()};
    request.separate_stderr = true;
    request.keep_output_bytes = std::size_t(1) << 28;
    request.timeout = std::chrono::seconds(120);
    const auto ran = util::run_process(request);
    if (!ran.started || ran.timed_out || ran.exit_code != 0) complete = false;
    for (const std::string_view line : util::split(ran.output, '\n')) {
      const std::size_t space = line.find(' ');
      if (space == std::string_view::npos || space + 1 >= line.size() || line[space + 1] == 'A') continue;
      const std::string_view name = line.substr(0, space);
      names.emplace(name.substr(0, name.find('@')));
    }
  }
  return names;
}

}  // namespace

std::string user_compiler(const parse::CMakeCache& initial_cache) {
  for (const char* name : {"CMAKE_CXX_COMPILER", "CMAKE_C_COMPILER"}) {
    std::string named = initial_cache.value_or_empty(name);
    if (named.empty()) continue;
    if (fs::path(named).is_absolute()) return named;
    if (const auto found = util::find_program(named)) return found->string();
  }
  for (const char* variable : {"CXX", "CC"})
    if (const char* named = std::getenv(variable); named != nullptr && *named != '\0') {
      if (fs::path(named).is_absolute()) return named;
      if (const auto found = util::find_program(named)) return found->string();
    }
  if (const auto found = util::find_program("c++")) return found->string();
  return {};
}

std::set<std::string> runtime_exports(const std::string& compiler, const fs::path& nm,
                                      const std::optional<fs::path>& cache_dir) {
  if (compiler.empty()) return {};
  static std::mutex mutex;
  static std::map<std::string, std::set<std::string>> cached;
  const std::lock_guard<std::mutex> lock(mutex);
  if (const auto known = cached.find(compiler); known != cached.end()) return known->second;
  return cached[compiler] = exported_names_kept(runtime_libraries(compiler), nm, cache_dir);
}

std::set<std::string> exported_names_kept(const std::vector<fs::path>& libraries, const fs::path& nm,
                                          const std::optional<fs::path>& cache_dir) {
  fs::path kept;
  if (cache_dir) {
    const std::string tool = util::file_identity(nm);
    std::string identity = "runtime exports 1\n" + tool + "\n";
    bool identified = !tool.empty();
    for (const fs::path& library : libraries) {
      const std::string one = util::file_identity(library);
      identified = identified && !one.empty();
      identity += one + "\n";
    }
    if (identified) kept = *cache_dir / "runtime-exports" / (util::sha256_hex(identity) + ".txt");
  }
  std::error_code error;
  if (!kept.empty() && fs::is_regular_file(kept, error)) {
    std::set<std::string> names;
    const std::string text = util::read_file(kept);
    for (const std::string_view line : util::split(text, '\n'))
      if (!line.empty()) names.emplace(line);
    return names;
  }
  bool complete = false;
  std::set<std::string> names = exported_names(libraries, nm, complete);
  // Only what every library gave: a library nm could not read is read again.
  if (!kept.empty() && complete) {
    std::string text;
    for (const std::string& name : names) text += name + "\n";
    try {
      fs::create_directories(kept.parent_path());
      util::write_file_atomic(kept, text);
    } catch (const std::exception&) {
      // Not kept: the next capture reads the libraries again.
    }
  }
  return names;
}

void read_runtime_exports(const std::string& compiler, const std::optional<fs::path>& cache_dir) {
  if (const auto nm = util::find_program("nm")) runtime_exports(compiler, *nm, cache_dir);
}

}  // namespace hydra::capture
