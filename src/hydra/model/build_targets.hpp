// Plain data: how a configured CMake build tree builds each of its targets,
// as the CMake File API's codemodel says right after configure (capture's
// codemodel.cpp writes it as build-targets.json; docs/run-directory.md).
// The held-out runs compare the test programs' settings with the
// baseline's (guard/test_recipes.hpp); lint takes its units from it.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace hydra::model {

/// One include directory of a compile group.
struct IncludeDirectory {
  std::string path;     ///< absolute, as the build sees it
  bool system = false;  ///< SYSTEM: warnings in its headers are not reported
  bool operator==(const IncludeDirectory& other) const { return path == other.path && system == other.system; }
};

/// The settings a group of a target's sources is compiled with.
struct CompileGroup {
  std::string language;                    ///< "CXX", "C", ...
  std::vector<std::string> fragments;      ///< compile flags and options, in order (CMAKE_<LANG>_FLAGS, options, -std)
  std::vector<std::string> defines;        ///< NAME or NAME=VALUE, in order
  std::vector<IncludeDirectory> includes;  ///< in order
  std::vector<std::string> precompile_headers;
  std::string sysroot;
};

/// One source of a target.
struct TargetSource {
  std::string path;          ///< absolute
  bool generated = false;    ///< the GENERATED property (a custom command's output, an object of an object library)
  int compile_group = -1;    ///< index into BuildTarget::compile_groups; -1: not compiled
};

/// One fragment of a target's link command line.
struct LinkFragment {
  std::string fragment;
  std::string role;  ///< "flags", "libraries", "libraryPath", "frameworkPath"
  bool operator==(const LinkFragment& other) const { return fragment == other.fragment && role == other.role; }
};

struct BuildTarget {
  std::string name;
  std::string type;       ///< EXECUTABLE, STATIC_LIBRARY, OBJECT_LIBRARY, UTILITY, ...
  std::string directory;  ///< absolute: the source folder whose CMakeLists.txt defines it
  std::vector<std::string> artifacts;  ///< absolute
  std::vector<TargetSource> sources;
  std::vector<CompileGroup> compile_groups;
  std::vector<LinkFragment> link;      ///< empty for targets that do not link
  std::string link_sysroot;
  std::vector<std::string> dependencies;      ///< names of the targets it depends on (direct and through links)
  std::vector<std::string> definition_files;  ///< absolute: the CMake files of its definition's backtrace
  /// An executable's commands as the Ninja generator's build files hold them
  /// (compiler launchers, rule variables, pre-link and post-build steps
  /// included): those that compile its own objects, then the one that links
  /// it, without HydraScore's compiler cache and the project's own
  /// libraries; empty when unknown (another generator).
  std::vector<std::string> build_commands;
};

/// The targets of one configuration of a build tree.
struct BuildTargets {
  std::string source_root;  ///< absolute: the top source folder, as the build sees it
  std::string build_root;   ///< absolute: the build tree, as the build sees it
  /// Compiler per language ("CXX" -> "/usr/bin/c++"): the toolchains object.
  std::vector<std::pair<std::string, std::string>> compilers;
  std::vector<BuildTarget> targets;
  /// Why the codemodel could not be read; empty when it was.
  std::string problem;

  const BuildTarget* find(const std::string& name) const {
    for (const auto& target : targets)
      if (target.name == name) return &target;
    return nullptr;
  }
};

}  // namespace hydra::model
