// How test frameworks name their cases in their JUnit reports (junit_dialect.hpp).
#include <hydra/parse/junit_dialect.hpp>

#include <string>

namespace hydra::parse {

std::string_view to_string(JunitDialect dialect) noexcept {
  switch (dialect) {
    case JunitDialect::generic: return "generic";
    case JunitDialect::googletest: return "googletest";
    case JunitDialect::catch2: return "catch2";
    case JunitDialect::doctest: return "doctest";
  }
  return "generic";
}

std::optional<JunitDialect> junit_dialect_from_string(std::string_view text) noexcept {
  for (const auto dialect : {JunitDialect::generic, JunitDialect::googletest, JunitDialect::catch2, JunitDialect::doctest})
    if (to_string(dialect) == text) return dialect;
  return std::nullopt;
}

void apply_dialect(JunitDialect dialect, const DialectFields& fields, model::TestCase& test) {
  switch (dialect) {
    case JunitDialect::googletest:
      // Parameters are part of a case's identity (docs/formulas.md, "Test cases").
      if (!fields.type_param.empty()) test.name += " # TypeParam = " + std::string(fields.type_param);
      if (!fields.value_param.empty()) test.name += " # GetParam() = " + std::string(fields.value_param);
      break;
    case JunitDialect::catch2: {
      // Catch2 writes classname="<program>.<class>": the program is the
      // CTest test already; "global" for a case outside any class.
      const std::string prefix = std::string(fields.suite_name) + ".";
      if (!fields.suite_name.empty() && fields.classname.substr(0, prefix.size()) == prefix &&
          fields.classname.size() > prefix.size())
        test.suite = std::string(fields.classname.substr(prefix.size()));
      break;
    }
    case JunitDialect::doctest: {
      // doctest's classname is the source file as the compiler was given it
      // (an absolute path in most builds): its name only, so the same case
      // has the same identity in every tree.
      const auto slash = test.suite.find_last_of("/\\");
      if (slash != std::string::npos && slash + 1 < test.suite.size()) test.suite.erase(0, slash + 1);
      break;
    }
    case JunitDialect::generic:
      break;
  }
}

}  // namespace hydra::parse
