// Tests for hydra::capture::lint_database: which translation units
// clang-tidy is given and with which commands (the codemodel's units too,
// the project's SYSTEM include directories made ordinary).
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include <hydra/capture/lint/database.hpp>

namespace fs = std::filesystem;
using hydra::capture::is_project_generated;
using hydra::capture::lint_database;
using nlohmann::json;

namespace {

hydra::model::BuildTargets no_targets() { return {}; }

/// The arguments of `file`'s entry in `database`.
std::vector<std::string> arguments_of(const json& database, const std::string& file) {
  for (const auto& entry : database)
    if (entry.at("file") == file) return entry.at("arguments").get<std::vector<std::string>>();
  FAIL("no entry for " << file);
  return {};
}

}  // namespace

TEST_CASE("lint_database keeps the source tree's units that no exclusion names", "[capture][lint]") {
  const fs::path source = "/work/project";
  const fs::path build = "/work/project/build";
  const json commands = json::parse(R"([
    {"directory": "/work/project/build", "file": "/work/project/src/ledger.cpp", "command": "c++ -c ../src/ledger.cpp"},
    {"directory": "/work/project/build", "file": "../src/fee.cpp", "arguments": ["c++", "-c", "../src/fee.cpp"]},
    {"directory": "/work/project/build", "file": "/work/project/src/generated/table.cpp"},
    {"directory": "/work/project/build", "file": "/work/project/third_party/zlib/inflate.c"},
    {"directory": "/work/project/build", "file": "/work/project/build/app_autogen/moc.cpp"},
    {"directory": "/work/project/build", "file": "/work/project/build/_deps/fmt-src/format.cc"},
    {"directory": "/elsewhere", "file": "/elsewhere/main.cpp"},
    {"directory": "/work/project/build", "file": "/work/project/src/ledger.cpp"}
  ])");
  const std::vector<fs::path> excluded = {build};
  SECTION("valid input: globs and folder patterns of lint.exclude keep files from clang-tidy") {
    const auto units = lint_database(commands, no_targets(), source, build, excluded, {"src/generated/*", "third_party/"}).units;
    CHECK(units == std::vector<fs::path>{"/work/project/src/fee.cpp", "/work/project/src/ledger.cpp"});
  }
  SECTION("valid input: a file-name glob at any depth") {
    const auto units = lint_database(commands, no_targets(), source, build, excluded, {"*.c", "table.*"}).units;
    CHECK(units == std::vector<fs::path>{"/work/project/src/fee.cpp", "/work/project/src/ledger.cpp"});
  }
  SECTION("valid input: no exclusions (CMake's, fetched and AUTOMOC files of the build tree never count)") {
    const auto database = lint_database(commands, no_targets(), source, build, excluded, {});
    CHECK(database.units.size() == 4);
    // Every entry stays for clang-tidy's -p, as an argument list.
    CHECK(database.commands.size() == 8);
    CHECK(arguments_of(database.commands, "/work/project/src/ledger.cpp") ==
          std::vector<std::string>{"c++", "-c", "../src/ledger.cpp"});
  }
  SECTION("bad input: entries without a file name, or not objects, are passed over") {
    const auto database = lint_database(json::parse(R"([{"directory": "/work/project"}, 3, {"file": 7}])"),
                                        no_targets(), source, build, excluded, {});
    CHECK(database.units.empty());
    CHECK(lint_database(json::object(), no_targets(), source, build, excluded, {}).units.empty());
  }
}

TEST_CASE("lint_database lints a source the build compiles again with other macros as each command", "[capture][lint]") {
  const fs::path source = "/work/project";
  const fs::path build = "/work/project/build";
  const json commands = json::parse(R"([
    {"directory": "/work/project/build", "file": "/work/project/src/count.cpp",
     "arguments": ["c++", "-DNDEBUG", "-I/work/project/include", "-c", "/work/project/src/count.cpp"]}])");
  using hydra::capture::CompileCommand;
  // The build's own log: count.cpp compiled as compile_commands.json says,
  // and once more by a custom command with a macro of its own.
  const CompileCommand same{build, source / "src/count.cpp",
                            {"/usr/bin/c++", "-DNDEBUG", "-I/work/project/include", "-O2", "-c", "../src/count.cpp"}};
  const CompileCommand again{build, source / "src/count.cpp",
                             {"/usr/bin/c++", "-DNDEBUG", "-I/work/project/include", "-D", "KERNEL", "-c",
                              "../src/count.cpp"}};
  const auto database = lint_database(commands, no_targets(), source, build, {build}, {}, {same, again, again});
  CHECK(database.units == std::vector<fs::path>{"/work/project/src/count.cpp"});
  CHECK(database.commands.size() == 2);  // the listed command and the one with -D KERNEL, once
  CHECK(database.compiled_again == std::vector<std::string>{"/work/project/src/count.cpp"});
  CHECK(database.commands.at(1).at("arguments").get<std::vector<std::string>>() == again.arguments);
  // The same macros and include paths (other optimisation flags): nothing more.
  const auto plain = lint_database(commands, no_targets(), source, build, {build}, {}, {same});
  CHECK(plain.commands.size() == 1);
  CHECK(plain.compiled_again.empty());
}

TEST_CASE("lint_database adds the codemodel's units compile_commands.json does not list", "[capture][lint]") {
  const fs::path source = "/p";
  const fs::path build = "/p/build";
  hydra::model::BuildTargets targets;
  targets.source_root = "/p";
  targets.build_root = "/p/build";
  targets.compilers = {{"CXX", "/usr/bin/c++"}};
  hydra::model::BuildTarget objects;
  objects.name = "objects";
  objects.type = "OBJECT_LIBRARY";
  objects.directory = "/p";
  hydra::model::CompileGroup group;
  group.language = "CXX";
  group.fragments = {"-O2 -Wall", "-std=c++17"};
  group.defines = {"NAME=\"value with space\""};
  group.includes = {{"/p/include", true}, {"/usr/include/x", true}, {"/p/build/generated", false}};
  objects.compile_groups = {group};
  objects.sources = {{"/p/src/hidden.cpp", false, 0},          // EXPORT_COMPILE_COMMANDS OFF
                     {"/p/build/configured.cpp", false, 0},    // configure_file output
                     {"/p/build/CMakeFiles/x.dir/cmake_pch.hxx.cxx", false, 0},
                     {"/p/include/api.hpp", false, -1}};       // a header: not a unit
  hydra::model::BuildTarget fetched = objects;
  fetched.name = "fetched";
  fetched.directory = "/p/build/_deps/dep-src";
  fetched.sources = {{"/p/build/_deps/dep-src/dep.cpp", false, 0}};
  targets.targets = {objects, fetched};
  const json listed = json::parse(R"([
    {"directory": "/p/build", "file": "/p/src/lib.cpp", "arguments": ["c++", "-isystem", "/p/include", "-isystem/usr/include/x", "-isystem/p/build/gen", "-c", "/p/src/lib.cpp"]}
  ])");
  const auto database = lint_database(listed, targets, source, build, {build}, {});
  SECTION("valid input: the units of every project target, generated ones included") {
    CHECK(database.units ==
          std::vector<fs::path>{"/p/build/configured.cpp", "/p/src/hidden.cpp", "/p/src/lib.cpp"});
    CHECK(database.made_from_codemodel == std::vector<std::string>{"/p/build/configured.cpp", "/p/src/hidden.cpp"});
  }
  SECTION("valid input: a made command holds the group's flags, definitions and directories") {
    CHECK(arguments_of(database.commands, "/p/src/hidden.cpp") ==
          std::vector<std::string>{"/usr/bin/c++", "-O2", "-Wall", "-std=c++17", "-DNAME=\"value with space\"",
                                   "-I/p/include", "-isystem", "/usr/include/x", "-I", "/p/build/generated", "-c",
                                   "/p/src/hidden.cpp"});
  }
  SECTION("valid input: the project's SYSTEM directories become -I, others stay system") {
    CHECK(arguments_of(database.commands, "/p/src/lib.cpp") ==
          std::vector<std::string>{"c++", "-I/p/include", "-isystem/usr/include/x", "-I/p/build/gen", "-c",
                                   "/p/src/lib.cpp"});
    CHECK(database.system_made_user == std::vector<std::string>{"/p/build/gen", "/p/include"});
  }
  SECTION("bad input: a language without a known compiler gets no made command") {
    targets.compilers.clear();
    const auto without = lint_database(listed, targets, source, build, {build}, {});
    CHECK(without.units == std::vector<fs::path>{"/p/src/lib.cpp"});
    CHECK(without.made_from_codemodel.empty());
  }
}

TEST_CASE("is_project_generated names the build tree's files the project made", "[capture][lint]") {
  CHECK(is_project_generated("/b/src/config.cpp", "/b"));
  CHECK(is_project_generated("/b/gen/x.hpp", "/b"));
  CHECK_FALSE(is_project_generated("/b/CMakeFiles/t.dir/cmake_pch.hxx", "/b"));
  CHECK_FALSE(is_project_generated("/b/_deps/fmt-src/format.cc", "/b"));
  CHECK_FALSE(is_project_generated("/b/app_autogen/mocs_compilation.cpp", "/b"));
  CHECK_FALSE(is_project_generated("/b/.hydra-lint-view/files/a.cpp", "/b"));
  CHECK_FALSE(is_project_generated("/b/.hydra/held-out/source/src/a.cpp", "/b"));
  // A folder the project's configure makes is the project's, whatever its name.
  CHECK(is_project_generated("/b/.hydra-gen/count_impl.hpp", "/b"));
  CHECK(is_project_generated("/b/.hydra-tmp/x.hpp", "/b"));
  CHECK_FALSE(is_project_generated("/elsewhere/a.cpp", "/b"));
  CHECK_FALSE(is_project_generated("/b", "/b"));
  // A unity build's source holds the project's sources: it is linted.
  CHECK(is_project_generated("/b/src/CMakeFiles/lib.dir/Unity/unity_0_cxx.cxx", "/b"));
  CHECK_FALSE(is_project_generated("/b/_deps/x/CMakeFiles/lib.dir/Unity/unity_0_cxx.cxx", "/b"));
  CHECK_FALSE(is_project_generated("/b/CMakeFiles/lib.dir/Unity/other.cxx", "/b"));
}

TEST_CASE("lint_database writes include folders as lexically normal absolute paths", "[capture][lint]") {
  // A tree's headers reached through `/./`, `//` or `x/../` spellings: the
  // header filter, which matches the path a header is found by, sees the
  // tree's own path.
  const json commands = json::parse(R"([{"directory": "/p/build", "file": "/p/src/a.cpp", "arguments":
      ["/usr/bin/c++", "-I/./p/src/detail", "-iquote", "/p//src", "-isystem", "/opt/../opt/lib", "-I", "../include",
       "-include", "/p/./config.h", "-DX=/./y", "-c", "/p/src/a.cpp"]}])");
  const auto database = lint_database(commands, no_targets(), "/p", "/p/build", {"/p/build"}, {});
  CHECK(arguments_of(database.commands, "/p/src/a.cpp") ==
        std::vector<std::string>{"/usr/bin/c++", "-I/p/src/detail", "-iquote", "/p/src", "-isystem", "/opt/lib", "-I",
                                 "/p/include", "-include", "/p/config.h", "-DX=/./y", "-c", "/p/src/a.cpp"});
}
