// The compiler cache (compiler_cache.hpp).
#include <hydra/capture/cmake/compiler_cache.hpp>

#include <hydra/parse/cmake_cache.hpp>
#include <hydra/capture/core/plan.hpp>
#include <hydra/util/files.hpp>
#include <hydra/util/process.hpp>
#include <hydra/util/text.hpp>

namespace hydra::capture {
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

/// The deepest folder holding both `a` and `b`; "/" when only the root does.
fs::path common_folder(const fs::path& a, const fs::path& b) {
  fs::path common;
  auto ai = a.begin();
  auto bi = b.begin();
  for (; ai != a.end() && bi != b.end() && *ai == *bi; ++ai, ++bi) common /= *ai;
  return common;
}

bool names_launcher(const parse::CMakeCache& cache) {
  return cache.has("CMAKE_CXX_COMPILER_LAUNCHER") || cache.has("CMAKE_C_COMPILER_LAUNCHER");
}

}  // namespace

CompilerCache prepare_compiler_cache(const Plan& plan, const CaptureRequest& request, const fs::path& build_dir) {
  CompilerCache cache;
  const bool own_launcher =
      names_launcher(plan.initial_cache) || names_launcher(parse::parse_cache_definitions(request.cmake_arguments));
  const auto program = util::find_program("ccache");
  if (own_launcher) cache.reason = "the project sets its own compiler launcher";
  else if (!plan.cache_dir) cache.reason = "caches are off (--no-cache or [cache] enabled = false)";
  else if (!plan.config.cache.compiler) cache.reason = "[cache] compiler = false";
  else if (!program) cache.reason = "ccache is not installed";
  if (!cache.reason.empty()) {
    if (!own_launcher)
      cache.configure_arguments = {"-DCMAKE_C_COMPILER_LAUNCHER=", "-DCMAKE_CXX_COMPILER_LAUNCHER="};
    return cache;
  }
  cache.used = true;
  cache.program = *program;
  cache.directory = *plan.cache_dir / "ccache";
  cache.stats_log = build_dir / ".hydra-ccache-stats.log";
  cache.configure_arguments = {"-DCMAKE_C_COMPILER_LAUNCHER=" + cache.program.string(),
                               "-DCMAKE_CXX_COMPILER_LAUNCHER=" + cache.program.string()};
  // The variables name the trees where the compiler sees them (plan.seen).
  const fs::path seen_source = plan.seen(plan.source);
  const fs::path seen_build = plan.seen(util::absolute_clean(build_dir));
  fs::path base = common_folder(seen_source, seen_build);
  if (base.empty() || base == base.root_path()) base = seen_source;
  cache.environment = {{"CCACHE_DIR", cache.directory.string()},
                       {"CCACHE_BASEDIR", base.string()},
                       {"CCACHE_NOHASHDIR", "1"},
                       {"CCACHE_STATSLOG", plan.seen(cache.stats_log).string()}};
  if (plan.shared_cache && plan.shared_cache->role() == remote::Role::writer) {
    cache.shared_writer = true;
    cache.shared_folder = build_dir / ".hydra-ccache-outbox";
    cache.environment["CCACHE_REMOTE_STORAGE"] = "file:" + plan.seen(cache.shared_folder).string() + "|layout=flat";
    cache.environment["CCACHE_RESHARE"] = "1";
  } else if (plan.shared_cache) {
    cache.shared_folder = *plan.cache_dir / "ccache-shared";
    cache.environment["CCACHE_REMOTE_STORAGE"] = "file:" + cache.shared_folder.string() + "|layout=flat|read-only=true";
    // Only there: ccache copies a remote hit into its local storage even when
    // read-only, which the sandbox refuses (the build would fail). The folder
    // holds every entry a baseline of this base sent, the local ones included.
    cache.environment["CCACHE_REMOTE_ONLY"] = "1";
  }
  if (request.baseline_run) {
    cache.read_only = true;
    cache.environment["CCACHE_READONLY"] = "1";
    // Direct mode looks an object up by the files the unit included when
    // the baseline compiled it; a file of the change that is new earlier in
    // the include path (a `src/cstdio`) is not among them, so the baseline's
    // object would be served for a unit that now compiles to another one.
    // The preprocessor mode hashes what the unit preprocesses to.
    cache.direct_mode = false;
    cache.environment["CCACHE_NODIRECT"] = "1";
    cache.environment["CCACHE_TEMPDIR"] = (seen_build / ".hydra-ccache-tmp").string();
  }
  return cache;
}

CompilerCacheStats parse_stats_log(std::string_view log) {
  CompilerCacheStats stats;
  for (const std::string_view line : util::split(log, '\n')) {
    if (line.rfind("# ", 0) == 0) ++stats.calls;
    else if (line == "direct_cache_hit" || line == "preprocessed_cache_hit") ++stats.hits;
    else if (line == "cache_miss") ++stats.misses;
    else if (line == "remote_storage_hit") ++stats.remote_hits;
    else if (line == "remote_storage_miss") ++stats.remote_misses;
    else if (line == "remote_storage_write") ++stats.remote_writes;
  }
  return stats;
}

json to_json(const CompilerCache& cache, const CompilerCacheStats& stats, const CompilerCacheStats& own) {
  json record = {{"used", cache.used}};
  if (!cache.used) {
    record["reason"] = cache.reason;
    return record;
  }
  record["program"] = cache.program.string();
  record["directory"] = cache.directory.string();
  record["basedir"] = cache.environment.at("CCACHE_BASEDIR");
  record["read_only"] = cache.read_only;
  record["direct_mode"] = cache.direct_mode;
  record["compilations"] = stats.calls;
  record["hits"] = stats.hits;
  record["misses"] = stats.misses;
  const std::uint64_t looked_up = stats.hits + stats.misses;
  record["hit_rate"] = looked_up == 0 ? json(nullptr) : json(double(stats.hits) / double(looked_up));
  if (!cache.shared_folder.empty()) {
    record["shared"] = {{"role", cache.shared_writer ? "writer" : "reader"},
                        {"remote_hits", stats.remote_hits},
                        {"remote_misses", stats.remote_misses}};
  }
  if (!cache.own_role.empty()) {
    // Its ccache runs only for what the first one missed, on the own
    // cache's storage alone: its hits are compilations served from there.
    record["own"] = {{"role", cache.own_role}, {"lookups", own.calls}, {"hits", own.remote_hits}};
    if (cache.own_role == "writer") record["own"]["stored"] = own.remote_writes;
  } else if (!cache.own_reason.empty()) {
    record["own"] = {{"role", "none"}, {"reason", cache.own_reason}};
  }
  return record;
}

std::string shared_compiler_index(const std::string& commit) {
  return "ccache-" + (commit.empty() ? std::string("none") : commit);
}

json prepare_shared_compiler_cache(const Plan& plan, CompilerCache& cache, std::vector<fs::path>& readable) {
  if (cache.shared_folder.empty() || !plan.shared_cache) return json::object();
  std::error_code ignored;
  if (cache.shared_writer) {
    // ccache fills it with this build's results; nothing of an earlier build.
    fs::remove_all(cache.shared_folder, ignored);
    fs::create_directories(cache.shared_folder, ignored);
    return json::object();
  }
  fs::create_directories(cache.shared_folder, ignored);
  readable.push_back(cache.shared_folder);
  const auto transfer =
      remote::fetch_folder(*plan.shared_cache, shared_compiler_index(plan.base_commit), cache.shared_folder);
  if (transfer.files == 0) {
    // No index (the service unreachable, or no baseline of this base sent
    // one): ccache keeps its local cache, as without a shared cache.
    cache.environment.erase("CCACHE_REMOTE_STORAGE");
    cache.environment.erase("CCACHE_REMOTE_ONLY");
  }
  return {{"index_files", transfer.files},
          {"fetched", transfer.fetched},
          {"present", transfer.present},
          {"missing", transfer.missing}};
}

void publish_shared_compiler_cache(const Plan& plan, const CompilerCache& cache, const json& fetched, json& record) {
  if (cache.shared_folder.empty() || !plan.shared_cache) return;
  json& shared = record["shared"];
  shared.update(fetched);
  if (cache.shared_writer) {
    const auto transfer =
        remote::publish_folder(*plan.shared_cache, cache.shared_folder, shared_compiler_index(plan.source_commit));
    shared["sent"] = transfer.files;
    std::error_code ignored;
    fs::remove_all(cache.shared_folder, ignored);
  }
  const auto stats = plan.shared_cache->stats();
  if (!stats.unavailable.empty()) shared["unavailable"] = stats.unavailable;
}

}  // namespace hydra::capture
