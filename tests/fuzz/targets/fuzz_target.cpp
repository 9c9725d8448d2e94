// One libFuzzer target; HYDRA_FUZZ_TARGET names the parser
// (tests/fuzz/fuzz_parsers.hpp). Built once per parser when HYDRA_FUZZ is on.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "fuzz/fuzz_parsers.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  hydra::fuzz::run(hydra::fuzz::HYDRA_FUZZ_TARGET, std::string_view(reinterpret_cast<const char*>(data), size));
  return 0;
}
