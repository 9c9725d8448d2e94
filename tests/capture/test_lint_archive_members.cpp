// Tests for the members of the project's libraries (lint/archive_members.hpp):
// archives made by the real `ar` (GNU long names, thin archives, `ar rs`
// adding a member), a BSD archive written by hand, and the objects compile
// commands write.
#include <catch2/catch.hpp>

#include <hydra/capture/lint/archive_members.hpp>
#include <hydra/util/files.hpp>
#include <hydra/util/process.hpp>

namespace fs = std::filesystem;
using hydra::capture::ArchiveListing;
using hydra::util::read_file;
using hydra::util::write_file_atomic;

namespace {

/// Runs `ar` with `arguments` in `folder`.
void ar(const fs::path& folder, std::vector<std::string> arguments) {
  const auto program = hydra::util::find_program("ar");
  REQUIRE(program);
  hydra::util::ProcessRequest request;
  request.argv = {program->string()};
  request.argv.insert(request.argv.end(), arguments.begin(), arguments.end());
  request.working_directory = folder;
  const auto result = hydra::util::run_process(request);
  INFO(result.output);
  REQUIRE(result.exit_code == 0);
}

std::vector<std::string> names(const ArchiveListing& listing) {
  std::vector<std::string> found;
  for (const auto& member : listing.members) found.push_back(member.name);
  return found;
}

}  // namespace

TEST_CASE("the members of an ar archive are listed with their bytes", "[capture][lint]") {
  hydra::util::TempDir temp("hydra-archive");
  const fs::path folder = temp.path();
  // An odd size (padding), and a name longer than 15 characters (the long-name table).
  write_file_atomic(folder / "count.cpp.o", "odd");
  write_file_atomic(folder / "a_rather_long_member_name.cpp.o", "even");
  SECTION("valid input") {
    ar(folder, {"qc", "libt.a", "count.cpp.o", "a_rather_long_member_name.cpp.o"});
    write_file_atomic(folder / "lines.cpp.o", "added later");
    ar(folder, {"rs", "libt.a", "lines.cpp.o"});  // what a post-build step adds (and a symbol table)
    const std::string bytes = read_file(folder / "libt.a");
    const ArchiveListing listing = hydra::capture::list_archive(bytes);
    CHECK(listing.problem.empty());
    CHECK_FALSE(listing.thin);
    CHECK(names(listing) == std::vector<std::string>{"count.cpp.o", "a_rather_long_member_name.cpp.o", "lines.cpp.o"});
    REQUIRE(listing.members.size() == 3);
    CHECK(bytes.substr(listing.members[0].offset, listing.members[0].size) == "odd");
    CHECK(bytes.substr(listing.members[1].offset, listing.members[1].size) == "even");
    CHECK(bytes.substr(listing.members[2].offset, listing.members[2].size) == "added later");
    // A thin archive names its members, relative to its folder.
    ar(folder, {"qcT", "libthin.a", "count.cpp.o", "a_rather_long_member_name.cpp.o"});
    const ArchiveListing thin = hydra::capture::list_archive(read_file(folder / "libthin.a"));
    CHECK(thin.problem.empty());
    CHECK(thin.thin);
    CHECK(names(thin) == std::vector<std::string>{"count.cpp.o", "a_rather_long_member_name.cpp.o"});
    // BSD: the name opens the member's bytes ("#1/<length>").
    std::string bsd = "!<arch>\n";
    const auto field = [](std::string text, std::size_t width) { return text.append(width - text.size(), ' '); };
    bsd += field("#1/20", 16) + field("0", 12) + field("0", 6) + field("0", 6) + field("644", 8) + field("24", 10) + "`\n";
    bsd += std::string("long_bsd_name.o\0\0\0\0\0", 20) + "data";
    const ArchiveListing from_bsd = hydra::capture::list_archive(bsd);
    CHECK(from_bsd.problem.empty());
    REQUIRE(from_bsd.members.size() == 1);
    CHECK(from_bsd.members[0].name == "long_bsd_name.o");
    CHECK(bsd.substr(from_bsd.members[0].offset, from_bsd.members[0].size) == "data");
  }
  SECTION("bad input") {
    CHECK_FALSE(hydra::capture::list_archive("").problem.empty());
    CHECK_FALSE(hydra::capture::list_archive("ELF\x7f").problem.empty());
    ar(folder, {"qc", "libt.a", "count.cpp.o"});
    const std::string bytes = read_file(folder / "libt.a");
    CHECK_FALSE(hydra::capture::list_archive(bytes.substr(0, bytes.size() - 4)).problem.empty());  // cut short
    CHECK(hydra::capture::list_archive("!<arch>\n").members.empty());
  }
}

TEST_CASE("the objects compile commands write", "[capture][lint]") {
  hydra::capture::CompileCommand cmake;
  cmake.directory = "/b";
  cmake.arguments = {"/usr/bin/c++", "-I/s/include", "-o", "CMakeFiles/t.dir/src/a.cpp.o", "-c", "/s/src/a.cpp"};
  hydra::capture::CompileCommand glued;
  glued.directory = "/b/sub";
  glued.arguments = {"cc", "-c", "../x.c", "-o/b/x.o"};
  SECTION("valid input") {
    CHECK(hydra::capture::compiled_objects({cmake, glued}) ==
          std::set<fs::path>{"/b/CMakeFiles/t.dir/src/a.cpp.o", "/b/x.o"});
  }
  SECTION("bad input") {
    hydra::capture::CompileCommand none;
    none.directory = "/b";
    none.arguments = {"c++", "-c", "a.cpp", "-o"};  // no value
    CHECK(hydra::capture::compiled_objects({none}).empty());
  }
}
