// JUnit XML: CTest's --output-junit and the <testsuites>-wrapped files of
// pytest, cargo-nextest, jest-junit, GoogleTest and Catch2.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include <hydra/model/test.hpp>
#include <hydra/parse/junit_dialect.hpp>

namespace hydra::parse {

/// Parses one JUnit XML document held in `xml` (`source_name` names it in
/// errors). Throws hydra::InputError (file, line, column) for malformed XML or
/// a document that is not JUnit. Testcases are counted one by one (Catch2's
/// `tests=` attribute counts assertions and is ignored). Suites may nest to
/// any depth (walked without recursion). Invalid UTF-8 in test names, suites
/// and messages is replaced by U+FFFD; how many sequences were replaced is
/// stored in `*invalid_utf8_replaced` when given.
std::vector<model::TestCase> parse_junit(std::string_view xml, const std::string& source_name,
                                         std::uint64_t* invalid_utf8_replaced = nullptr);

/// Reads and parses a file.
std::vector<model::TestCase> parse_junit_file(const std::filesystem::path& file,
                                              std::uint64_t* invalid_utf8_replaced = nullptr);

/// As above, for a document a test framework's own reporter wrote
/// (junit_dialect.hpp): its cases named as the framework names them. A
/// framework's document is never read as CTest's.
std::vector<model::TestCase> parse_junit(std::string_view xml, const std::string& source_name, JunitDialect dialect,
                                         std::uint64_t* invalid_utf8_replaced = nullptr);
std::vector<model::TestCase> parse_junit_file(const std::filesystem::path& file, JunitDialect dialect,
                                              std::uint64_t* invalid_utf8_replaced = nullptr);

}  // namespace hydra::parse
