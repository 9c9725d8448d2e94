// Tests for hydra::capture::read_build_targets: the File API reply of a real
// cmake configure, read into the build targets the held-out comparison and
// lint use.
#include <catch2/catch.hpp>

#include <algorithm>

#include <hydra/capture/cmake/codemodel.hpp>
#include <hydra/util/files.hpp>
#include <hydra/util/process.hpp>

namespace fs = std::filesystem;
using hydra::capture::read_build_targets;
using hydra::capture::write_file_api_queries;

namespace {

const hydra::model::BuildTarget& target(const hydra::model::BuildTargets& targets, const std::string& name) {
  const auto* found = targets.find(name);
  INFO("no target " << name);
  REQUIRE(found != nullptr);
  return *found;
}

}  // namespace

TEST_CASE("read_build_targets reads a configured tree's targets", "[capture][codemodel]") {
  hydra::util::TempDir temp("hydra-codemodel");
  const fs::path source = temp.path() / "project", build = temp.path() / "build";
  fs::create_directories(source / "include");
  hydra::util::write_file_atomic(source / "CMakeLists.txt", R"(cmake_minimum_required(VERSION 3.25)
project(p CXX)
add_library(core STATIC core.cpp)
add_library(lib STATIC lib.cpp)
target_link_libraries(lib PUBLIC core)
target_include_directories(lib SYSTEM PUBLIC ${CMAKE_CURRENT_SOURCE_DIR}/include)
add_library(objects OBJECT objects.cpp)
set_target_properties(objects PROPERTIES EXPORT_COMPILE_COMMANDS OFF)
add_executable(program program.cpp)
target_link_libraries(program PRIVATE lib objects)
target_compile_definitions(program PRIVATE "GREETING=\"hi\"")
target_precompile_headers(program PRIVATE <vector>)
)");
  for (const char* name : {"core", "lib", "objects"})
    hydra::util::write_file_atomic(source / (std::string(name) + ".cpp"), "int " + std::string(name) + "() { return 1; }\n");
  hydra::util::write_file_atomic(source / "program.cpp", "int main() { return 0; }\n");

  SECTION("bad input: no reply is a problem, not an exception") {
    const auto targets = read_build_targets(build, "");
    CHECK(targets.targets.empty());
    CHECK(targets.problem.find("no File API reply") != std::string::npos);
  }
  SECTION("valid input: targets, compile groups, links and the compiler") {
    CHECK(write_file_api_queries(build));
    CHECK_FALSE(write_file_api_queries(build));  // already there
    hydra::util::ProcessRequest configure;
    configure.argv = {"cmake", "-S", source.string(), "-B", build.string(), "-G", "Ninja"};
    configure.timeout = std::chrono::minutes(5);
    const auto configured = hydra::util::run_process(configure);
    INFO(configured.output);
    REQUIRE(configured.exit_code == 0);
    const auto targets = read_build_targets(build, "");
    INFO(targets.problem);
    REQUIRE(targets.problem.empty());
    CHECK(fs::path(targets.source_root) == source);
    CHECK(fs::path(targets.build_root) == build);
    REQUIRE(targets.compilers.size() == 1);
    CHECK(targets.compilers.front().first == "CXX");

    const auto& program = target(targets, "program");
    CHECK(program.type == "EXECUTABLE");
    CHECK(program.artifacts == std::vector<std::string>{(build / "program").string()});
    CHECK(fs::path(program.directory) == source);
    REQUIRE_FALSE(program.compile_groups.empty());
    const auto& group = program.compile_groups.back();
    CHECK(group.language == "CXX");
    CHECK(group.defines == std::vector<std::string>{"GREETING=\"hi\""});
    REQUIRE(group.includes.size() == 1);
    CHECK(group.includes.front().path == (source / "include").string());
    CHECK(group.includes.front().system);  // SYSTEM, through lib's usage requirements
    CHECK(group.precompile_headers == std::vector<std::string>{"<vector>"});
    // The object library's object is a generated source of the program.
    const bool has_object = std::any_of(program.sources.begin(), program.sources.end(), [](const auto& item) {
      return item.generated && item.path.find("objects.cpp.o") != std::string::npos;
    });
    CHECK(has_object);
    // The project's libraries are named, not pathed; core comes through lib.
    std::vector<std::string> libraries;
    for (const auto& fragment : program.link)
      if (fragment.role == "libraries") libraries.push_back(fragment.fragment);
    CHECK(libraries == std::vector<std::string>{"<target:lib>", "<target:core>"});
    CHECK(target(targets, "lib").dependencies == std::vector<std::string>{"core"});
    CHECK(target(targets, "objects").sources.front().compile_group == 0);
    CHECK(target(targets, "lib").definition_files == std::vector<std::string>{(source / "CMakeLists.txt").string()});

    // Ninja's commands: the program's own compile, then its link without the project's libraries.
    auto with_commands = targets;
    hydra::capture::add_build_commands(with_commands, build, "");
    const auto& commands = target(with_commands, "program").build_commands;
    REQUIRE(commands.size() >= 2);
    CHECK(commands.front().find("-o CMakeFiles/program.dir/program.cpp.o") != std::string::npos);
    CHECK(commands.back().find("-o program") != std::string::npos);
    CHECK(commands.back().find("liblib.a") == std::string::npos);
    CHECK(target(with_commands, "lib").build_commands.empty());  // executables only
  }
}

TEST_CASE("ninja's tools run HydraScore's own ninja, never a program the tree's cache names", "[capture][codemodel]") {
  hydra::util::TempDir temp("hydra-ninja-of");
  const fs::path build = temp.path() / "build";
  fs::create_directories(build);
  // What a configure or a test program may write into the build tree: a
  // cache naming a program of its own as the make program.
  const fs::path planted = build / "planted-ninja";
  const fs::path ran = temp.path() / "planted-ran";
  hydra::util::write_file_atomic(planted, "#!/bin/sh\ntouch '" + ran.string() + "'\nexit 0\n");
  fs::permissions(planted, fs::perms::owner_all);
  hydra::util::write_file_atomic(build / "CMakeCache.txt", "CMAKE_GENERATOR:INTERNAL=Ninja\nCMAKE_MAKE_PROGRAM:FILEPATH=" +
                                                              planted.string() + "\n");
  hydra::util::write_file_atomic(build / "build.ninja", "rule touch\n  command = touch $out\nbuild out: touch\n");
  const auto targets = hydra::capture::ninja_tool(build, {"targets", "all"});
  REQUIRE(targets);
  CHECK(targets->find("out: touch") != std::string::npos);  // the real ninja answered
  CHECK_FALSE(fs::exists(ran));
  // Another generator's tree: no ninja tool at all.
  hydra::util::write_file_atomic(build / "CMakeCache.txt", "CMAKE_GENERATOR:INTERNAL=Unix Makefiles\n");
  CHECK_FALSE(hydra::capture::ninja_tool(build, {"targets", "all"}));
}
