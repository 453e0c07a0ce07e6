// Device discovery through the CUDA runtime; no device or no driver is an empty list, not an error.
#include "revwave/core/cuda_info.hpp"

#include <cuda_runtime_api.h>

namespace revwave {

bool cuda_compiled() { return true; }

int cuda_device_count() {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess) {  // needs the driver, not a context
    cudaGetLastError();
    return 0;
  }
  return count;
}

std::vector<CudaDeviceInfo> cuda_devices() {
  std::vector<CudaDeviceInfo> out;
  const int count = cuda_device_count();
  if (count == 0) return out;
  int current = 0;
  if (cudaGetDevice(&current) != cudaSuccess) cudaGetLastError();
  for (int d = 0; d < count; ++d) {
    cudaDeviceProp prop{};
    if (cudaGetDeviceProperties(&prop, d) != cudaSuccess) continue;
    CudaDeviceInfo info;
    info.ordinal = d;
    info.name = prop.name;
    info.total_memory = prop.totalGlobalMem;
    info.cc_major = prop.major;
    info.cc_minor = prop.minor;
    std::size_t free_b = 0, total_b = 0;
    if (cudaSetDevice(d) == cudaSuccess && cudaMemGetInfo(&free_b, &total_b) == cudaSuccess) info.free_memory = free_b;
    out.push_back(info);
  }
  if (cudaSetDevice(current) != cudaSuccess) cudaGetLastError();
  return out;
}

std::string cuda_unavailable_reason() {
  int count = 0;
  const cudaError_t err = cudaGetDeviceCount(&count);
  if (err != cudaSuccess) {
    cudaGetLastError();
    return std::string("no CUDA device is usable (") + cudaGetErrorName(err) + ": " + cudaGetErrorString(err) + ")";
  }
  if (count == 0) return "no CUDA device was found";
  return "";
}

}  // namespace revwave
