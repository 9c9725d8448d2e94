#include <catch2/catch.hpp>

#include <string>

#include <hydra/error.hpp>
#include <hydra/parse/metrics.hpp>

using hydra::parse::parse_metrics;

namespace {

hydra::InputError error_of(const std::string& json) {
  try {
    parse_metrics(json, "metrics.json");
  } catch (const hydra::InputError& error) {
    return error;
  }
  FAIL("expected an InputError");
  throw;  // unreachable
}

}  // namespace

TEST_CASE("parse_metrics reads agent metrics JSON", "[parse]") {
  SECTION("valid input") {
    const auto metrics = parse_metrics(R"({"tokens": 120000, "cost_usd": 1.75, "tool_calls": 42,
      "steps": 17, "wall_clock_ms": 93000, "duration_seconds": 93.5})", "metrics.json");
    CHECK(metrics.tokens == 120000.0);
    CHECK(metrics.cost_usd == 1.75);
    CHECK(metrics.tool_calls == 42.0);
    CHECK(metrics.steps == 17.0);
    CHECK(metrics.wall_clock_ms == 93000.0);
    CHECK(metrics.duration_seconds == 93.5);

    // Every key is optional: absent is unknown, never zero.
    const auto empty = parse_metrics("{}", "metrics.json");
    CHECK_FALSE(empty.tokens.has_value());
    CHECK_FALSE(empty.duration_seconds.has_value());

    // "agent_seconds" is an alias of "duration_seconds".
    CHECK(parse_metrics(R"({"agent_seconds": 12})", "m.json").duration_seconds == 12.0);
    CHECK(parse_metrics(R"({"agent_seconds": 12, "duration_seconds": 12})", "m.json").duration_seconds == 12.0);
    CHECK(parse_metrics(R"({"tokens": 0})", "m.json").tokens == 0.0);
  }
  SECTION("bad input") {
    const auto unknown = error_of("{\n  \"tokens\": 1,\n  \"tokenz\": 2\n}");
    CHECK(unknown.file() == "metrics.json");
    CHECK(unknown.line() == 3);
    CHECK(unknown.column() == 3);
    CHECK_THAT(unknown.message(), Catch::Contains("unknown key \"tokenz\""));

    const auto text = error_of("{\"steps\": \"many\"}");
    CHECK_THAT(text.message(), Catch::Contains("\"steps\" must be a number, not string"));
    CHECK(text.line() == 1);
    CHECK(text.column() == 2);

    CHECK_THAT(error_of(R"({"cost_usd": -0.5})").message(), Catch::Contains("\"cost_usd\" must not be negative"));
    CHECK_THAT(error_of(R"({"steps": null})").message(), Catch::Contains("must be a number"));
    CHECK_THAT(error_of(R"({"agent_seconds": 3, "duration_seconds": 4})").message(), Catch::Contains("alias"));
    CHECK_THAT(error_of("[1, 2]").message(), Catch::Contains("must be a JSON object"));

    // NaN and Infinity are not JSON; the message says so, with the position.
    const auto nan = error_of("{\n  \"tokens\": NaN\n}");
    CHECK(nan.line() == 2);
    CHECK(nan.column() == 13);
    CHECK_THAT(nan.message(), Catch::Contains("NaN and Infinity are not valid JSON numbers"));
    CHECK_THAT(error_of(R"({"cost_usd": Infinity})").message(), Catch::Contains("NaN and Infinity"));
    CHECK_THAT(error_of(R"({"cost_usd": -Infinity})").message(), Catch::Contains("NaN and Infinity"));
    CHECK_THAT(error_of(R"({"cost_usd": 1e400})").message(), Catch::Contains("out of range"));

    const auto syntax = error_of("{\"tokens\": 1,}");
    CHECK(syntax.line() == 1);
    CHECK(syntax.column() == 14);
    CHECK_THAT(syntax.message(), Catch::StartsWith("malformed JSON"));
  }
}

TEST_CASE("parse_metrics reads input and output tokens, and tokens is their sum", "[parse]") {
  const auto split = parse_metrics(R"({"input_tokens": 90000, "output_tokens": 30000, "cost_usd": 0.8})", "m.json");
  CHECK(split.input_tokens == 90000.0);
  CHECK(split.output_tokens == 30000.0);
  CHECK(split.tokens == 120000.0);  // 90000 + 30000
  const auto all = parse_metrics(R"({"input_tokens": 9, "output_tokens": 3, "tokens": 12})", "m.json");
  CHECK(all.tokens == 12.0);
  const auto input_only = parse_metrics(R"({"input_tokens": 9})", "m.json");
  CHECK_FALSE(input_only.tokens.has_value());  // the total is unknown without the output tokens
  const auto disagree = error_of("{\"input_tokens\": 9, \"output_tokens\": 3,\n \"tokens\": 13}");
  CHECK(disagree.line() == 2);
  CHECK_THAT(disagree.message(), Catch::Contains("\"tokens\" must equal \"input_tokens\" + \"output_tokens\""));
  CHECK_THAT(error_of(R"({"output_tokens": -1})").message(), Catch::Contains("\"output_tokens\" must not be negative"));
  CHECK_THAT(error_of(R"({"input_tokens": "lots"})").message(), Catch::Contains("must be a number, not string"));
}
