// Times one of HydraScore's parsers on a (generated) input file: the best of
// `repeats` runs of reading and parsing the file. Built and run by
// bench/bench_parsers.sh.
//
// Usage: parse_bench junit|tidy FILE [repeats]
// Prints: "<parser> <items> <best seconds>"
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>

#include <hydra/error.hpp>
#include <hydra/parse/junit.hpp>
#include <hydra/parse/lint_log.hpp>

namespace {

template <typename Parse>
void time_best_of(const char* parser, int repeats, Parse parse) {
  double best = 1e300;
  std::size_t items = 0;
  for (int run = 0; run < repeats; ++run) {
    const auto start = std::chrono::steady_clock::now();
    const auto result = parse();
    const std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - start;
    if (elapsed.count() < best) best = elapsed.count();
    items = result.size();  // the result is freed outside the timed region
  }
  std::printf("%s %zu %.4f\n", parser, items, best);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: %s junit|tidy FILE [repeats]\n", argv[0]);
    return 2;
  }
  const std::string parser = argv[1];
  const std::string file = argv[2];
  const int repeats = argc > 3 ? std::atoi(argv[3]) : 3;
  try {
    if (parser == "junit") {
      time_best_of("junit", repeats, [&] { return hydra::parse::parse_junit_file(file); });
    } else if (parser == "tidy") {
      time_best_of("tidy", repeats, [&] { return hydra::parse::parse_clang_tidy_file(file); });
    } else {
      std::fprintf(stderr, "unknown parser %s\n", parser.c_str());
      return 2;
    }
  } catch (const std::exception& error) {
    std::fprintf(stderr, "%s\n", error.what());
    return 1;
  }
  return 0;
}
