// Step policies (step_policy.hpp).
#include <hydra/capture/sandbox/step_policy.hpp>

#include <unistd.h>

#include <algorithm>
#include <set>
#include <system_error>

#include <hydra/util/files.hpp>
#include <hydra/util/text.hpp>

extern char** environ;

namespace hydra::capture {
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

const char* access_name(Mount::Access access) {
  switch (access) {
    case Mount::Access::read_write: return "read-write";
    case Mount::Access::read_only: return "read-only";
    case Mount::Access::hidden: return "hidden";
    case Mount::Access::symlink: return "symlink";
  }
  return "read-only";
}

/// What compilers, CMake, CTest, cargo, npm, pytest and the locale need
/// (docs/config.md, "[sandbox]"): passed on when set.
const std::set<std::string>& allowed_names() {
  static const std::set<std::string> names = {
      // the shell, the locale, the terminal, the user's name
      "PATH", "LANG", "LANGUAGE", "TZ", "TERM", "NO_COLOR", "USER", "LOGNAME", "CI", "SOURCE_DATE_EPOCH",
      "SSL_CERT_FILE", "SSL_CERT_DIR",
      // compilers and linkers
      "CC", "CXX", "CPP", "FC", "AR", "AS", "LD", "NM", "RANLIB", "STRIP", "OBJCOPY", "CFLAGS", "CXXFLAGS",
      "CPPFLAGS", "FFLAGS", "LDFLAGS", "CPATH", "C_INCLUDE_PATH", "CPLUS_INCLUDE_PATH", "LIBRARY_PATH",
      "LD_LIBRARY_PATH", "PKG_CONFIG_PATH", "PKG_CONFIG_LIBDIR", "PKG_CONFIG_SYSROOT_DIR", "NINJA_STATUS",
      "ASAN_OPTIONS", "UBSAN_OPTIONS", "LSAN_OPTIONS", "TSAN_OPTIONS", "MSAN_OPTIONS",
      // cargo and rustc (never CARGO_REGISTRY_TOKEN and the like)
      "RUSTUP_TOOLCHAIN", "RUSTFLAGS", "RUSTDOCFLAGS", "RUST_BACKTRACE", "RUST_MIN_STACK", "RUST_TEST_THREADS",
      "CARGO_BUILD_JOBS", "CARGO_INCREMENTAL", "CARGO_TERM_COLOR",
      // node and npm (never npm_config_*: registry tokens live there)
      "NODE_PATH", "NODE_OPTIONS", "NODE_ENV",
      // Python and pytest
      "PYTHONPATH", "PYTHONHOME", "PYTHONDONTWRITEBYTECODE", "PYTHONUNBUFFERED", "PYTHONHASHSEED",
      "PYTHONWARNINGS", "PYTHONUTF8", "PYTHONIOENCODING", "VIRTUAL_ENV", "CONDA_PREFIX", "PYENV_VERSION",
      "PYTEST_ADDOPTS"};
  return names;
}

/// Name prefixes passed on: the locale categories, CMake's and CTest's own variables.
const char* const allowed_prefixes[] = {"LC_", "CMAKE_", "CTEST_"};

bool allowed(const std::string& name, const std::vector<std::string>& extra) {
  if (allowed_names().count(name)) return true;
  for (const char* prefix : allowed_prefixes)
    if (name.rfind(prefix, 0) == 0) return true;
  for (const auto& entry : extra) {
    if (!entry.empty() && entry.back() == '*') {
      if (name.rfind(entry.substr(0, entry.size() - 1), 0) == 0) return true;
    } else if (name == entry) {
      return true;
    }
  }
  return false;
}

std::string value_of(const std::map<std::string, std::string>& environment, const std::string& name) {
  const auto found = environment.find(name);
  return found == environment.end() ? std::string() : found->second;
}

bool is_folder(const fs::path& path) {
  std::error_code error;
  return !path.empty() && fs::is_directory(path, error);
}

/// A tool home: the variable's value, else `user_home`/`default_name`.
fs::path tool_home(const std::map<std::string, std::string>& environment, const std::string& variable,
                   const char* default_name) {
  const std::string set = value_of(environment, variable);
  if (!set.empty()) return util::absolute_clean(set);
  const std::string home = value_of(environment, "HOME");
  return home.empty() ? fs::path() : util::absolute_clean(fs::path(home) / default_name);
}

bool inside_any(const fs::path& path, const std::vector<fs::path>& roots) {
  return std::any_of(roots.begin(), roots.end(), [&](const fs::path& root) { return util::is_within(path, root); });
}


}  // namespace

bool is_system_root(const fs::path& path) {
  static const std::set<fs::path> roots = {"/", "/usr", "/bin", "/lib", "/lib64", "/lib32", "/sbin", "/etc", "/opt",
                                           "/proc", "/dev", "/sys", "/var", "/nix"};
  return roots.count(path.lexically_normal()) > 0;
}

json StepPolicy::to_json() const {
  json mounts_json = json::array();
  for (const auto& mount : mounts) {
    json entry = {{"path", mount.path.string()}, {"access", access_name(mount.access)}};
    if (!mount.source.empty() && mount.source != mount.path) entry["source"] = mount.source.string();
    mounts_json.push_back(std::move(entry));
  }
  json record = {{"step", step}, {"mounts", std::move(mounts_json)}, {"temporary", temporary.string()},
                 {"home", home.string()}, {"network", network}, {"reaped", reaped}};
  json limits_json = json::object();
  if (limits.cpu_seconds) limits_json["cpu_seconds"] = *limits.cpu_seconds;
  if (limits.memory_bytes) limits_json["memory_bytes"] = *limits.memory_bytes;
  if (limits.processes) limits_json["processes"] = *limits.processes;
  record["limits"] = std::move(limits_json);
  json names = json::array();
  for (const auto& [name, value] : environment) names.push_back(name);
  record["environment"] = std::move(names);
  return record;
}

std::map<std::string, std::string> current_environment() {
  std::map<std::string, std::string> environment;
  for (char** entry = environ; entry != nullptr && *entry != nullptr; ++entry) {
    const std::string text = *entry;
    const auto equals = text.find('=');
    if (equals != std::string::npos) environment.emplace(text.substr(0, equals), text.substr(equals + 1));
  }
  return environment;
}

std::map<std::string, std::string> step_environment(const config::SandboxSettings& settings,
                                                    const std::map<std::string, std::string>& inherited,
                                                    const fs::path& home, const fs::path& temporary) {
  std::map<std::string, std::string> environment;
  for (const auto& [name, value] : inherited)
    if (allowed(name, settings.environment)) environment[name] = value;
  if (!environment.count("PATH")) environment["PATH"] = "/usr/local/bin:/usr/bin:/bin";
  environment["HOME"] = home.string();
  environment["TMPDIR"] = temporary.string();
  // The tools a step may use from the user's home, read-only at their own
  // paths (tool_mounts); cargo keeps its locks and downloads in the step's home.
  if (const fs::path rustup = tool_home(inherited, "RUSTUP_HOME", ".rustup"); is_folder(rustup))
    environment["RUSTUP_HOME"] = rustup.string();
  if (const fs::path pyenv = tool_home(inherited, "PYENV_ROOT", ".pyenv"); is_folder(pyenv))
    environment["PYENV_ROOT"] = pyenv.string();
  if (const fs::path user_base = tool_home(inherited, "PYTHONUSERBASE", ".local"); is_folder(user_base / "lib"))
    environment["PYTHONUSERBASE"] = user_base.string();
  environment["CARGO_HOME"] = (home / ".cargo").string();
  if (!settings.network) {
    // Tools that can work from their caches do so instead of trying the network.
    environment["CARGO_NET_OFFLINE"] = "true";
    environment["npm_config_offline"] = "true";
  }
  return environment;
}

std::vector<fs::path> hidden_system_paths(const config::SandboxSettings& settings,
                                          const std::map<std::string, std::string>& inherited) {
  std::vector<fs::path> candidates;
  if (const std::string home = value_of(inherited, "HOME"); !home.empty()) candidates.push_back(home);
  for (const char* path : {"/home", "/root", "/tmp", "/var/tmp", "/run", "/var/run", "/mnt", "/media"})
    candidates.push_back(path);
  candidates.insert(candidates.end(), settings.hidden.begin(), settings.hidden.end());
  std::vector<fs::path> hidden;
  for (const auto& candidate : candidates) {
    const fs::path path = util::absolute_clean(candidate);
    std::error_code error;
    // A symbolic link (/var/run -> /run) is hidden where it points.
    if (is_system_root(path) || fs::is_symlink(path, error) || !fs::exists(path, error)) continue;
    if (std::find(hidden.begin(), hidden.end(), path) == hidden.end()) hidden.push_back(path);
  }
  return hidden;
}

std::vector<Mount> tool_mounts(const config::SandboxSettings& settings,
                               const std::map<std::string, std::string>& inherited, const fs::path& home,
                               const std::vector<fs::path>& hidden, const std::vector<fs::path>& extra) {
  std::vector<Mount> mounts;
  std::set<fs::path> seen;
  const auto readable = [&](const fs::path& path, bool only_when_hidden = true) {
    std::error_code error;
    if (path.empty() || !path.is_absolute() || !fs::exists(path, error)) return;
    if (only_when_hidden && !inside_any(path, hidden)) return;
    if (seen.insert(path).second) mounts.push_back({Mount::Access::read_only, path, {}});
  };
  // What the step's environment points at: the folders on PATH (a `lib`
  // beside a `bin`: what its programs load), CMAKE_PREFIX_PATH, the
  // compilers' and loaders' search paths, the tool homes (RUSTUP_HOME,
  // PYENV_ROOT), the variables hydra.toml adds. Not the step's own HOME,
  // TMPDIR and CARGO_HOME, and of the Python user base only its `lib`.
  const std::map<std::string, std::string> environment =
      step_environment(settings, inherited, home, home.parent_path() / ".hydra-tmp");
  for (const auto& [name, value] : environment) {
    if (name == "HOME" || name == "TMPDIR" || name == "CARGO_HOME" || name == "PYTHONUSERBASE") continue;
    std::size_t start = 0;
    while (start <= value.size()) {
      std::size_t end = value.find(':', start);
      if (end == std::string::npos) end = value.size();
      const fs::path entry = value.substr(start, end - start);
      start = end + 1;
      if (entry.empty() || !entry.is_absolute()) continue;
      const fs::path clean = util::absolute_clean(entry);
      readable(clean);
      if (clean.filename() == "bin" && is_folder(clean.parent_path() / "lib")) readable(clean.parent_path() / "lib");
    }
  }
  if (const auto user_base = environment.find("PYTHONUSERBASE"); user_base != environment.end())
    readable(fs::path(user_base->second) / "lib");
  // cargo's downloaded crates, read-only in the step's own CARGO_HOME; its
  // configuration too, never its credentials.
  const fs::path cargo = tool_home(inherited, "CARGO_HOME", ".cargo");
  for (const char* part : {"registry", "git", "config.toml", "config"}) {
    std::error_code error;
    if (!cargo.empty() && fs::exists(cargo / part, error))
      mounts.push_back({Mount::Access::read_only, home / ".cargo" / part, cargo / part});
  }
  for (const auto& path : settings.read_only) readable(path, false);
  for (const auto& path : extra) readable(path);
  return mounts;
}

std::vector<fs::path> initial_cache_paths(const parse::CMakeCache& initial_cache) {
  std::vector<fs::path> paths;
  for (const parse::CacheEntry& entry : initial_cache.entries) {
    const bool path_type = entry.type == "PATH" || entry.type == "FILEPATH";
    if (!path_type && !util::ends_with(entry.name, "_DIR") && !util::ends_with(entry.name, "_ROOT") &&
        !util::ends_with(entry.name, "_PATH") && !util::ends_with(entry.name, "_FILE"))
      continue;
    std::size_t from = 0;
    while (from <= entry.value.size()) {
      std::size_t to = entry.value.find(';', from);
      if (to == std::string::npos) to = entry.value.size();
      const fs::path path = entry.value.substr(from, to - from);
      from = to + 1;
      std::error_code error;
      if (path.is_absolute() && fs::exists(path, error)) paths.push_back(util::absolute_clean(path));
    }
  }
  return paths;
}

fs::path home_folder_of(const fs::path& temporary) { return temporary.parent_path() / ".hydra-home"; }

void prepare_step_folders(const fs::path& temporary) {
  for (const fs::path& folder : {temporary, home_folder_of(temporary)}) {
    std::error_code ignored;
    fs::remove_all(folder, ignored);
    fs::create_directories(folder);
  }
}

StepLimits step_limits(const config::SandboxSettings& settings, std::uint64_t machine_memory) {
  StepLimits limits;
  if (settings.cpu_seconds > 0) limits.cpu_seconds = settings.cpu_seconds;
  if (!settings.memory_megabytes) {
    if (machine_memory > 0) limits.memory_bytes = machine_memory / 2;
  } else if (*settings.memory_megabytes > 0) {
    limits.memory_bytes = *settings.memory_megabytes * 1024 * 1024;
  }
  if (settings.processes > 0) limits.processes = settings.processes;
  return limits;
}

fs::path seen_path(const std::vector<Mount>& tree_mounts, const fs::path& path) {
  for (auto mount = tree_mounts.rbegin(); mount != tree_mounts.rend(); ++mount) {
    if (mount->source.empty() || mount->access == Mount::Access::hidden || mount->access == Mount::Access::symlink)
      continue;
    if (!util::is_within(path, mount->source)) continue;
    const fs::path inside = path.lexically_relative(mount->source);
    return inside.empty() || inside == "." ? mount->path : mount->path / inside;
  }
  return path;
}

std::vector<Mount> tree_view_mounts(const fs::path& top, const fs::path& top_origin, const fs::path& build,
                                    const fs::path& build_origin, const std::vector<fs::path>& kept) {
  std::vector<Mount> mounts = {{Mount::Access::read_only, top, top_origin}};
  std::vector<fs::path> again;
  for (const auto& path : kept) {
    if (!util::is_within(path, top) || path == top) continue;
    // A folder inside another kept one comes with it.
    if (std::find(again.begin(), again.end(), path) != again.end()) continue;
    again.push_back(path);
  }
  std::sort(again.begin(), again.end());
  for (std::size_t index = 0; index < again.size(); ++index) {
    const bool inside_earlier = std::any_of(again.begin(), again.begin() + static_cast<std::ptrdiff_t>(index),
                                            [&](const fs::path& outer) { return util::is_within(again[index], outer); });
    if (!inside_earlier) mounts.push_back({Mount::Access::read_only, again[index], {}});
  }
  mounts.push_back({Mount::Access::read_write, build, build_origin});
  return mounts;
}

}  // namespace hydra::capture
