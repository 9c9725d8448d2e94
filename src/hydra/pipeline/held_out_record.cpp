// The manifest's "held_out" record (held_out_record.hpp).
#include <hydra/pipeline/held_out_record.hpp>

namespace hydra::pipeline {

using nlohmann::json;

model::HeldOut read_held_out_record(const json& manifest) {
  model::HeldOut record;
  const auto held = manifest.find("held_out");
  if (held == manifest.end() || !held->is_object()) return record;
  const auto text = [](const json& object, const char* key) {
    const auto found = object.find(key);
    return found != object.end() && found->is_string() ? found->get<std::string>() : std::string();
  };
  const auto passed = [](const json& object) {
    const auto run = object.find("run");
    if (run == object.end() || !run->is_object()) return false;
    const auto built = run->find("build_passed");
    return built != run->end() && built->is_boolean() && built->get<bool>();
  };
  // Where a run saw its tree ({"run": {"roots": {"source", "build"}}}).
  const auto roots = [&](const json& object) {
    std::pair<std::string, std::string> found;
    const auto run = object.find("run");
    if (run == object.end() || !run->is_object()) return found;
    const auto recorded = run->find("roots");
    if (recorded == run->end() || !recorded->is_object()) return found;
    return std::make_pair(text(*recorded, "source"), text(*recorded, "build"));
  };
  record.mode = text(*held, "mode").empty() ? "none" : text(*held, "mode");
  record.roots = roots(*held);
  if (const auto names = held->find("private_tests"); names != held->end() && names->is_array())
    for (const auto& name : *names)
      if (name.is_string()) record.private_tests.push_back(name.get<std::string>());
  record.reason = text(*held, "reason");
  record.build_passed = passed(*held);
  if (const auto files = held->find("test_files_changed"); files != held->end() && files->is_array())
    for (const auto& file : *files)
      if (file.is_string()) record.test_files_changed.push_back(file.get<std::string>());
  if (const auto fresh = held->find("new_tests"); fresh != held->end() && fresh->is_object()) {
    record.new_tests_mode = text(*fresh, "mode").empty() ? "none" : text(*fresh, "mode");
    record.on_baseline_build_passed = passed(*fresh);
    record.on_baseline_roots = roots(*fresh);
  }
  if (const auto patch = held->find("private_test_patch"); patch != held->end() && patch->is_object()) {
    record.private_test_patch_configured = true;
    record.private_test_patch =
        patch->contains("applied") && (*patch)["applied"].is_boolean() && (*patch)["applied"].get<bool>();
    record.private_test_patch_problem = text(*patch, "problem");
    if (!record.private_test_patch && record.private_test_patch_problem.empty())
      record.private_test_patch_problem = text(*held, "problem");
  }
  return record;
}

}  // namespace hydra::pipeline
