// What a capture's caches did, in one line (caches_summary.hpp).
#include <hydra/pipeline/caches_summary.hpp>

namespace hydra::pipeline {

std::string caches_summary(const model::RunManifest& manifest) {
  const auto describe = [](const std::optional<model::ManifestCache>& cache, const std::string& label,
                           const char* what, bool count_uncacheable) -> std::string {
    if (!cache) return {};
    if (!cache->used) return label + ": off" + (cache->reason.empty() ? "" : " (" + cache->reason + ")");
    const std::uint64_t total = cache->hits + cache->misses + (count_uncacheable ? cache->uncacheable : 0);
    return label + ": " + std::to_string(cache->hits) + " of " + std::to_string(total) + " " + what +
           " from the cache";
  };
  std::string out;
  for (const auto& part : {describe(manifest.compiler_cache, "ccache", "compilations", false),
                           describe(manifest.lint_cache, "lint", "translation units", true)}) {
    if (part.empty()) continue;
    out += (out.empty() ? "" : "; ") + part;
  }
  if (const auto& shared = manifest.shared_cache) {
    // How many lookups went to the shared cache and how many hit (docs/caches.md).
    std::string part = "shared cache (" + shared->role + "): " + std::to_string(shared->hits) + " of " +
                       std::to_string(shared->lookups) + " lookups hit";
    if (shared->writes) part += ", " + std::to_string(shared->writes) + " entries sent";
    if (!shared->unavailable.empty()) part += "; unavailable: " + shared->unavailable;
    out += (out.empty() ? "" : "; ") + part;
  }
  return out;
}

}  // namespace hydra::pipeline
