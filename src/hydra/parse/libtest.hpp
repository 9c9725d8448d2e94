// `cargo test` console output: cargo's headers and libtest's lines.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include <hydra/model/test.hpp>

namespace hydra::parse {

/// What cargo test's output says: the tests, and inconsistencies that mean the
/// output cannot be believed as a whole.
struct LibtestResult {
  std::vector<model::TestCase> tests;
  std::vector<std::string> problems;  ///< e.g. "tests/api.rs: 3 results for \"running 4 tests\""
};

/// Parses the merged stdout and stderr of `cargo test --no-fail-fast`: one
/// section per test binary (`running N tests` ... `test result: ...`), named
/// by the cargo header before it ("unittests src/lib.rs", "tests/api.rs",
/// "doc-tests mycrate"). Each section is cross-checked (result lines against
/// `running N tests` and the `test result:` counts, no name twice, a summary
/// present); what disagrees is reported in `problems` (see docs/parsers.md).
/// Throws hydra::InputError naming `source_name` for binary (NUL) or
/// non-UTF-8 input.
LibtestResult parse_libtest(std::string_view log, const std::string& source_name);
/// Reads `file` (memory-mapped) and parses it with parse_libtest.
LibtestResult parse_libtest_file(const std::filesystem::path& file);

}  // namespace hydra::parse
