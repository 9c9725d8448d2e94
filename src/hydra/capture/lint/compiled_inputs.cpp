// Inputs of compiled units unchanged since their compile (lint/compiled_inputs.hpp).
#include <hydra/capture/lint/compiled_inputs.hpp>

#include <sys/stat.h>

#include <algorithm>
#include <set>
#include <unordered_map>

#include <hydra/capture/cmake/codemodel.hpp>
#include <hydra/util/files.hpp>
#include <hydra/util/git.hpp>
#include <hydra/util/text.hpp>

namespace hydra::capture {
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

FileTime file_time(const fs::path& file) {
  FileTime time;
  time.checked = true;
  struct stat status {};
  if (::stat(file.c_str(), &status) != 0) return time;
  time.exists = true;
  // The later of its modification and its status change: a step can set
  // the first back (`touch -d`), never the second (a rewrite, a rename
  // onto it, a `utimensat` all set it to the clock's now).
  const std::int64_t modified = static_cast<std::int64_t>(status.st_mtim.tv_sec) * 1000000000 + status.st_mtim.tv_nsec;
  const std::int64_t changed = static_cast<std::int64_t>(status.st_ctim.tv_sec) * 1000000000 + status.st_ctim.tv_nsec;
  time.modified = std::max(modified, changed);
  return time;
}

/// The files a deps log names, on HydraScore's side, each worked out once
/// (the same headers recur in every entry), and whether they lie in the
/// trees (the build tree or the work tree): only those are any step's to write.
class DepsFiles {
 public:
  explicit DepsFiles(const Plan& plan)
      : plan_(plan),
        seen_build_(plan.seen(plan.build_dir)),
        top_(plan.in_git ? util::work_tree_root(plan.source) : plan.source) {}

  struct File {
    fs::path path;
    bool in_trees = false;
  };
  const File& operator()(const std::string& named) {
    auto [at, added] = known_.try_emplace(named);
    if (added) {
      const fs::path path(named);
      at->second.path = util::absolute_clean(host_path(plan_.tree_mounts, path.is_absolute() ? path : seen_build_ / path));
      at->second.in_trees = util::is_within(at->second.path, plan_.build_dir) || util::is_within(at->second.path, top_);
    }
    return at->second;
  }
  const fs::path& top() const { return top_; }

 private:
  const Plan& plan_;
  fs::path seen_build_, top_;
  std::unordered_map<std::string, File> known_;
};

}  // namespace

fs::path host_path(const std::vector<Mount>& tree_mounts, const fs::path& seen) {
  for (auto mount = tree_mounts.rbegin(); mount != tree_mounts.rend(); ++mount) {
    if (mount->source.empty() || mount->access == Mount::Access::hidden) continue;
    if (!util::is_within(seen, mount->path)) continue;
    const fs::path inside = seen.lexically_relative(mount->path);
    return inside.empty() || inside == "." ? mount->source : mount->source / inside;
  }
  return seen;
}

std::vector<NinjaDepsEntry> parse_ninja_deps(std::string_view deps) {
  std::vector<NinjaDepsEntry> entries;
  for (std::string_view line : util::split(deps, '\n')) {
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.empty()) continue;
    if (line.front() != ' ') {
      const std::size_t marker = line.find(": #deps ");
      if (marker == std::string_view::npos) {
        entries.push_back({});  // not an entry: its lines belong to none
        entries.back().object.clear();
        continue;
      }
      NinjaDepsEntry entry;
      entry.object = std::string(line.substr(0, marker));
      const std::size_t at = line.find("deps mtime ", marker);
      if (at != std::string_view::npos) {
        std::int64_t value = 0;
        for (std::size_t index = at + 11; index < line.size() && line[index] >= '0' && line[index] <= '9'; ++index)
          value = value * 10 + (line[index] - '0');
        entry.recorded = value;
      }
      entries.push_back(std::move(entry));
      continue;
    }
    if (entries.empty() || entries.back().object.empty()) continue;
    const std::size_t start = line.find_first_not_of(' ');
    if (start != std::string_view::npos) entries.back().inputs.emplace_back(line.substr(start));
  }
  entries.erase(std::remove_if(entries.begin(), entries.end(),
                               [](const NinjaDepsEntry& entry) { return entry.object.empty(); }),
                entries.end());
  return entries;
}

bool later_than_recorded(std::int64_t time, std::int64_t recorded) {
  constexpr std::int64_t kSecondsBelow = 1000000000000;  // 10^12: a time in seconds (Ninja before 1.9)
  if (recorded < kSecondsBelow) return time / 1000000000 > recorded;
  return time > recorded;
}

AlteredCompile altered_compile(const NinjaDepsEntry& entry, const std::function<FileTime(const std::string&)>& time_of) {
  AlteredCompile altered;
  const FileTime object = time_of(entry.object);
  if (object.checked && (!object.exists || later_than_recorded(object.modified, entry.recorded)))
    altered.object_rewritten = true;
  for (const auto& input : entry.inputs) {
    const FileTime now = time_of(input);
    if (!now.checked) continue;
    if (!now.exists) altered.missing.push_back(input);
    else if (later_than_recorded(now.modified, entry.recorded)) altered.changed.push_back(input);
  }
  return altered;
}

void check_compiled_inputs(const Plan& plan, const std::vector<fs::path>& units,
                           const std::optional<std::string>& deps, Staging& staging) {
  if (!deps) {
    staging.manifest["compiled_inputs"] = {{"problem", "not a Ninja build tree, or ninja cannot list its deps log"}};
    return;
  }
  DepsFiles files(plan);
  const fs::path& top = files.top();
  const std::set<fs::path> lint_units(units.begin(), units.end());
  // A path of the deps log -> the file on HydraScore's side.
  const auto file_of = [&](const std::string& named) -> const fs::path& { return files(named).path; };
  // As the manifest shows it: relative to the top, or <build>/...
  const auto shown = [&](const fs::path& file) {
    if (util::is_within(file, plan.build_dir))
      return "<build>/" + file.lexically_relative(plan.build_dir).generic_string();
    if (util::is_within(file, top)) return file.lexically_relative(top).generic_string();
    return file.generic_string();
  };
  // Only the trees are looked at: the system's files are no step's to write.
  // Each file is looked at once per check.
  std::unordered_map<std::string, FileTime> times;
  const auto time_of = [&](const std::string& named) {
    auto [at, added] = times.try_emplace(named);
    if (added) {
      const DepsFiles::File& file = files(named);
      if (file.in_trees) at->second = file_time(file.path);
    }
    return at->second;
  };
  std::size_t checked = 0;
  json altered = json::array();
  std::string listed;
  for (const NinjaDepsEntry& entry : parse_ninja_deps(*deps)) {
    std::vector<std::string> read_units;
    for (const auto& input : entry.inputs)
      if (const fs::path file = file_of(input); lint_units.count(file)) read_units.push_back(shown(file));
    if (read_units.empty()) continue;  // no unit lint reads
    ++checked;
    const AlteredCompile found = altered_compile(entry, time_of);
    if (!found.any()) continue;
    json changed = json::array(), missing = json::array();
    for (const auto& input : found.changed) changed.push_back(shown(file_of(input)));
    for (const auto& input : found.missing) missing.push_back(shown(file_of(input)));
    const std::string object = shown(file_of(entry.object));
    altered.push_back({{"object", object}, {"units", read_units}, {"changed", changed}, {"missing", missing},
                       {"object_rewritten", found.object_rewritten}});
    std::string files;
    for (const auto& file : changed) files += (files.empty() ? "" : ", ") + file.get<std::string>() + " (changed)";
    for (const auto& file : missing) files += (files.empty() ? "" : ", ") + file.get<std::string>() + " (gone)";
    if (found.object_rewritten) files += (files.empty() ? "" : ", ") + object + " (the object itself)";
    listed += (listed.empty() ? "" : "; ") + read_units.front() + ": " + files;
  }
  staging.manifest["compiled_inputs"] = {{"objects_checked", checked}, {"altered", altered}};
  if (plan.baseline && !listed.empty())
    staging.problem("lint does not see what the build compiled: files the compile read changed or vanished after "
                    "the object was compiled: " + listed);
}

bool recheck_compiled_inputs(const Plan& plan, const std::vector<fs::path>& units,
                             const std::optional<std::string>& deps, Staging& staging) {
  Staging after;
  after.directory = staging.directory;
  check_compiled_inputs(plan, units, deps, after);
  const nlohmann::json before = staging.manifest.value("problems", nlohmann::json::array());
  bool held = true;
  for (const auto& problem : after.manifest.value("problems", nlohmann::json::array()))
    if (std::find(before.begin(), before.end(), problem) == before.end()) {
      staging.problem(problem.get<std::string>());
      held = false;
    }
  if (after.manifest.contains("compiled_inputs")) {
    const nlohmann::json& found = after.manifest["compiled_inputs"];
    if (found.contains("altered") && !found["altered"].empty()) held = false;
    staging.manifest["compiled_inputs"] = found;
  }
  return held;
}

std::optional<std::int64_t> file_system_now(const fs::path& marker) {
  try {
    util::write_file_atomic(marker, "");
  } catch (const std::exception&) {
    return std::nullopt;
  }
  const FileTime time = file_time(marker);
  return time.exists ? std::optional<std::int64_t>(time.modified) : std::nullopt;
}

bool unchanged_since(const Plan& plan, const std::vector<fs::path>& units, const std::optional<std::string>& deps,
                     std::int64_t since, const std::vector<fs::path>& also) {
  if (!deps) return false;
  DepsFiles files(plan);
  // Written in the same tick as `since` counts as after it.
  const auto older = [&](const fs::path& file) {
    const FileTime time = file_time(file);
    return time.exists && time.modified < since;
  };
  std::unordered_map<std::string, bool> unchanged;  // each file of the trees looked at once
  const std::set<fs::path> lint_units(units.begin(), units.end());
  std::set<fs::path> uncovered = lint_units;
  for (const NinjaDepsEntry& entry : parse_ninja_deps(*deps)) {
    bool reads_unit = false;
    for (const auto& input : entry.inputs) {
      const fs::path& file = files(input).path;
      if (lint_units.count(file) == 0) continue;
      reads_unit = true;
      uncovered.erase(file);
    }
    if (!reads_unit) continue;
    for (const auto& input : entry.inputs) {
      const DepsFiles::File& file = files(input);
      if (!file.in_trees) continue;
      auto [at, added] = unchanged.try_emplace(input);
      if (added) at->second = older(file.path);
      if (!at->second) return false;
    }
  }
  return uncovered.empty() && std::all_of(also.begin(), also.end(), older);
}

}  // namespace hydra::capture
