#include <catch2/catch.hpp>

#include <limits>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include <hydra/util/exact.hpp>

using hydra::util::Exact;

TEST_CASE("A decimal input is the decimal it was written as", "[util]") {
  // 0.1 + 0.2 is 0.30000000000000004 in doubles; exactly 3/10 here.
  CHECK(Exact(0.1) + Exact(0.2) == Exact(0.3));
  CHECK(Exact(0.1).text() == "1/10");
  CHECK(Exact(0.01).text() == "1/100");
  CHECK(Exact(1e-7).text() == "1/10000000");
  CHECK(Exact(123456789.125).text() == "987654313/8");
  CHECK(Exact(-2.5).text() == "-5/2");
  CHECK(Exact(30.0) == 30);
  CHECK(Exact(1e20).text() == "100000000000000000000");
  CHECK_THROWS_AS(Exact(std::numeric_limits<double>::quiet_NaN()), std::domain_error);
  CHECK_THROWS_AS(Exact(std::numeric_limits<double>::infinity()), std::domain_error);
}

TEST_CASE("Ratios of counts stay exact", "[util]") {
  CHECK(Exact::ratio(1, 120) + Exact::ratio(1, 600) == Exact(0.01));
  CHECK(Exact::ratio(2, 6) == Exact::ratio(1, 3));
  CHECK((Exact::ratio(1, 10) + Exact::ratio(2, 10)) / 2 == (Exact::ratio(3, 10) + 0) / 2);
  CHECK(Exact::ratio(-3, 4).text() == "-3/4");
  CHECK(Exact(std::uint64_t{18446744073709551615u}).text() == "18446744073709551615");
  CHECK(Exact(std::int64_t{-9223372036854775807 - 1}).text() == "-9223372036854775808");
  CHECK_THROWS_AS(Exact::ratio(1, 0), std::domain_error);
  CHECK_THROWS_AS(Exact(1) / Exact(0), std::domain_error);
}

TEST_CASE("Comparisons are exact at the boundary", "[util]") {
  const Exact third = Exact::ratio(1, 3);
  CHECK(third < Exact(0.3333333333333334));
  CHECK(third > Exact(0.3333333333333333));
  CHECK_FALSE(Exact::ratio(3, 20) > Exact(0.15));
  CHECK(Exact::ratio(3, 20) >= Exact(0.15));
  CHECK(hydra::util::clamp(Exact(120), 0, 100) == 100);
  CHECK(hydra::util::clamp(Exact(-1), 0, 100) == 0);
  CHECK(hydra::util::clamp(third, 0, 1) == third);
  CHECK((-third).sign() == -1);
  CHECK(Exact().sign() == 0);
}

TEST_CASE("Text round-trips and parses decimals and fractions", "[util]") {
  for (const Exact& value : {Exact::ratio(5, 12), Exact(-7), Exact(0.125), Exact()}) {
    const auto back = Exact::parse(value.text());
    REQUIRE(back);
    CHECK(*back == value);
  }
  CHECK(*Exact::parse("1e-3") == Exact::ratio(1, 1000));
  CHECK(*Exact::parse("+2.50E1") == 25);
  CHECK(*Exact::parse("10/4") == Exact::ratio(5, 2));
  CHECK(*Exact::parse(".5") == Exact::ratio(1, 2));
  CHECK_FALSE(Exact::parse(""));
  CHECK_FALSE(Exact::parse("1/0"));
  CHECK_FALSE(Exact::parse("abc"));
  CHECK_FALSE(Exact::parse("1.2.3"));
  CHECK_FALSE(Exact::parse("1e"));
  CHECK_FALSE(Exact::parse("."));
}

TEST_CASE("Rounding is for display: half away from zero, on the exact value", "[util]") {
  // 1.005 as a double is 1.00499999999999989...; as the decimal written, 1.005 rounds up.
  CHECK(Exact(1.005).rounded(2) == Exact(1.01));
  CHECK(Exact(-1.005).rounded(2) == Exact(-1.01));
  CHECK(Exact::ratio(2, 3).rounded(6) == Exact(0.666667));
  CHECK(Exact::ratio(1, 3).rounded(0) == 0);
  CHECK(Exact::ratio(1, 2).rounded(0) == 1);
  CHECK(Exact::ratio(3, 20).fixed(6) == "0.150000");
  CHECK(Exact::ratio(-1, 3).fixed(2) == "-0.33");
  CHECK(Exact::ratio(-1, 1000).fixed(2) == "0.00");  // never "-0.00"
  CHECK(Exact(7).fixed(0) == "7");
  CHECK(Exact(0.05).fixed(2) == "0.05");
  CHECK(Exact(123.456).fixed(1) == "123.5");
}

TEST_CASE("to_double is the nearest double", "[util]") {
  CHECK(Exact::ratio(1, 3).to_double() == 1.0 / 3.0);
  CHECK(Exact::ratio(2, 3).to_double() == 2.0 / 3.0);  // truncation would give 0.6666666666666666
  CHECK(Exact(0.1).to_double() == 0.1);
  CHECK(Exact::ratio(-2, 3).to_double() == -2.0 / 3.0);
  CHECK(Exact::ratio(89, 7).to_double() == 89.0 / 7.0);
  CHECK((Exact::ratio(1, 10) * 60).to_double() == 6.0);
  // A tie between two doubles goes to the even one: 2^53 + 1 lies halfway
  // between 2^53 and 2^53 + 2.
  CHECK(Exact(std::uint64_t{9007199254740993u}).to_double() == 9007199254740992.0);
  CHECK(Exact(std::uint64_t{9007199254740995u}).to_double() == 9007199254740996.0);
  nlohmann::json json = Exact::ratio(1, 4);
  CHECK(json.dump() == "0.25");
}
