#include "revwave/store/parallel_copy.hpp"

#include <immintrin.h>
#include <omp.h>

#include <cstdint>
#include <cstring>

namespace revwave {
namespace {

// Below this a single memcpy beats waking the thread team.
constexpr std::size_t parallel_threshold = std::size_t(1) << 20;

template <class CopyChunk>
void split(char* d, const char* s, std::size_t bytes, CopyChunk&& copy) {
  if (bytes < parallel_threshold) {
    copy(d, s, bytes);
    return;
  }
#pragma omp parallel
  {
    const std::size_t threads = static_cast<std::size_t>(omp_get_num_threads());
    const std::size_t t = static_cast<std::size_t>(omp_get_thread_num());
    const std::size_t chunk = (bytes / threads) & ~std::size_t(63);
    const std::size_t begin = t * chunk, end = t + 1 == threads ? bytes : begin + chunk;
    copy(d + begin, s + begin, end - begin);
  }
}

void stream_copy(char* d, const char* s, std::size_t bytes) {
  if ((reinterpret_cast<std::uintptr_t>(d) | reinterpret_cast<std::uintptr_t>(s)) % 32 != 0) {
    std::memcpy(d, s, bytes);
    return;
  }
  std::size_t k = 0;
  for (; k + 32 <= bytes; k += 32) {
    _mm256_stream_si256(reinterpret_cast<__m256i*>(d + k), _mm256_load_si256(reinterpret_cast<const __m256i*>(s + k)));
  }
  std::memcpy(d + k, s + k, bytes - k);
  _mm_sfence();
}

}  // namespace

void copy_to_slot(void* dst, const void* src, std::size_t bytes) {
  split(static_cast<char*>(dst), static_cast<const char*>(src), bytes, stream_copy);
}

void copy_to_state(void* dst, const void* src, std::size_t bytes) {
  split(static_cast<char*>(dst), static_cast<const char*>(src), bytes,
        [](char* d, const char* s, std::size_t n) { std::memcpy(d, s, n); });
}

}  // namespace revwave
