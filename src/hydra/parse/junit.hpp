// JUnit XML: CTest's --output-junit and the <testsuites>-wrapped files of
// pytest, cargo-nextest, jest-junit, GoogleTest and Catch2.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include <hydra/model/test.hpp>

namespace hydra::parse {

/// Parses one JUnit XML document held in `xml` (`source_name` names it in
/// errors). Throws hydra::InputError (file, line, column) for malformed XML or
/// a document that is not JUnit. Testcases are counted one by one (Catch2's
/// `tests=` attribute counts assertions and is ignored).
std::vector<model::TestCase> parse_junit(std::string_view xml, const std::string& source_name);

/// Reads and parses a file.
std::vector<model::TestCase> parse_junit_file(const std::filesystem::path& file);

}  // namespace hydra::parse
