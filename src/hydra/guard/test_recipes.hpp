// The baseline's tests are built and run as the baseline defines them
// (docs/threat-model.md, "Held-out evaluation"): in every run that judges a
// test (the held-out run, the candidate's own run when it is the held-out
// run, the on-baseline run for new tests), its command and every property
// ctest lists, and the program it runs (sources, compile groups, link line)
// are compared with the reference run's. Pure.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include <hydra/guard/guard.hpp>
#include <hydra/model/build_targets.hpp>
#include <hydra/model/run.hpp>
#include <hydra/model/test.hpp>

namespace hydra::guard {

/// One run's tests as its tree defined and built them, and where that tree
/// lay as its steps saw it.
struct TreeTests {
  const std::vector<model::TestDefinition>* definitions = nullptr;  ///< nullptr: not listed
  const model::BuildTargets* targets = nullptr;                      ///< nullptr: not recorded
  std::string source_root;  ///< replaced by "<source>" before comparing
  std::string build_root;   ///< replaced by "<build>" before comparing
};

/// `text` with `root` (at a path boundary: end, "/", "\\" or a quote) replaced by `marker`.
std::string replace_root_in(std::string text, std::string_view root, std::string_view marker);

/// The differences between how `reference` and `judged` define and build
/// each test of `tests` that both list, one finding per test and kind
/// (definition_changed, build_changed), each naming both values; `where`
/// ("held-out run") starts every detail. Paths are compared relative to
/// each tree's roots (the longer root first). A test program is compared
/// by the targets whose artifacts its command names: type, sources, each
/// source's compile group (language, flags, defines, include directories
/// with their SYSTEM flag, precompiled headers, sysroot) and the link line
/// (flags and libraries in order; a project library the reference did not
/// link counts unless a library it links depends on it); when those agree,
/// the generator's build commands of the program (a compiler launcher, the
/// project's own rule variables, pre-link and post-build steps), where both
/// runs recorded them. Build settings the judged run did not record while
/// the reference did are a difference.
std::vector<TamperedTest> compare_test_recipes(const TreeTests& reference, const TreeTests& judged,
                                               const std::vector<std::string>& tests, std::string_view where);

/// Every comparison of how the runs defined and built the tests that judge
/// `candidate` (docs/threat-model.md): the baseline's tests (and the private
/// tests) in the run that judges them against the baseline's own run (its
/// held-out run, when a private test patch made one), that run being the
/// candidate's held-out run (mode "built") or its own (modes "candidate" and
/// "none"); and the candidate's new tests in the on-baseline run against its
/// own run. Runs whose roots or definitions were not recorded are not compared.
std::vector<TamperedTest> find_recipe_changes(const model::Run& baseline, const model::Run& candidate);

}  // namespace hydra::guard
