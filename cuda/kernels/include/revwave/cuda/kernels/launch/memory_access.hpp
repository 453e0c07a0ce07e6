// What a kernel launch reads and writes, as plain data. Each launch struct declares it once, beside
// its thread body (kernel_launch.hpp); cudasim's stream-order race checker reads it, a real launch
// ignores it.
#pragma once
#include <cstddef>
#include <vector>

namespace revwave::launch {

struct MemoryAccess {
  const void* ptr = nullptr;
  std::size_t bytes = 0;  // 0: to the end of its allocation
  bool write = false;
};
using MemoryAccesses = std::vector<MemoryAccess>;

inline MemoryAccess reads(const void* p, std::size_t bytes = 0) { return {p, bytes, false}; }
inline MemoryAccess writes(const void* p, std::size_t bytes = 0) { return {p, bytes, true}; }

// Bytes of `count` values of V (an access's length).
template <class V, class N>
std::size_t bytes_of(N count) {
  return static_cast<std::size_t>(count) * sizeof(V);
}

}  // namespace revwave::launch
