#include "revwave/cuda/runtime/cuda_error.hpp"

#include "revwave/core/system_memory.hpp"

namespace revwave {

CudaError::CudaError(cudaError_t error, const char* expr, const char* file, int line)
    : BackendError(std::string(file) + ":" + std::to_string(line) + ": " + cudaGetErrorName(error) + ": " +
                   cudaGetErrorString(error) + " (in " + expr + ")"),
      error_(error) {}

CudaOutOfMemoryError::CudaOutOfMemoryError(const std::string& what, std::size_t needed, std::size_t free_bytes)
    : OutOfMemoryError(what + " needs " + format_bytes(double(needed)) + ", device has " +
                       format_bytes(double(free_bytes)) + " free"),
      needed_(needed),
      free_(free_bytes) {}

void cuda_check(cudaError_t error, const char* expr, const char* file, int line) {
  if (error == cudaSuccess) return;
  cudaGetLastError();  // clear a non-sticky error so that later calls are not blamed for it
  throw CudaError(error, expr, file, line);
}

std::size_t cuda_free_memory() noexcept {
  std::size_t free_b = 0, total_b = 0;
  if (cudaMemGetInfo(&free_b, &total_b) != cudaSuccess) {
    cudaGetLastError();
    return 0;
  }
  return free_b;
}

}  // namespace revwave
