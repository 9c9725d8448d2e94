// The scan for constructors of an object's own (capture/cmake/own_constructors.hpp)
// over objects compiled here with both compilers and two optimisation
// levels: an `.init_array` entry of the code's own (a variable placed there,
// a constructor attribute) is found; the compiler's own static initialisers
// (a global std::string, a static object, an inline and a template variable)
// are not.
#include <catch2/catch.hpp>

#include <hydra/capture/cmake/own_constructors.hpp>
#include <hydra/util/files.hpp>
#include <hydra/util/process.hpp>

namespace fs = std::filesystem;

namespace {

/// Compiles C++ `text` with `compiler` and `level` into `<folder>/<name>.o`.
fs::path compile(const fs::path& folder, const std::string& compiler, const std::string& level,
                 const std::string& name, const std::string& text) {
  const fs::path source = folder / (name + ".cpp"), object = folder / (name + "-" + compiler + level + ".o");
  hydra::util::write_file_atomic(source, text);
  hydra::util::ProcessRequest request;
  request.argv = {compiler, "-std=c++17", level, "-c", source.string(), "-o", object.string()};
  const auto ran = hydra::util::run_process(request);
  INFO(ran.output);
  REQUIRE(ran.exit_code == 0);
  return object;
}

}  // namespace

TEST_CASE("objects with constructors of their own are found, the compiler's static initialisers are not",
          "[capture]") {
  hydra::util::TempDir temp("hydra-constructors");
  const auto objdump = hydra::util::find_program("objdump");
  REQUIRE(objdump);
  const std::string statics =
      "#include <string>\n"
      "std::string global = \"x\";\n"
      "static struct Counter { Counter() { ++count; } int count = 0; } counter;\n"
      "template <class T> struct Holder { static inline std::string value = \"y\"; };\n"
      "inline std::string shared = \"z\";\n"
      "std::string use() { return Holder<int>::value + shared + global; }\n";
  const std::string entry =
      "#include <cstring>\n"
      "namespace { int seen = 0; void look(int, char** argv, char**) { seen = argv ? 1 : 0; } }\n"
      "__attribute__((used, section(\".init_array\"))) void (*entry)(int, char**, char**) = look;\n"
      "int was_seen() { return seen; }\n";
  const std::string attribute =
      "static int seen = 0;\n"
      "__attribute__((constructor(200))) void early(int argc, char**, char**) { seen = argc; }\n"
      "int was_seen() { return seen; }\n";
  for (const std::string compiler : {"g++", "clang++"})
    for (const std::string level : {"-O0", "-O2"}) {
      INFO(compiler << " " << level);
      const fs::path plain = compile(temp.path(), compiler, level, "statics", statics);
      const fs::path placed = compile(temp.path(), compiler, level, "entry", entry);
      const fs::path early = compile(temp.path(), compiler, level, "attribute", attribute);
      bool failed = false;
      const auto found =
          hydra::capture::objects_with_own_constructors({plain.string(), placed.string(), early.string()}, *objdump,
                                                        failed);
      CHECK_FALSE(failed);
      CHECK(found == std::set<std::string>{placed.string(), early.string()});
    }
}

TEST_CASE("an init_array entry is the object's own unless the compiler's initialiser is at its place",
          "[capture]") {
  // objdump -r -t of an object: a section-relative entry resolved through
  // the symbol table, and one naming its function directly.
  const std::vector<std::string> compiler_only = {
      "0000000000000010 l     F .text.startup\t0000000000000041 _GLOBAL__sub_I_global",
      "RELOCATION RECORDS FOR [.init_array]:",
      "OFFSET           TYPE              VALUE",
      "0000000000000000 R_X86_64_64       .text.startup+0x0000000000000010"};
  CHECK(hydra::capture::own_constructor_entries(compiler_only).empty());
  std::vector<std::string> own = compiler_only;
  own.insert(own.begin(), "0000000000000040 l     F .text\t0000000000000012 _ZN12_GLOBAL__N_14lookEiPPcS1_");
  own.push_back("0000000000000008 R_X86_64_64       .text+0x0000000000000040");
  own.push_back("RELOCATION RECORDS FOR [.fini_array.00300]:");
  own.push_back("0000000000000000 R_X86_64_64       _Z4lastv");
  CHECK(hydra::capture::own_constructor_entries(own) ==
        std::set<std::string>{"_ZN12_GLOBAL__N_14lookEiPPcS1_", "_Z4lastv"});
  // An entry no symbol names is not the compiler's either.
  const std::vector<std::string> unnamed = {"RELOCATION RECORDS FOR [.init_array]:",
                                            "0000000000000000 R_X86_64_64       .text+0x0000000000000080"};
  CHECK(hydra::capture::own_constructor_entries(unnamed) == std::set<std::string>{"?"});
  // Relocations of other sections are not entries.
  const std::vector<std::string> other = {"RELOCATION RECORDS FOR [.text]:",
                                          "0000000000000003 R_X86_64_PLT32     _Z4lastv-0x0000000000000004"};
  CHECK(hydra::capture::own_constructor_entries(other).empty());
}
