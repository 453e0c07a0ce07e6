// CUDA errors as typed exceptions: CudaError (file:line, error name, message) and
// CudaOutOfMemoryError, a revwave::OutOfMemoryError that says what was needed and what was free.
#pragma once
#include <cstddef>
#include <stdexcept>
#include <string>

#include <cuda_runtime_api.h>

#include "revwave/core/errors.hpp"

namespace revwave {

// A device fault: one of revwave's backend errors (exit code 5 on the command line).
class CudaError : public BackendError {
 public:
  CudaError(cudaError_t error, const char* expr, const char* file, int line);
  cudaError_t error() const noexcept { return error_; }

 private:
  cudaError_t error_;
};

class CudaOutOfMemoryError : public OutOfMemoryError {
 public:
  // "<what> needs X, device has Y free": what names the allocation (e.g. "a wavefield").
  CudaOutOfMemoryError(const std::string& what, std::size_t needed, std::size_t free_bytes);
  std::size_t needed() const noexcept { return needed_; }
  std::size_t free_bytes() const noexcept { return free_; }

 private:
  std::size_t needed_, free_;
};

// Throws CudaError for anything but cudaSuccess (clearing the sticky-free error state first).
void cuda_check(cudaError_t error, const char* expr, const char* file, int line);

// Free device memory now, or 0 if the query itself fails (never throws).
std::size_t cuda_free_memory() noexcept;

}  // namespace revwave

#define REVWAVE_CUDA_CHECK(expr) ::revwave::cuda_check((expr), #expr, __FILE__, __LINE__)
