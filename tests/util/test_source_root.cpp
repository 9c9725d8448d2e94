// util::infer_source_root / strip_source_root: the checkout folder of a log's
// absolute paths, found by matching them against the diff's paths.
#include <catch2/catch.hpp>

#include <hydra/util/source_root.hpp>

using hydra::util::infer_source_root;
using hydra::util::strip_source_root;

TEST_CASE("infer_source_root matches a log's absolute paths against the diff", "[util][source_root]") {
  SECTION("valid input: an exact diff path wins, deepest folder first") {
    // common folder /ci/cand/src: "x.cpp" is no diff path; /ci/cand: "src/x.cpp" is
    CHECK(infer_source_root({"/ci/cand/src/x.cpp", "/ci/cand/src/y.cpp"}, {"src/x.cpp"}) == "/ci/cand");
    // a checkout whose own path holds a folder named like the change's ("src")
    CHECK(infer_source_root({"/home/src/proj/src/x.cpp"}, {"src/x.cpp"}) == "/home/src/proj");
  }
  SECTION("valid input: else a top-level folder of the change") {
    // findings in src/frequency.cpp, change in src/count.cpp: "src" is shared
    CHECK(infer_source_root({"/ci/cand/src/frequency.cpp", "/ci/cand/include/a.hpp"}, {"src/count.cpp"}) ==
          "/ci/cand");
  }
  SECTION("bad input: nothing absolute or nothing matches") {
    CHECK_FALSE(infer_source_root({"src/x.cpp"}, {"src/x.cpp"}));
    CHECK_FALSE(infer_source_root({"/ci/cand/src/x.cpp"}, {}));
    CHECK_FALSE(infer_source_root({"/ci/cand/src/x.cpp"}, {"README.md"}));
  }
}

TEST_CASE("strip_source_root uses the longest containing root", "[util][source_root]") {
  CHECK(strip_source_root("/ci/cand/src/x.cpp", {"/ci", "/ci/cand"}) == "src/x.cpp");
  CHECK(strip_source_root("/ci/candidate/x.cpp", {"/ci/cand"}) == "/ci/candidate/x.cpp");  // folder boundary
  CHECK(strip_source_root("src/x.cpp", {"/ci/cand"}) == "src/x.cpp");
}
