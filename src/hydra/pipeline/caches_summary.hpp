// The one-line account of what a capture's caches did, for the reports
// (model::Run::caches): ccache, the lint cache and the shared cache.
#pragma once

#include <string>

#include <hydra/model/manifest.hpp>

namespace hydra::pipeline {

/// "ccache: 12 of 12 compilations from the cache; lint: ...; shared cache
/// (reader): 12 of 14 lookups hit"; empty when the manifest names no cache. Pure.
std::string caches_summary(const model::RunManifest& manifest);

}  // namespace hydra::pipeline
