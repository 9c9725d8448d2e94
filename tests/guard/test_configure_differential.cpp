// Tests for the configure differential's judgement (guard/configure_differential.hpp).
#include <catch2/catch.hpp>

#include <hydra/guard/configure_differential.hpp>

using hydra::guard::judge_configure_differential;
using Differences = std::vector<hydra::model::ConfigureDifference>;

TEST_CASE("a configure difference the baseline shows too is excused", "[guard][configure-differential]") {
  const Differences baseline = {{"define GIT_HASH", "target lib, a.cpp: GIT_HASH=unknown only in HydraScore's capture"}};
  const Differences candidate = {
      {"define GIT_HASH", "target lib, new.cpp: GIT_HASH=unknown only in HydraScore's capture"},
      {"source fix.cpp", "target lib: fix.cpp only in HydraScore's capture"}};
  const auto judged = judge_configure_differential(baseline, candidate);
  CHECK(judged.judged);
  REQUIRE(judged.own.size() == 1);
  CHECK(judged.own[0].key == "source fix.cpp");
  CHECK(judged.evidence.at("excused").size() == 1);
  CHECK(judged.evidence.at("differing")[0].at("detail") == "target lib: fix.cpp only in HydraScore's capture");
}

TEST_CASE("a configure differential is judged only when both runs recorded one", "[guard][configure-differential]") {
  const Differences candidate = {{"source fix.cpp", "target lib: fix.cpp only in HydraScore's capture"}};
  CHECK_FALSE(judge_configure_differential(std::nullopt, candidate).judged);
  CHECK(judge_configure_differential(std::nullopt, candidate).own.empty());
  CHECK(judge_configure_differential(Differences{}, candidate).own.size() == 1);
  CHECK(judge_configure_differential(Differences{}, Differences{}).own.empty());
}

TEST_CASE("a differential whose baseline failed its plain configure says it cannot judge a candidate failing too",
          "[guard][configure-differential]") {
  const Differences failed = {{"configure", "the configure failed outside HydraScore's capture (exit 1): no git"}};
  SECTION("both failed: not judged, said so, not held against the candidate") {
    const auto judged = judge_configure_differential(failed, failed);
    CHECK_FALSE(judged.judged);
    CHECK(judged.own.empty());
    CHECK(judged.not_judged.find("the baseline's plain configure failed") == 0);
    CHECK(judged.evidence.at("judged") == false);
    CHECK(judged.evidence.at("not_judged") == judged.not_judged);
  }
  SECTION("the candidate's plain configure ran: its differences are judged") {
    const Differences candidate = {{"source fix.cpp", "target lib: fix.cpp only in HydraScore's capture"}};
    const auto judged = judge_configure_differential(failed, candidate);
    CHECK(judged.judged);
    CHECK(judged.not_judged.empty());
    CHECK(judged.own.size() == 1);
  }
  SECTION("the failure is read from the record") {
    CHECK(hydra::guard::failed_plain_configure(failed) == failed[0].detail);
    CHECK_FALSE(hydra::guard::failed_plain_configure(Differences{}));
    CHECK_FALSE(hydra::guard::failed_plain_configure(std::nullopt));
  }
}
