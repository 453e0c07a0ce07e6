// libFuzzer entry point: revwave::fuzz::segy (harnesses.hpp says what it checks).
#include <cstddef>
#include <cstdint>

#include "harnesses.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  revwave::fuzz::segy(data, size);
  return 0;
}
