// Seconds on the steady clock since `t0`: how phases, stages and stores time themselves.
#pragma once
#include <chrono>

namespace revwave {

inline double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace revwave
