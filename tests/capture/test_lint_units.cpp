// Tests for hydra::capture::lint_units: which translation units clang-tidy is given.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include <hydra/capture/steps.hpp>

namespace fs = std::filesystem;
using hydra::capture::lint_units;
using nlohmann::json;

TEST_CASE("lint_units keeps the source tree's units that no exclusion names", "[capture]") {
  const fs::path source = "/work/project";
  const json commands = json::parse(R"([
    {"directory": "/work/project/build", "file": "/work/project/src/ledger.cpp"},
    {"directory": "/work/project/build", "file": "../src/fee.cpp"},
    {"directory": "/work/project/build", "file": "/work/project/src/generated/table.cpp"},
    {"directory": "/work/project/build", "file": "/work/project/third_party/zlib/inflate.c"},
    {"directory": "/work/project/build", "file": "/work/project/build/autogen/moc.cpp"},
    {"directory": "/elsewhere", "file": "/elsewhere/main.cpp"},
    {"directory": "/work/project/build", "file": "/work/project/src/ledger.cpp"}
  ])");
  const std::vector<fs::path> excluded = {"/work/project/build"};
  SECTION("valid input: globs and folder patterns of lint.exclude keep files from clang-tidy") {
    const auto units = lint_units(commands, source, excluded, {"src/generated/*", "third_party/"});
    CHECK(units == std::vector<fs::path>{"/work/project/src/fee.cpp", "/work/project/src/ledger.cpp"});
  }
  SECTION("valid input: a file-name glob at any depth") {
    const auto units = lint_units(commands, source, excluded, {"*.c", "table.*"});
    CHECK(units == std::vector<fs::path>{"/work/project/src/fee.cpp", "/work/project/src/ledger.cpp"});
  }
  SECTION("valid input: no exclusions (the build tree and other trees never count)") {
    const auto units = lint_units(commands, source, excluded, {});
    CHECK(units.size() == 4);
  }
  SECTION("bad input: entries without a file name, or not objects, are passed over") {
    const auto units = lint_units(json::parse(R"([{"directory": "/work/project"}, 3, {"file": 7}])"), source,
                                  excluded, {});
    CHECK(units.empty());
    CHECK(lint_units(json::object(), source, excluded, {}).empty());
  }
}
