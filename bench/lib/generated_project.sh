# A generated CMake project for the capture benchmarks (sourced by
# bench/incremental_capture.sh and bench/ref_ccache.sh): N translation units
# src/unitK.cpp, each including its own include/unitK.hpp and the shared
# include/common.hpp (<algorithm>, <map>, <memory>, <string>, <vector>),
# each with clang-tidy findings under the .clang-tidy it writes, plus one
# test (src/main_test.cpp, registered with CTest).

generate_project() {  # generate_project DIR N: N units, one header each, a shared header, one test
  local dir="$1" n="$2"
  mkdir -p "$dir/src" "$dir/include"
  cat > "$dir/.clang-tidy" <<'EOF'
Checks: '-*,modernize-*,readability-braces-around-statements,readability-else-after-return,bugprone-*,performance-*,-modernize-use-trailing-return-type'
EOF
  cat > "$dir/include/common.hpp" <<'EOF'
#pragma once
#include <algorithm>
#include <map>
#include <memory>
#include <string>
#include <vector>
namespace gen {
struct Record {
  std::string name;
  std::vector<int> values;
};
}  // namespace gen
EOF
  local sources=""
  for i in $(seq 1 "$n"); do
    cat > "$dir/include/unit$i.hpp" <<EOF
#pragma once
#include "common.hpp"
namespace gen {
int unit$i(const std::vector<Record>& records);
}  // namespace gen
EOF
    cat > "$dir/src/unit$i.cpp" <<EOF
#include "unit$i.hpp"
namespace gen {
int unit$i(const std::vector<Record>& records) {
  std::map<std::string, int> totals;
  int* unused = 0;
  for (unsigned k = 0; k < records.size(); ++k) {
    if (records[k].values.empty()) continue;
    for (auto v : records[k].values) totals[records[k].name] += v * $i;
  }
  int best = 0;
  for (auto it = totals.begin(); it != totals.end(); ++it) best = std::max(best, it->second);
  if (unused) return -1; else return best;
}
}  // namespace gen
EOF
    sources="$sources src/unit$i.cpp"
  done
  cat > "$dir/src/main_test.cpp" <<'EOF'
#include "unit1.hpp"
int main() { return gen::unit1({{"a", {1, 2}}}) == 3 ? 0 : 1; }
EOF
  cat > "$dir/CMakeLists.txt" <<EOF
cmake_minimum_required(VERSION 3.25)
project(generated LANGUAGES CXX)
set(CMAKE_CXX_STANDARD 17)
add_library(generated$sources)
target_include_directories(generated PUBLIC include)
enable_testing()
add_executable(main_test src/main_test.cpp)
target_link_libraries(main_test PRIVATE generated)
add_test(NAME main_test COMMAND main_test)
EOF
}
