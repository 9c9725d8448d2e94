// A minimal test harness for textstats' tests: CHECK_EQ, and a `main` helper
// that runs one named test case per process so that every case is its own
// CTest test.
#pragma once

#include <exception>
#include <functional>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace textstats_test {

/// The number of failed checks in this process.
inline int failed_checks = 0;

/// `value` as it appears in a failure message.
template <typename Value>
std::string describe(const Value& value) {
  std::ostringstream out;
  out << value;
  return out.str();
}

inline std::string describe(const std::string& value) {
  return '"' + value + '"';
}

inline std::string describe(const std::vector<std::string>& values) {
  std::string text = "{";
  for (std::size_t index = 0; index < values.size(); ++index) {
    text += (index == 0 ? "" : ", ") + describe(values[index]);
  }
  return text + "}";
}

/// Records a failure, printed with `expression`, `file` and `line`, when
/// `actual` differs from `expected`.
template <typename Actual, typename Expected>
void check_equal(const Actual& actual, const Expected& expected,
                 const char* expression, const char* file, int line) {
  if (actual == expected) {
    return;
  }
  ++failed_checks;
  std::cerr << file << ':' << line << ": CHECK_EQ(" << expression
            << ") failed\n  actual:   " << describe(actual)
            << "\n  expected: " << describe(expected) << '\n';
}

/// Test cases by name.
using TestCases = std::map<std::string, std::function<void()>>;

/// Runs the case of `cases` named by the only command-line argument (`argc`,
/// `argv`). Returns 0 when all its checks pass, 1 when one fails or it
/// throws, 2 for a missing or unknown case name (the names are listed).
inline int run_test_case(int argc, char** argv, const TestCases& cases) {
  const auto found = argc == 2 ? cases.find(argv[1]) : cases.end();
  if (found == cases.end()) {
    std::cerr << "usage: " << argv[0] << " <test case>\ntest cases:\n";
    for (const auto& entry : cases) {
      std::cerr << "  " << entry.first << '\n';
    }
    return 2;
  }
  try {
    found->second();
  } catch (const std::exception& error) {
    ++failed_checks;
    std::cerr << found->first << ": unexpected exception: " << error.what() << '\n';
  }
  std::cout << found->first << (failed_checks == 0 ? ": passed\n" : ": FAILED\n");
  return failed_checks == 0 ? 0 : 1;
}

}  // namespace textstats_test

/// Checks that `actual` equals the expected value (the remaining arguments,
/// so braced lists with commas need no extra parentheses).
#define CHECK_EQ(actual, ...)                                     \
  ::textstats_test::check_equal((actual), (__VA_ARGS__),          \
                                #actual ", " #__VA_ARGS__, __FILE__, __LINE__)
