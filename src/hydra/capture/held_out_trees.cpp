// The held-out runs' trees (held_out_trees.hpp).
#include <hydra/capture/held_out_trees.hpp>
#include <hydra/capture/cmake/linked_programs.hpp>
#include <hydra/capture/runners/witness.hpp>
#include <hydra/capture/runners/launcher_differential.hpp>

#include <set>

#include <pugixml.hpp>

#include <hydra/capture/runners/test_attempts.hpp>
#include <hydra/capture/trees/tree_snapshot.hpp>
#include <hydra/capture/build_step.hpp>
#include <hydra/capture/profile_steps.hpp>
#include <hydra/capture/test_step.hpp>
#include <hydra/error.hpp>
#include <hydra/parse/diff_lines.hpp>
#include <hydra/pipeline/artifacts.hpp>
#include <hydra/pipeline/test_attempts.hpp>
#include <hydra/util/files.hpp>
#include <hydra/util/git.hpp>
#include <hydra/util/text.hpp>

namespace hydra::capture {
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

/// `xml` without the elements named `element` (their text: test output).
std::string without_elements(std::string xml, const std::string& element) {
  const std::string open = "<" + element, close = "</" + element + ">";
  for (std::size_t at = xml.find(open); at != std::string::npos; at = xml.find(open, at)) {
    const std::size_t next = at + open.size();
    if (next < xml.size() && xml[next] != '>' && xml[next] != ' ' && xml[next] != '/') {
      at = next;
      continue;
    }
    const std::size_t self_closed = xml.find("/>", at);
    const std::size_t tag_end = xml.find('>', at);
    std::size_t end = std::string::npos;
    if (tag_end != std::string::npos && self_closed != std::string::npos && self_closed + 1 == tag_end) end = tag_end + 1;
    else if (const std::size_t closing = xml.find(close, at); closing != std::string::npos) end = closing + close.size();
    if (end == std::string::npos) break;
    xml.erase(at, end - at);
  }
  return xml;
}

/// The framework reports of a run with the private tests (`roles`: path ->
/// role) without what quotes the tests: failure and skip messages and
/// texts (assertions with their values), the cases' file and line, the
/// programs' output. Each case's identity and result stay.
void withhold_case_reports(const fs::path& directory, const json& roles) {
  const std::string withheld = "(withheld: a run with the private tests)";
  for (const auto& [path, role] : roles.items()) {
    if (!role.is_string()) continue;
    const std::string name = role.get<std::string>();
    if (name != "case_report" && name != pipeline::attempt_role("case_report")) continue;
    const fs::path file = directory / path;
    pugi::xml_document document;
    if (!document.load_file(file.c_str())) continue;  // an unparsable report is judged as such where loaded
    std::vector<pugi::xml_node> removed;
    for (const char* element : {"system-out", "system-err"})
      for (const auto& found : document.select_nodes((std::string("//") + element).c_str()))
        removed.push_back(found.node());
    for (auto& node : removed) node.parent().remove_child(node);
    for (const char* element : {"failure", "error", "skipped"})
      for (const auto& found : document.select_nodes((std::string("//") + element).c_str())) {
        pugi::xml_node node = found.node();
        while (node.first_child()) node.remove_child(node.first_child());
        if (node.attribute("message")) node.attribute("message").set_value(withheld.c_str());
      }
    for (const auto& found : document.select_nodes("//testcase")) {
      pugi::xml_node node = found.node();
      node.remove_attribute("file");
      node.remove_attribute("line");
    }
    document.save_file(file.c_str(), "  ");
  }
}

/// Removes what a run with the private tests wrote about their text: the
/// test output in the JUnit file and the logs (compiler messages quote
/// source lines), the framework reports' messages. The results stay.
void keep_only_results(const fs::path& directory, const json& roles) {
  withhold_case_reports(directory, roles);
  const fs::path junit = directory / "junit" / "0.xml";
  if (fs::is_regular_file(junit))
    util::write_file_atomic(junit, without_elements(without_elements(util::read_file(junit), "system-out"), "system-err"));
  for (const char* log : {"build.log", "configure.log", "test.log"}) {
    // cargo test's output is its results (the failure messages stay).
    if (roles.value(log, std::string()) == "libtest_log") continue;
    const fs::path file = directory / log;
    if (fs::is_regular_file(file))
      util::write_file_atomic(file, "(not kept: this run built the private tests)\n");
  }
  keep_only_attempt_results(directory, roles);  // the reruns' files too
  for (const auto& [path, role] : roles.items())  // the plain runs' consoles (launcher_differential.hpp)
    if (role == kPlainLogRole) util::write_file_atomic(directory / path, "(not kept: this run built the private tests)\n");
}

/// `path` without its last `count` components.
fs::path without_last(fs::path path, std::size_t count) {
  for (std::size_t index = 0; index < count; ++index) path = path.parent_path();
  return path;
}

}  // namespace

std::vector<PatchSection> split_patch(const std::string& diff) {
  std::vector<std::size_t> starts;
  if (diff.rfind("diff --git ", 0) == 0) starts.push_back(0);
  for (std::size_t at = diff.find("\ndiff --git "); at != std::string::npos; at = diff.find("\ndiff --git ", at + 1))
    starts.push_back(at + 1);
  std::vector<PatchSection> sections;
  for (std::size_t index = 0; index < starts.size(); ++index) {
    const std::size_t end = index + 1 < starts.size() ? starts[index + 1] : diff.size();
    PatchSection section;
    section.text = diff.substr(starts[index], end - starts[index]);
    const parse::DiffLines lines = parse::parse_diff_lines(section.text, "the change's diff");
    if (lines.files.empty()) continue;
    section.path = lines.files.front().path;
    section.old_path = lines.files.front().old_path;
    section.created = lines.files.front().created;
    sections.push_back(std::move(section));
  }
  return sections;
}


void own_folders(const fs::path& base, const fs::path& folder) {
  fs::path at = base;
  for (const auto& part : folder.lexically_relative(base)) {
    at /= part;
    const auto status = fs::symlink_status(at);  // a symbolic link is never a directory here
    if (fs::is_directory(status)) continue;
    if (status.type() != fs::file_type::not_found) fs::remove_all(at);  // the link, not what it names
    fs::create_directory(at);
  }
}

fs::path prepare_tree(const Plan& plan, const fs::path& root, const std::string& patch,
                      const std::vector<std::string>& emptied, const std::optional<fs::path>& private_patch) {
  // The steps of the candidate's own run could write its build tree, the
  // folders HydraScore runs git and builds in included: made its own again.
  own_folders(plan.build_dir, root);
  own_folders(root, root / "build");
  const fs::path top = util::work_tree_root(plan.source);
  const fs::path worktree = root / "source";
  util::checkout_worktree(top, plan.base_commit, worktree);
  const auto apply = [&](const fs::path& file, const std::string& what) {
    const auto applied = util::run_git(worktree, {"apply", "--whitespace=nowarn", "--binary", file.string()});
    if (applied.exit_code != 0)
      throw Error(what + " does not apply to the base commit: " + std::string(util::trim(applied.error_output + applied.output)));
  };
  if (!patch.empty()) {
    const fs::path file = root / "change.patch";
    util::write_file_atomic(file, patch);
    apply(file, "the change's part for this run");
  }
  for (const auto& relative : emptied) {
    const fs::path file = worktree / relative;
    fs::create_directories(file.parent_path());
    util::write_file_atomic(file, "");
  }
  if (private_patch) apply(*private_patch, "the private test patch " + private_patch->string());
  const fs::path inside = util::absolute_clean(plan.source).lexically_relative(fs::weakly_canonical(top));
  return inside.empty() || inside == "." ? worktree : worktree / inside;
}

json run_tree(const Plan& plan, const CaptureRequest& request, const Sandbox& sandbox, Staging& staging,
              Progress& progress, const fs::path& root, const fs::path& source, const std::string& name,
              bool private_tests) {
  const fs::path build = root / "build";
  const fs::path worktree = root / "source";
  Plan sub = plan;
  sub.source = source;
  sub.build_dir = build;
  sub.keep_going = true;
  sub.excluded = {build};
  sub.change.reset();
  sub.own_cache_writes = false;  // read, never written (own_cache.hpp)
  sub.tree_mounts.clear();
  // The held-out run's improved tests: against the baseline's results with
  // the same tests (its own held-out run, when it ran the private tests).
  sub.improved_against.reset();
  sub.plain_differential = name == "held-out" && request.baseline_run;
  if (sub.plain_differential) {
    const fs::path baseline = util::absolute_clean(*request.baseline_run);
    sub.improved_against =
        private_tests && fs::is_regular_file(baseline / "held-out" / "junit" / "0.xml") ? baseline / "held-out" : baseline;
  }
  std::vector<fs::path> mount_points;  // in the worktree: not files of the tree
  if (sandbox.bwrap && plan.config.profile == "cmake") {
    // The worktree at the candidate's work tree (or source tree), its build
    // tree at the candidate's build tree; HydraScore's own folders inside
    // the candidate's tree (run directories, caches, the initial cache) stay
    // visible at their places.
    const fs::path inside = source.lexically_relative(worktree);
    const std::size_t depth = inside.empty() || inside == "." ? 0 : std::distance(inside.begin(), inside.end());
    const fs::path top = without_last(plan.source, depth);
    std::vector<fs::path> kept = plan.excluded;
    kept.insert(kept.end(), plan.evidence.begin(), plan.evidence.end());
    if (plan.cache_dir) kept.push_back(*plan.cache_dir);
    if (request.initial_cache) kept.push_back(util::absolute_clean(*request.initial_cache));
    // HydraScore itself, where the steps run it (the step reaper, the test launcher).
    if (request.step_runner) kept.push_back(util::absolute_clean(*request.step_runner));
    if (!request.test_launcher.empty()) {
      kept.push_back(util::absolute_clean(request.test_launcher.front()));
      if (const auto witness = find_witness_library(request.test_launcher.front()))
        kept.push_back(util::absolute_clean(*witness));
    }
    std::vector<fs::path> existing;
    for (const auto& path : kept) {
      std::error_code error;
      if (fs::exists(path, error)) existing.push_back(util::absolute_clean(path));
    }
    sub.tree_mounts = tree_view_mounts(top, worktree, plan.build_dir, build, existing);
    for (const auto& path : existing)
      if (util::is_within(path, top) && path != top) mount_points.push_back(worktree / path.lexically_relative(top));
  }
  Staging sub_staging;
  sub_staging.directory = staging.directory / name;
  fs::create_directories(sub_staging.directory);
  // The tree's files, to catch a step that writes one (read-only under the sandbox).
  mount_points.push_back(build);
  const TreeSnapshot before = snapshot_tree(worktree, true, mount_points);
  bool build_passed = false;
  if (plan.config.profile == "cmake") {
    build_passed = run_build(sub, request, sandbox, sub_staging, progress).passed;
    if (build_passed)
      check_linked_programs(sub, request, sandbox, sub_staging, sub.budget.seconds(sub.config.build_timeout_seconds));
    run_tests(sub, request, sandbox, sub_staging, progress);
  } else {
    build_passed = run_profile_build_and_tests(sub, request, sandbox, sub_staging, progress);
  }
  const std::vector<std::string> written = tree_changes(before, snapshot_tree(worktree, true, mount_points));
  if (!written.empty()) {
    std::string list;
    for (std::size_t index = 0; index < written.size() && index < 20; ++index)
      list += (index ? "; " : "") + written[index];
    sub_staging.problem("the source tree changed while its code ran (" + list + ")");
  }
  if (private_tests) {
    keep_only_results(sub_staging.directory, sub_staging.roles);
    // Nor do the private tests' sources stay in the tree.
    util::checkout_worktree(util::work_tree_root(plan.source), plan.base_commit, worktree);
  }
  std::string role_prefix = name;
  for (auto& c : role_prefix)
    if (c == '-') c = '_';
  for (const auto& [relative, role] : sub_staging.roles.items())
    staging.add(name + "/" + relative, role_prefix + "_" + role.get<std::string>());
  std::set<std::string> incomplete;
  for (const auto& step : sub_staging.manifest.value("incomplete_steps", json::array())) {
    const std::string reason = step.value("reason", std::string());
    incomplete.insert(reason);
    staging.incomplete(name + " " + step.value("step", std::string()), name + " run: " + reason);
  }
  if (sub_staging.manifest.contains("problems"))
    for (const auto& problem : sub_staging.manifest["problems"])
      if (problem.is_string() && !incomplete.count(problem.get<std::string>()))
        staging.problem(name + " run: " + problem.get<std::string>());
  json record = {{"build_passed", build_passed},
                 {"build", sub_staging.manifest.value("build", json::object())},
                 {"compiler_cache", sub_staging.manifest.value("caches", json::object()).value("compiler", json::object())},
                 {"steps", sub_staging.manifest.value("steps", json::array())},
                 {"roots", {{"source", sub.seen(source).string()}, {"build", sub.seen(build).string()}}},
                 {"shown_at_candidate_paths", !sub.tree_mounts.empty()},
                 {"launcher_differential", sub_staging.manifest.value("launcher_differential", json())},
                 {"tampering_caught", sub_staging.manifest.value("tampering_caught", json::array())},
                 {"object_references", sub_staging.manifest.value("object_references", json())},
                 {"junit", fs::is_regular_file(sub_staging.directory / "junit" / "0.xml") ||
                               sub_staging.roles.value("test.log", std::string()) == "libtest_log"}};
  return record;
}

}  // namespace hydra::capture
