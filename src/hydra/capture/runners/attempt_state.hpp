// The state every test attempt starts from (docs/formulas.md, "Flaky tests";
// docs/threat-model.md, "Code under test vouching for itself"): the build
// tree as it was before the first attempt ran. Before each later attempt,
// every file and folder an earlier attempt created in the tree is removed;
// a file an earlier attempt changed in place or deleted cannot be put back
// (HydraScore keeps no copy of a build tree), and a candidate's later
// attempts are then not believed (test_attempts.hpp).
#pragma once

#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

#include <hydra/capture/trees/tree_snapshot.hpp>

namespace hydra::capture {

/// What a build tree holds: its files' stamps (relative path -> stamp) and
/// its folders, without the `excluded` folders (absolute).
struct BuildTreeState {
  std::filesystem::path root;
  std::vector<std::filesystem::path> excluded;
  std::map<std::string, FileStamp> files;
  std::set<std::string> folders;
};
BuildTreeState record_build_tree(const std::filesystem::path& root, const std::vector<std::filesystem::path>& excluded);

/// Puts the tree back into `state`: removes what was created since (files,
/// links, folders), and returns, sorted, what cannot be put back
/// ("tests/data.txt: written", "...: deleted"); empty when all is as it was.
/// A write is a new size, modification time or inode (the status-change
/// time also moves when HydraScore's launcher links a program, so it is not
/// compared).
std::vector<std::string> restore_build_tree(const BuildTreeState& state);

}  // namespace hydra::capture
