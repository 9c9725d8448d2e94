// The floor under parse_clang_tidy_file on the benchmark's log: only building
// its 904,800 results (model::LintFinding with strings of the same sizes as
// the log's), half on each of two threads, then moving the second half behind
// the first, as the parser's merge does. No reading or parsing; the
// constructor hashes the fingerprint, as it does in the parser.
//
// Build and run (after bench/bench_parsers.sh, which configures build-bench):
//   cmake --build build-bench --target hydra_result_floor && build-bench/bench/hydra_result_floor
// Prints per run: "build <s> move <s> total <s>"
#include <chrono>
#include <cstdio>
#include <string>
#include <thread>
#include <vector>

#include <hydra/model/lint.hpp>

namespace {

using hydra::model::LintFinding;

constexpr std::size_t findings_per_half = 904800 / 2;

void build(std::vector<LintFinding>& findings, const std::vector<std::string>& source_lines) {
  LintFinding::Parts parts;
  parts.tool = "clang-tidy";
  parts.file = "/ci/src/m0001/file_01.cpp";
  parts.line = 24;
  parts.column = 5;
  parts.message = "42 is a magic number; consider replacing it with a named constant";
  parts.checks = "cppcoreguidelines-avoid-magic-numbers,readability-magic-numbers";
  for (std::size_t i = 0; i < findings_per_half; ++i) {
    parts.source_line = source_lines[i % source_lines.size()];
    findings.emplace_back(parts);  // one allocation, and the fingerprint hashed
  }
}

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

int main() {
  std::vector<std::string> source_lines;
  for (int i = 0; i < 1024; ++i) source_lines.push_back("if(v" + std::to_string(i * 1000) + ">42)return;");
  for (int run = 0; run < 3; ++run) {
    const auto start = std::chrono::steady_clock::now();
    std::vector<LintFinding> first;
    std::vector<LintFinding> second;
    first.reserve(2 * findings_per_half);
    second.reserve(findings_per_half);
    std::thread other([&] { build(second, source_lines); });
    build(first, source_lines);
    other.join();
    const double built = seconds_since(start);
    for (LintFinding& finding : second) first.push_back(std::move(finding));
    const double total = seconds_since(start);
    std::printf("build %.4f move %.4f total %.4f\n", built, total - built, total);
  }
  return 0;
}
