// test-files.json: what capture writes, the held-out runs and scoring read back.
#include <catch2/catch.hpp>

#include <hydra/error.hpp>
#include <hydra/parse/test_files.hpp>

using hydra::parse::parse_test_files;
using hydra::parse::TestFiles;

TEST_CASE("test-files.json reads back what was written", "[parse][test-files]") {
  TestFiles written;
  written.by_test["count.empty_text"] = {"tests/CMakeLists.txt", "tests/test_count.cpp"};
  written.by_test["tokenize.empty_text"] = {"tests/CMakeLists.txt", "tests/test_tokenize.cpp"};
  for (const auto& [name, files] : written.by_test) written.files.insert(files.begin(), files.end());
  written.codemodel_problem = "no File API reply";
  const TestFiles read = parse_test_files(written.to_json().dump(1), "test-files.json");
  CHECK(read.files == written.files);
  CHECK(read.by_test == written.by_test);
  CHECK(read.codemodel_problem == written.codemodel_problem);
}

TEST_CASE("a malformed test-files.json is an input error naming the file and the place", "[parse][test-files]") {
  const auto message = [](const std::string& text) {
    try {
      parse_test_files(text, "run/test-files.json");
    } catch (const hydra::InputError& error) {
      return std::string(error.what());
    }
    return std::string("no error");
  };
  CHECK(message("{\"files\": [], \"tests\": {}") .rfind("run/test-files.json:1:", 0) == 0);  // unterminated
  CHECK(message("[]") == "run/test-files.json: expected an object with \"files\" (array) and \"tests\" (object)");
  CHECK(message("{\"files\": [1], \"tests\": {}}") == "run/test-files.json: /files: expected strings");
  CHECK(message("{\"files\": [], \"tests\": {\"a\": \"x\"}}") == "run/test-files.json: /tests/a: expected an array");
  CHECK(message("{\"files\": [], \"tests\": {\"a\": [2]}}") == "run/test-files.json: /tests/a: expected strings");
}
