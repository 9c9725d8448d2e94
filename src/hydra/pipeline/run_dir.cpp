// Sealing and publishing a run directory, and reading its manifest and
// sealed files back (run_dir.hpp). Loading its artifacts into a model::Run is
// in run_load.cpp.
#include <hydra/pipeline/run_dir.hpp>

#include <fcntl.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <set>
#include <system_error>

#include <hydra/error.hpp>
#include <hydra/parse/json_error.hpp>
#include <hydra/parse/manifest.hpp>
#include <hydra/util/files.hpp>
#include <hydra/util/sha256.hpp>

namespace hydra::pipeline {
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

std::string manifest_seal(json manifest) {
  manifest.erase("seal");
  return util::sha256_hex(manifest.dump());
}

bool is_run_directory(const fs::path& dir) {
  std::error_code ec;
  return fs::is_regular_file(dir / kManifest, ec);
}

bool is_empty_directory(const fs::path& dir) {
  std::error_code ec;
  return fs::is_directory(dir, ec) && fs::is_empty(dir, ec);
}

}  // namespace

fs::path make_staging_sibling(const fs::path& out) {
  const fs::path parent = out.has_parent_path() ? out.parent_path() : fs::path(".");
  fs::create_directories(parent);
  std::string pattern = (parent / ("." + out.filename().string() + ".tmp-XXXXXX")).string();
  if (::mkdtemp(pattern.data()) == nullptr)
    throw Error("cannot create a temporary directory next to " + out.string() + ": " +
                std::strerror(errno));
  return pattern;
}

void publish_run_directory(const fs::path& staged, const fs::path& out) {
  std::error_code ec;
  if (fs::exists(out, ec)) {
    if (!is_run_directory(out) && !is_empty_directory(out)) {
      fs::remove_all(staged, ec);
      throw UsageError(out.string() + ": exists and is not a run directory; refusing to replace it");
    }
#ifdef RENAME_EXCHANGE
    // Swap the two in one step (`out` is never missing), then drop the old
    // run from the staging path, where a crash would leave it for the next
    // capture to remove (docs/run-directory.md).
    if (::renameat2(AT_FDCWD, staged.c_str(), AT_FDCWD, out.c_str(), RENAME_EXCHANGE) == 0) {
      fs::remove_all(staged, ec);
      return;
    }
#endif
    // Move the old run aside, move the new one in, then drop the old one.
    const fs::path trash = make_staging_sibling(out);
    fs::remove(trash, ec);
    fs::rename(out, trash);
    fs::rename(staged, out);
    fs::remove_all(trash, ec);
  } else {
    fs::rename(staged, out);
  }
}

void seal_and_publish(const fs::path& staged, json manifest, const fs::path& out) {
  // Digest every artifact in the staged directory.
  json artifacts = json::array();
  std::vector<fs::path> files;
  for (const auto& entry : fs::recursive_directory_iterator(staged)) {
    if (entry.is_regular_file() && entry.path().filename() != kManifest) files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  const json roles = manifest.value("artifact_roles", json::object());
  for (const auto& file : files) {
    const std::string relative = fs::relative(file, staged).generic_string();
    artifacts.push_back({{"path", relative},
                         {"role", roles.value(relative, std::string("other"))},
                         {"sha256", util::sha256_file(file)},
                         {"bytes", fs::file_size(file)}});
  }
  manifest.erase("artifact_roles");
  manifest["artifacts"] = artifacts;
  manifest["seal"] = manifest_seal(manifest);
  util::write_file_atomic(staged / kManifest, manifest.dump(2) + "\n");
  publish_run_directory(staged, out);
}

json read_manifest(const fs::path& run_dir) {
  const fs::path file = run_dir / kManifest;
  std::error_code ec;
  if (!fs::is_directory(run_dir, ec)) throw InputError(run_dir.string(), "not a directory (expected a run directory)");
  if (!fs::exists(file, ec))
    throw InputError(file.string(), "missing: " + run_dir.string() + " is not a HydraScore run directory");
  const std::string text = util::read_file(file);
  json manifest = parse::parse_json_document(text, file.string());
  if (!manifest.is_object() || manifest.value("schema", std::string()) != kSchema)
    throw InputError(file.string(), std::string("not a run manifest (expected \"schema\": \"") + kSchema + "\")");
  if (!manifest.contains("artifacts") || !manifest["artifacts"].is_array())
    throw InputError(file.string(), "manifest has no \"artifacts\" list");
  return manifest;
}

model::RunManifest read_run_manifest(const fs::path& run_dir) {
  return parse::parse_manifest(read_manifest(run_dir), (run_dir / kManifest).string());
}

json read_sealed_manifest(const fs::path& run_dir) {
  json manifest = read_manifest(run_dir);
  if (manifest.value("seal", std::string()) != manifest_seal(manifest))
    throw Tampered((run_dir / kManifest).string() + ": manifest was modified after it was sealed");
  return manifest;
}

namespace {

/// Throws hydra::Tampered unless `file` exists and its content has the
/// digest `sha256` that `manifest_file` sealed.
void check_sealed_file(const fs::path& file, const std::string& sha256, const fs::path& manifest_file) {
  std::error_code ec;
  if (!fs::is_regular_file(file, ec)) throw Tampered(file.string() + ": sealed artifact is missing");
  if (util::sha256_file(file) != sha256)
    throw Tampered(file.string() + ": content does not match the digest sealed in " + manifest_file.string());
}

}  // namespace

std::optional<std::string> read_sealed_artifact(const fs::path& run_dir, const model::RunManifest& manifest,
                                                const std::string& relative) {
  for (const auto& artifact : manifest.artifacts) {
    if (artifact.path != relative) continue;
    check_sealed_file(run_dir / relative, artifact.sha256, run_dir / kManifest);
    return util::read_file(run_dir / relative);
  }
  return std::nullopt;
}

model::RunManifest verify_seal(const fs::path& run_dir) {
  // Typed: a forged manifest (anyone can compute a seal) with an artifact of
  // the wrong shape is an input error, not an internal one.
  model::RunManifest manifest = parse::parse_manifest(read_sealed_manifest(run_dir), (run_dir / kManifest).string());
  verify_sealed_artifacts(run_dir, manifest);
  return manifest;
}

void verify_sealed_artifacts(const fs::path& run_dir, const model::RunManifest& manifest) {
  const fs::path manifest_file = run_dir / kManifest;
  std::set<std::string> listed;
  for (const auto& artifact : manifest.artifacts) {
    const std::string& relative = artifact.path;
    if (relative.empty() || relative.find("..") != std::string::npos || relative.front() == '/')
      throw Tampered(manifest_file.string() + ": invalid artifact path \"" + relative + "\"");
    listed.insert(relative);
    check_sealed_file(run_dir / relative, artifact.sha256, manifest_file);
  }
  for (const auto& entry : fs::recursive_directory_iterator(run_dir)) {
    if (!entry.is_regular_file() && !entry.is_symlink()) continue;
    const std::string relative = fs::relative(entry.path(), run_dir).generic_string();
    if (relative == kManifest) continue;
    if (!listed.count(relative))
      throw Tampered(entry.path().string() + ": file is not listed in the sealed manifest");
  }
}

std::optional<bool> ran_sandboxed(const model::RunManifest& manifest) {
  if (manifest.sandboxed) return manifest.sandboxed;
  // Captures before "confinement" was recorded: their description says.
  if (!manifest.sandbox.empty()) return manifest.sandbox.rfind("bubblewrap", 0) == 0;
  return std::nullopt;
}

config::Config load_config(const fs::path& run_dir) {
  const fs::path file = run_dir / "hydra.toml";
  std::error_code ec;
  if (fs::is_regular_file(file, ec)) return config::load(file);
  return config::Config{};
}

}  // namespace hydra::pipeline
