// Baseline recapture: a baseline whose sealed evidence was written after it
// was sealed (possible only where the sandbox is not in force) is captured
// again from what it recorded, instead of blocking every later score.
#include <hydra/capture/recapture.hpp>
#include <hydra/capture/capture.hpp>
#include <hydra/capture/steps.hpp>

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <iostream>

#include <hydra/error.hpp>
#include <hydra/parse/manifest.hpp>
#include <hydra/pipeline/run_dir.hpp>
#include <hydra/util/files.hpp>

namespace hydra::capture {
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

/// An exclusive flock on a file beside `baseline`, held while it lives:
/// candidates captured in parallel check (and repair) the baseline one at a
/// time, so it is captured again once.
class BaselineLock {
 public:
  explicit BaselineLock(const fs::path& baseline) {
    fs::create_directories(baseline.parent_path());
    const fs::path file = baseline.parent_path() / ("." + baseline.filename().string() + ".lock");
    descriptor_ = ::open(file.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (descriptor_ < 0) throw Error("cannot open " + file.string() + ": " + std::strerror(errno));
    while (::flock(descriptor_, LOCK_EX) != 0) {
      if (errno == EINTR) continue;
      const int error = errno;
      ::close(descriptor_);
      throw Error("cannot lock " + file.string() + ": " + std::strerror(error));
    }
  }
  ~BaselineLock() { ::close(descriptor_); }
  BaselineLock(const BaselineLock&) = delete;
  BaselineLock& operator=(const BaselineLock&) = delete;

 private:
  int descriptor_ = -1;
};

/// The baseline run's manifest with its seal checked and, when the seal is
/// broken, the problem that made recapture() capture it again.
struct BaselineCheck {
  std::optional<model::RunManifest> manifest;
  std::optional<std::string> repaired;
};

/// Captures the baseline at `baseline` again from what it recorded (its seal
/// is broken: `problem`). Throws hydra::Tampered when it cannot.
void recapture(const CaptureRequest& request, const fs::path& baseline, const std::string& problem);

/// recapture_baseline, keeping the manifest it verified: each capture reads
/// its baseline's manifest here, once.
BaselineCheck check_baseline(const CaptureRequest& request) {
  if (!request.baseline_run) return {};
  const fs::path baseline = util::absolute_clean(*request.baseline_run);
  if (!fs::exists(baseline / "manifest.json")) return {};  // the capture reports a missing baseline
  const BaselineLock lock(baseline);
  BaselineCheck check;
  try {
    check.manifest = pipeline::verify_seal(baseline);
    return check;
  } catch (const Tampered& error) {
    check.repaired = error.what();
  }
  recapture(request, baseline, *check.repaired);
  check.manifest = pipeline::verify_seal(baseline);
  return check;
}

void recapture(const CaptureRequest& request, const fs::path& baseline, const std::string& problem) {
  const auto cannot = [&](const std::string& why) {
    return Tampered(problem + "\n" + baseline.string() + " cannot be captured again (" + why +
                       "); capture the baseline again (the hydra_baseline target)");
  };

  // What to reproduce comes only from parts whose seal still holds.
  model::RunManifest manifest;
  std::optional<std::string> diff, config_text;
  try {
    manifest = parse::parse_manifest(pipeline::read_sealed_manifest(baseline), (baseline / "manifest.json").string());
    diff = pipeline::read_sealed_artifact(baseline, manifest, "diff.patch");
    config_text = pipeline::read_sealed_artifact(baseline, manifest, "hydra.toml");
  } catch (const Error& error) {
    throw cannot(error.what());
  }
  const std::string& commit = manifest.source_commit;
  if (commit.empty()) throw cannot("it records no source commit");
  if (manifest.diff_inactive_reason || !diff) throw cannot("it records no diff against its commit");
  const std::string& build_dir = manifest.build_dir;
  const std::string& agent = manifest.agent;

  // The corrupted directory stays beside the new one for review; the inputs
  // recovered from it are copied out first.
  const fs::path kept = baseline.parent_path() / (baseline.filename().string() + ".tampered");
  const fs::path inputs = baseline.parent_path() / (baseline.filename().string() + ".recapture");
  fs::remove_all(kept);
  fs::remove_all(inputs);
  fs::create_directories(inputs);
  CaptureRequest again = request;
  again.baseline_run.reset();
  again.base_ref.clear();
  again.out = baseline;
  // Captured again from its commit, it keeps its trees as every checkout
  // does (steps.hpp, checkout_layout): in the folder it had, or for a
  // baseline captured from a work tree in a folder beside its build tree.
  if (!manifest.checkout_folder.empty()) again.build_dir = manifest.checkout_folder;
  else if (!build_dir.empty()) again.build_dir = build_dir + "-checkout";
  again.agent = agent;
  again.task = manifest.task;
  again.agent_seconds.reset();
  again.metrics.reset();
  again.reuse = false;
  again.checkout = commit;
  again.checkout_patch.reset();
  again.temporary_worktree = false;
  again.retried_alone.clear();
  again.only_if_changed = false;
  again.profile = manifest.profile;
  if (!diff->empty()) {
    util::write_file_atomic(inputs / "diff.patch", *diff);
    again.checkout_patch = inputs / "diff.patch";
  }
  again.config.reset();
  if (config_text) {
    util::write_file_atomic(inputs / "hydra.toml", *config_text);
    again.config = inputs / "hydra.toml";
  }
  again.recapture_reason = problem + " (the corrupted run is kept as " + kept.string() + ")";
  if (request.progress)
    std::cerr << "hydra[" << agent << "]: the baseline's seal is broken, capturing it again from commit "
              << commit.substr(0, 12) << ": " << problem << "\n";
  fs::rename(baseline, kept);
  try {
    capture(again);
  } catch (...) {
    // Never leave the place empty: the corrupted run goes back, still
    // caught by its seal.
    std::error_code ignored;
    if (!fs::exists(baseline, ignored)) fs::rename(kept, baseline, ignored);
    fs::remove_all(inputs, ignored);
    throw;
  }
  fs::remove_all(inputs);
}

}  // namespace

std::optional<std::string> recapture_baseline(const CaptureRequest& request) { return check_baseline(request).repaired; }

std::optional<model::RunManifest> verified_baseline(const CaptureRequest& request) {
  return check_baseline(request).manifest;
}

}  // namespace hydra::capture
