// Which package and target a `cargo test` test binary belongs to: cargo's
// header before each binary's output, and the `compiler-artifact` JSON
// messages `cargo test --message-format=json` prints before it runs any
// binary. Together they name a libtest suite ("alpha/tests/api.rs"), so two
// packages of a workspace with the same test names never share one
// (docs/parsers.md, "cargo test output"). Pure.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>

namespace hydra::parse {

/// What one cargo header says.
struct CargoHeader {
  /// The target as cargo describes it: "unittests src/lib.rs",
  /// "tests/api.rs", "doc-tests"; empty for an older cargo's bare binary path.
  std::string target;
  /// The test binary's file name ("alpha-e62994b938fd5803"); empty for doc tests.
  std::string binary;
  /// The crate of "Doc-tests alpha" ("alpha"); empty for a binary.
  std::string doc_crate;
};

/// The header `line` is, or nullopt: "     Running unittests src/lib.rs
/// (target/debug/deps/x-hash)", an older cargo's "     Running
/// target/debug/deps/x-hash" (or, with -v, "`/abs/target/debug/deps/x-hash`"),
/// "   Doc-tests x". cargo right-aligns its status words, so a header starts
/// with a space.
std::optional<CargoHeader> cargo_header(std::string_view line);

/// The packages of the test binaries a log's JSON messages name.
class CargoPackages {
 public:
  /// Reads one line of cargo's JSON messages; a `compiler-artifact` with an
  /// `executable` maps that file to its package, a `lib` target's name to its
  /// package. Anything else, or a line that is not such JSON, is ignored.
  void read_message(std::string_view line);

  /// The suite of the binary or doc tests `header` names:
  /// "<package>/<target>" ("alpha/unittests src/lib.rs", "alpha/tests/api.rs",
  /// "alpha/doc-tests"). The package comes from the JSON messages; without
  /// them it is the binary's name without its `-hash` (for unit tests, the
  /// crate's name; for an integration test, the test's own name) or the doc
  /// tests' crate. An older cargo's bare binary path gives the binary's name
  /// alone.
  std::string suite_of(const CargoHeader& header) const;

 private:
  std::map<std::string, std::string, std::less<>> package_of_binary_;  ///< binary file name -> package
  std::map<std::string, std::string, std::less<>> package_of_lib_;     ///< lib crate name -> package
};

/// A doc test's name without its line: "src/lib.rs - add (line 3)" gives
/// "src/lib.rs - add" and 3 in `line`; any other name is returned as it is
/// (`line` 0).
std::string_view without_doc_test_line(std::string_view name, unsigned long& line);

}  // namespace hydra::parse
