// The object scan's readings kept by content (capture/cmake/object_readings.hpp),
// over objects compiled here.
#include <catch2/catch.hpp>

#include <algorithm>
#include <string>
#include <vector>

#include <hydra/capture/cmake/object_readings.hpp>
#include <hydra/util/files.hpp>
#include <hydra/util/process.hpp>
#include <hydra/util/sha256.hpp>

namespace fs = std::filesystem;
namespace capture = hydra::capture;

namespace {

capture::ObjectTools tools() {
  const auto nm = hydra::util::find_program("nm");
  const auto strings = hydra::util::find_program("strings");
  const auto objdump = hydra::util::find_program("objdump");
  REQUIRE(nm);
  REQUIRE(strings);
  REQUIRE(objdump);
  return {*nm, *strings, *objdump};
}

void compile(const fs::path& source, const fs::path& object, const std::string& text) {
  hydra::util::write_file_atomic(source, text);
  hydra::util::ProcessRequest request;
  request.argv = {"cc", "-c", "-O0", "-o", object.string(), source.string()};
  REQUIRE(hydra::util::run_process(request).exit_code == 0);
}

bool has_line_with(const std::vector<std::string>& lines, const std::string& part) {
  return std::any_of(lines.begin(), lines.end(),
                     [&](const std::string& line) { return line.find(part) != std::string::npos; });
}

std::vector<fs::path> entries(const fs::path& folder) {
  std::vector<fs::path> found;
  std::error_code error;
  for (fs::recursive_directory_iterator it(folder, error), end; !error && it != end; it.increment(error))
    if (it->is_regular_file()) found.push_back(it->path());
  return found;
}

const char* const kUnit =
    "#include <unistd.h>\n"
    "const char* kept_message(void) { return \"a message the scan reads\"; }\n"
    "int kept_parent(void) { return (int)getppid(); }\n"
    "__attribute__((constructor)) static void kept_early(void) {}\n"
#if defined(__x86_64__)
    "long kept_raw(long n) { long r; __asm__ volatile(\"syscall\" : \"=a\"(r) : \"a\"(n) : \"rcx\", \"r11\", \"memory\"); return r; }\n"
#endif
    ;

}  // namespace

TEST_CASE("object readings: kept by content, the same as read, read again when the object changes",
          "[capture]") {
  hydra::util::TempDir temp("hydra-object-readings");
  const fs::path top = temp.path();
  const fs::path object = top / "unit.o";
  compile(top / "unit.c", object, kUnit);
  const fs::path cache = top / "cache";

  // Without a cache folder: read from the object itself, nothing kept.
  bool failed = false;
  const auto direct = capture::read_object_files({object.string()}, tools(), std::nullopt, failed);
  CHECK_FALSE(failed);
  REQUIRE(direct.count(object.string()) == 1);
  const capture::ObjectReading& read = direct.at(object.string());
  CHECK(has_line_with(read.symbols, "getppid U"));
  CHECK(has_line_with(read.texts, "a message the scan reads"));
  CHECK(has_line_with(read.mangled, "kept_message T"));
  CHECK(has_line_with(read.definitions, "kept_parent T"));
  CHECK(read.constructing);
#if defined(__x86_64__)
  CHECK(read.issuing);
#endif

  // With one: the same readings, kept in one entry.
  const auto first = capture::read_object_files({object.string()}, tools(), cache, failed);
  CHECK_FALSE(failed);
  CHECK(first == direct);
  auto kept = entries(cache / "object-readings");
  REQUIRE(kept.size() == 1);

  // While the object's bytes are the same, the entry is what is read (an
  // entry rewritten here, with its digest, shows it).
  capture::ObjectReading marked = read;
  marked.symbols.push_back("only_in_the_entry U");
  const std::string payload = capture::encode_object_reading(marked);
  hydra::util::write_file_atomic(kept.front(),
                                 "object readings 1 " + hydra::util::sha256_hex(payload) + "\n" + payload);
  const auto hit = capture::read_object_files({object.string()}, tools(), cache, failed);
  CHECK(has_line_with(hit.at(object.string()).symbols, "only_in_the_entry"));

  // An entry that does not verify is a miss: read again, and replaced.
  hydra::util::write_file_atomic(kept.front(),
                                 "object readings 1 " + hydra::util::sha256_hex(payload) + "\n" + payload + "x");
  CHECK(capture::read_object_files({object.string()}, tools(), cache, failed) == direct);
  CHECK(capture::read_object_files({object.string()}, tools(), cache, failed) == direct);

  // The object rebuilt with another function: other bytes, read again.
  compile(top / "unit.c", object, std::string(kUnit) + "int kept_second(void) { return 2; }\n");
  const auto again = capture::read_object_files({object.string()}, tools(), cache, failed);
  CHECK(has_line_with(again.at(object.string()).definitions, "kept_second T"));
  CHECK_FALSE(has_line_with(again.at(object.string()).symbols, "only_in_the_entry"));
  CHECK(entries(cache / "object-readings").size() == 2);
  CHECK_FALSE(failed);
}

TEST_CASE("object readings: what a tool cannot read is a failure, and nothing of that reading is kept",
          "[capture]") {
  hydra::util::TempDir temp("hydra-object-readings");
  const fs::path top = temp.path();
  compile(top / "unit.c", top / "unit.o", kUnit);
  hydra::util::write_file_atomic(top / "broken.o", "not an object\n");
  const fs::path cache = top / "cache";
  bool failed = false;
  const auto read =
      capture::read_object_files({(top / "unit.o").string(), (top / "broken.o").string()}, tools(), cache, failed);
  CHECK(failed);
  CHECK(has_line_with(read.at((top / "unit.o").string()).symbols, "getppid U"));
  CHECK(entries(cache / "object-readings").empty());
  // A file that cannot be read at all.
  failed = false;
  capture::read_object_files({(top / "missing.o").string()}, tools(), cache, failed);
  CHECK(failed);
}

TEST_CASE("object readings: an entry's text decodes to what was encoded, and nothing else does", "[capture]") {
  capture::ObjectReading reading;
  reading.symbols = {"a U", "", "b T 0 10"};
  reading.texts = {"bytes \x01\xff as they were", "symbols 3"};
  reading.definitions = {"c T 0 1"};
  reading.issuing = true;
  const std::string text = capture::encode_object_reading(reading);
  const auto decoded = capture::decode_object_reading(text);
  REQUIRE(decoded);
  CHECK(*decoded == reading);
  CHECK_FALSE(capture::decode_object_reading(text.substr(0, text.size() - 1)));
  CHECK_FALSE(capture::decode_object_reading(text + "extra\n"));
  CHECK_FALSE(capture::decode_object_reading("object readings 2\n" + text.substr(text.find('\n') + 1)));
  CHECK_FALSE(capture::decode_object_reading(""));
}
