// Typed reading of manifest.json (manifest.hpp).
#include <hydra/parse/manifest.hpp>

#include <algorithm>
#include <cmath>
#include <limits>

#include <hydra/error.hpp>

namespace hydra::parse {
namespace {

using nlohmann::json;

/// Reads typed values out of one JSON object, naming `pointer` + key in errors.
class Fields {
 public:
  Fields(const json& object, std::string pointer, const std::string& source)
      : object_(object), pointer_(std::move(pointer)), source_(source) {}

  const json* find(const char* key) const {
    const auto found = object_.find(key);
    return found == object_.end() || found->is_null() ? nullptr : &*found;
  }
  [[noreturn]] void wrong(const char* key, const char* expected, const json& value) const {
    throw InputError(source_, "\"" + pointer_ + "/" + key + "\": expected " + expected + ", found " +
                                  value.type_name());
  }
  [[noreturn]] void missing(const char* key) const {
    throw InputError(source_, "\"" + pointer_ + "/" + key + "\": missing");
  }
  void text(const char* key, std::string& into) const {
    if (const json* value = find(key)) {
      if (!value->is_string()) wrong(key, "a string", *value);
      into = value->get<std::string>();
    }
  }
  void text(const char* key, std::optional<std::string>& into) const {
    if (find(key)) text(key, into.emplace());
  }
  void flag(const char* key, bool& into) const {
    if (const json* value = find(key)) {
      if (!value->is_boolean()) wrong(key, "true or false", *value);
      into = value->get<bool>();
    }
  }
  void number(const char* key, double& into) const {
    if (const json* value = find(key)) {
      if (!value->is_number() || !std::isfinite(value->get<double>())) wrong(key, "a number", *value);
      into = value->get<double>();
    }
  }
  void number(const char* key, std::optional<double>& into) const {
    if (find(key)) number(key, into.emplace());
  }
  void integer(const char* key, std::int64_t& into) const {
    if (const json* value = find(key)) {
      if (!value->is_number_integer() || (value->is_number_unsigned() &&
                                          value->get<std::uint64_t>() >
                                              std::uint64_t(std::numeric_limits<std::int64_t>::max())))
        wrong(key, "an integer", *value);
      into = value->get<std::int64_t>();
    }
  }
  void integer(const char* key, std::optional<std::int64_t>& into) const {
    if (find(key)) integer(key, into.emplace());
  }
  void count(const char* key, std::optional<std::uint64_t>& into) const {
    if (const json* value = find(key)) {
      if (!value->is_number_unsigned() && !(value->is_number_integer() && value->get<std::int64_t>() >= 0))
        wrong(key, "a count", *value);
      into = value->get<std::uint64_t>();
    }
  }
  /// The object or array at `key` (checked), or nullptr when absent.
  const json* object(const char* key) const {
    const json* value = find(key);
    if (value && !value->is_object()) wrong(key, "an object", *value);
    return value;
  }
  const json* array(const char* key) const {
    const json* value = find(key);
    if (value && !value->is_array()) wrong(key, "an array", *value);
    return value;
  }
  Fields in(const char* key, const json& value) const { return {value, pointer_ + "/" + key, source_}; }
  Fields at(const char* key, std::size_t index, const json& value) const {
    return {value, pointer_ + "/" + key + "/" + std::to_string(index), source_};
  }
  void texts(const char* key, std::vector<std::string>& into) const {
    const json* list = array(key);
    if (!list) return;
    for (std::size_t index = 0; index < list->size(); ++index) {
      const json& item = (*list)[index];
      if (!item.is_string()) wrong((std::string(key) + "/" + std::to_string(index)).c_str(), "a string", item);
      into.push_back(item.get<std::string>());
    }
  }
  /// An element of an array that must be an object.
  Fields element(const char* key, std::size_t index, const json& item) const {
    if (!item.is_object()) wrong((std::string(key) + "/" + std::to_string(index)).c_str(), "an object", item);
    return at(key, index, item);
  }

 private:
  const json& object_;
  std::string pointer_;
  const std::string& source_;
};

/// `fields`' "object_references": {"sources": {source: [reference]},
/// "test_sources": {...}} or {"problem": ...}.
void read_object_references(const Fields& fields, model::ObjectReferences& into) {
  const json* record = fields.object("object_references");
  if (!record) return;
  const Fields inner = fields.in("object_references", *record);
  inner.text("problem", into.problem);
  for (const auto& [key, target] : {std::pair<const char*, std::optional<model::SourceReferences>*>{
                                        "sources", &into.sources},
                                    {"test_sources", &into.test_sources}}) {
    const json* sources = inner.object(key);
    if (!sources) continue;
    auto& references = target->emplace();
    const Fields by_source = inner.in(key, *sources);
    for (const auto& item : sources->items()) {
      std::vector<std::string> listed;
      by_source.texts(item.key().c_str(), listed);
      references[item.key()].insert(listed.begin(), listed.end());
    }
  }
}

/// `fields`' "launcher_differential": {"tests": [{"test", "plain", "plain_runs"}]}.
void read_plain_results(const Fields& fields, const std::string& run,
                        std::optional<std::vector<model::PlainResult>>& into) {
  const json* record = fields.object("launcher_differential");
  if (!record) return;
  auto& results = into.emplace();
  const Fields inner = fields.in("launcher_differential", *record);
  const json* tests = inner.array("tests");
  if (!tests) return;
  for (std::size_t index = 0; index < tests->size(); ++index) {
    const Fields entry = inner.element("tests", index, (*tests)[index]);
    model::PlainResult result;
    result.run = run;
    std::int64_t runs = 0;
    entry.text("test", result.test);
    entry.text("plain", result.plain);
    entry.integer("plain_runs", runs);
    if (result.test.empty()) entry.missing("test");
    if (result.plain.empty()) entry.missing("plain");
    result.plain_runs = static_cast<int>(std::clamp<std::int64_t>(runs, 0, 1000000));
    results.push_back(std::move(result));
  }
}

/// `fields`' "tampering_caught": [{"test", "message"}], appended to `into`.
void read_caught_tampering(const Fields& fields, const std::string& run, std::vector<model::CaughtTampering>& into) {
  const json* list = fields.array("tampering_caught");
  if (!list) return;
  for (std::size_t index = 0; index < list->size(); ++index) {
    const Fields entry = fields.element("tampering_caught", index, (*list)[index]);
    model::CaughtTampering caught;
    caught.run = run;
    entry.text("test", caught.test);
    entry.text("message", caught.message);
    if (caught.test.empty()) entry.missing("test");
    into.push_back(std::move(caught));
  }
}

/// `fields`' list `name` of {"key", "detail"}; nothing when absent.
void read_differences(const Fields& fields, const char* name, std::optional<std::vector<model::ConfigureDifference>>& into) {
  const json* list = fields.array(name);
  if (!list) return;
  auto& differences = into.emplace();
  for (std::size_t index = 0; index < list->size(); ++index) {
    const Fields entry = fields.element(name, index, (*list)[index]);
    model::ConfigureDifference difference;
    entry.text("key", difference.key);
    entry.text("detail", difference.detail);
    if (difference.key.empty()) entry.missing("key");
    differences.push_back(std::move(difference));
  }
}

/// `fields`' "configure_differential": {"ran", "differences": [{"key", "detail"}]};
/// nothing when it did not run.
void read_configure_differences(const Fields& fields, std::optional<std::vector<model::ConfigureDifference>>& into) {
  const json* record = fields.object("configure_differential");
  if (!record || !record->value("ran", false)) return;
  read_differences(fields.in("configure_differential", *record), "differences", into);
  if (!into) into.emplace();
}

/// What the capture's steps recorded for the anti-gaming checks:
/// "shadowing_headers", "lint_view"/"compiled_changed_files",
/// "object_references", "launcher_differential" and "tampering_caught", the
/// held-out run's too.
void read_evidence_records(const Fields& top, model::RunManifest& manifest) {
  if (const json* list = top.array("shadowing_headers")) {
    for (std::size_t index = 0; index < list->size(); ++index) {
      const Fields fields = top.element("shadowing_headers", index, (*list)[index]);
      std::string header;
      std::string shadows;
      fields.text("header", header);
      fields.text("shadows", shadows);
      manifest.records.shadowing_headers.emplace(std::move(header), std::move(shadows));
    }
  }
  if (const json* view = top.object("lint_view"))
    top.in("lint_view", *view).texts("compiled_changed_files", manifest.records.compiled_changed_files);
  if (const json* list = top.array("compile_flag_suppressions")) {
    for (std::size_t index = 0; index < list->size(); ++index) {
      const Fields fields = top.element("compile_flag_suppressions", index, (*list)[index]);
      model::FlagSuppression flag;
      fields.text("unit", flag.unit);
      fields.text("target", flag.target);
      fields.text("flag", flag.flag);
      if (flag.unit.empty()) fields.missing("unit");
      if (flag.flag.empty()) fields.missing("flag");
      manifest.records.compile_flag_suppressions.push_back(std::move(flag));
    }
  }
  read_object_references(top, manifest.records.object_references);
  read_plain_results(top, "candidate", manifest.records.launcher_differential);
  read_caught_tampering(top, "candidate", manifest.records.tampering_caught);
  read_configure_differences(top, manifest.records.configure_differential);
  if (const json* held = top.object("held_out")) {
    std::optional<std::vector<model::ConfigureDifference>> built;
    read_differences(top.in("held_out", *held), "build_differences", built);
    if (built) manifest.records.held_out_build = std::move(*built);
  }
  if (const json* held = top.object("held_out"))
    if (const json* run = top.in("held_out", *held).object("run")) {
      const Fields fields = top.in("held_out", *held).in("run", *run);
      read_object_references(fields, manifest.records.held_out_object_references);
      std::optional<std::vector<model::PlainResult>> plain;
      read_plain_results(fields, "held-out", plain);
      if (plain) manifest.records.held_out_launcher_differential = std::move(*plain);
      read_caught_tampering(fields, "held-out", manifest.records.tampering_caught);
    }
}

}  // namespace

model::RunManifest parse_manifest(const json& document, const std::string& source_name) {
  if (!document.is_object()) throw InputError(source_name, "a run manifest is a JSON object");
  const Fields top(document, "", source_name);
  model::RunManifest manifest;
  top.text("schema", manifest.schema);
  top.text("engine_version", manifest.engine_version);
  top.text("agent", manifest.agent);
  top.text("task", manifest.task);
  top.text("source_root", manifest.source_root);
  top.texts("source_roots", manifest.source_roots);
  top.text("source_commit", manifest.source_commit);
  top.text("base_commit", manifest.base_commit);
  top.text("build_dir", manifest.build_dir);
  // "capture" describes the capture for people; its two values a later
  // capture reuses are read as they are, never refused.
  if (const auto capture = document.find("capture"); capture != document.end() && capture->is_object()) {
    const json& jobs = capture->value("jobs", json());
    if (jobs.is_number_unsigned() && jobs.get<std::uint64_t>() <= std::numeric_limits<unsigned>::max())
      manifest.capture_jobs = jobs.get<unsigned>();
    const json& folder = capture->value("checkout_folder", json());
    if (folder.is_string()) manifest.checkout_folder = folder.get<std::string>();
  }
  top.text("cache_key", manifest.cache_key);
  top.text("config_digest", manifest.config_digest);
  top.text("sandbox", manifest.sandbox);
  if (const json* confinement = top.object("confinement")) {
    const Fields fields = top.in("confinement", *confinement);
    bool sandboxed = false;
    fields.flag("sandboxed", sandboxed);
    if (confinement->contains("sandboxed")) manifest.sandboxed = sandboxed;
    fields.flag("network", manifest.network);
  }
  top.text("profile", manifest.profile);
  top.text("seal", manifest.seal);
  if (const json* tools = top.object("tools")) {
    const Fields fields = top.in("tools", *tools);
    for (const auto& item : tools->items()) fields.text(item.key().c_str(), manifest.tools[item.key()]);
  }
  top.number("agent_seconds", manifest.agent_seconds);
  if (const json* build = top.object("build"); build && build->contains("exit_code")) {
    const Fields fields = top.in("build", *build);
    auto& into = manifest.build.emplace();
    fields.integer("exit_code", into.exit_code);
    fields.number("seconds", into.seconds);
    fields.flag("timed_out", into.timed_out);
  }
  top.text("build_inactive_reason", manifest.build_inactive_reason);
  top.flag("tests_expected", manifest.tests_expected);
  top.text("lint_inactive_reason", manifest.lint_inactive_reason);
  top.flag("lint_unavailable_outside_tree", manifest.lint_unavailable_outside_tree);
  top.texts("lint_incomplete", manifest.lint_incomplete);
  top.text("diff_inactive_reason", manifest.diff_inactive_reason);
  if (const json* steps = top.array("steps")) {
    for (std::size_t index = 0; index < steps->size(); ++index) {
      const json& step = (*steps)[index];
      if (!step.is_object() || step.value("name", json()) != "lint") continue;
      top.element("steps", index, step).count("translation_units", manifest.lint_units);
    }
  }
  if (const json* security = top.object("security")) {
    const Fields fields = top.in("security", *security);
    fields.flag("ran", manifest.security.ran);
    fields.integer("exit_code", manifest.security.exit_code);
    fields.flag("timed_out", manifest.security.timed_out);
    fields.text("detail", manifest.security.detail);
  }
  top.texts("problems", manifest.problems);
  top.texts("build_inputs_outside_trees", manifest.build_inputs_outside_trees);
  read_evidence_records(top, manifest);
  if (const json* list = top.array("unparsable_artifacts")) {
    for (std::size_t index = 0; index < list->size(); ++index) {
      const Fields fields = top.element("unparsable_artifacts", index, (*list)[index]);
      model::UnparsableArtifact problem;
      problem.reason = "could not be parsed";
      fields.text("path", problem.path);
      fields.text("reason", problem.reason);
      manifest.unparsable_artifacts.push_back(std::move(problem));
    }
  }
  if (const json* caches = top.object("caches")) {
    const Fields fields = top.in("caches", *caches);
    const auto read_cache = [&](const char* name, std::optional<model::ManifestCache>& into) {
      const json* record = fields.object(name);
      if (!record) return;
      const Fields cache = fields.in(name, *record);
      auto& value = into.emplace();
      cache.flag("used", value.used);
      cache.text("reason", value.reason);
      std::optional<std::uint64_t> count;
      for (const auto& [key, target] : {std::pair<const char*, std::uint64_t*>{"hits", &value.hits},
                                        {"misses", &value.misses}, {"uncacheable", &value.uncacheable}}) {
        count.reset();
        cache.count(key, count);
        *target = count.value_or(0);
      }
    };
    read_cache("compiler", manifest.compiler_cache);
    read_cache("lint", manifest.lint_cache);
    if (const json* record = fields.object("shared")) {
      const Fields shared = fields.in("shared", *record);
      auto& value = manifest.shared_cache.emplace();
      shared.text("role", value.role);
      shared.text("unavailable", value.unavailable);
      std::optional<std::uint64_t> count;
      for (const auto& [key, target] : {std::pair<const char*, std::uint64_t*>{"lookups", &value.lookups},
                                        {"hits", &value.hits}, {"writes", &value.writes}}) {
        count.reset();
        shared.count(key, count);
        *target = count.value_or(0);
      }
    }
  }
  if (const json* recaptured = top.object("recaptured")) {
    manifest.recaptured = "captured again";
    top.in("recaptured", *recaptured).text("reason", *manifest.recaptured);
  }
  if (const json* retried = top.object("retried_alone")) {
    manifest.retried_alone = "captured again alone";
    top.in("retried_alone", *retried).text("reason", *manifest.retried_alone);
  }
  if (const json* list = top.array("artifacts")) {
    for (std::size_t index = 0; index < list->size(); ++index) {
      const Fields fields = top.element("artifacts", index, (*list)[index]);
      model::ManifestArtifact artifact;
      fields.text("path", artifact.path);
      fields.text("role", artifact.role);
      fields.text("sha256", artifact.sha256);
      fields.count("size", artifact.size);
      manifest.artifacts.push_back(std::move(artifact));
    }
  }
  return manifest;
}

}  // namespace hydra::parse
