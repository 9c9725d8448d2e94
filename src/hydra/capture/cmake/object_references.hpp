// What the objects of a built tree reference of process control and
// self-inspection (guard/process_references.hpp's catalogue), read from the
// files the build produced, not from the sources: each object's undefined
// symbols (binutils `nm`) and the strings of its data sections (binutils
// `strings -d`), whether its own instructions enter the kernel
// (system_calls.hpp), and its global definitions of what the test objects or the
// C and C++ runtime libraries the build's compiler links against define too
// (guard::harness_definitions, guard::interposed_definitions). The objects are those Ninja's logs name: every object with
// dependency information (the codemodel's, keyed by the source the deps log
// names first) and every other `.o`/`.obj` a build statement produces (a
// custom command's, keyed by its own path). Runs outside the sandbox after the
// build, reading files only. manifest.json's `object_references`.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <hydra/capture/core/staging.hpp>
#include <hydra/capture/cmake/test_files.hpp>
#include <hydra/guard/process_references.hpp>

namespace hydra::capture {

struct ObjectScan {
  /// Source (relative to the work tree's top level; "<build>/..." for a file
  /// of the build tree; absolute elsewhere) -> the catalogue references of
  /// its objects; sources without any are left out.
  guard::ObjectReferences references;
  /// The same for the objects of test sources, every scanned source listed
  /// (with no references too): scoring compares the baseline's tests
  /// compiled against a candidate's code with the baseline's own.
  guard::ObjectReferences test_references;
  std::size_t objects = 0;  ///< how many objects were read
  std::string problem;      ///< why nothing could be read (not Ninja, no nm); empty when read
};

/// Scans the objects of the Ninja build tree `build_dir` (HydraScore's side),
/// whose steps saw it at `seen_build` and the work tree's top level at
/// `seen_top`; only the objects whose source `judged` accepts (code, not
/// tests) are read. `compiler`: whose runtime libraries' exports count
/// (runtime_exports.hpp, user_compiler; empty: user_compiler of no initial cache).
/// `cache_dir`: the captures' caches, which no step sees; each object's
/// readings are kept there by content (object_readings.hpp), trimmed to
/// `cache_max_bytes`.
ObjectScan scan_object_references(const std::filesystem::path& build_dir, const std::filesystem::path& seen_build,
                                  const std::filesystem::path& seen_top,
                                  const std::function<bool(const std::string& source)>& judged,
                                  const std::string& compiler = {},
                                  const std::optional<std::filesystem::path>& cache_dir = std::nullopt,
                                  std::uint64_t cache_max_bytes = std::uint64_t(256) << 20);

/// Scans the built tree of `plan` and records manifest.json's
/// `object_references` ({"objects": N, "sources": {source: [reference, ...]},
/// "test_sources": {test source: [reference, ...]}}, or {"problem": why}). Test files are left out: the baseline's
/// classification decides where `request` names a baseline run
/// (is_test_file_of_change), else `own_files` and the configured globs.
void record_object_references(const Plan& plan, const CaptureRequest& request, const TestFiles& own_files,
                              Staging& staging);

}  // namespace hydra::capture
