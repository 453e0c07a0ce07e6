#include "revwave/cuda/runtime/device_selection.hpp"

#include <cuda.h>
#include <cuda_runtime_api.h>

#include "revwave/cuda/runtime/cuda_error.hpp"

namespace revwave {

namespace {

// A driver function through the runtime (CUDA 12.5 names the driver's version it asks for; 11.3 to
// 12.4 have the unversioned call); null where the driver lacks it.
void* driver_entry(const char* name) {
  void* fn = nullptr;
  cudaDriverEntryPointQueryResult found{};
#if CUDART_VERSION >= 12050
  const cudaError_t e = cudaGetDriverEntryPointByVersion(name, &fn, 12000, cudaEnableDefault, &found);
#else
  const cudaError_t e = cudaGetDriverEntryPoint(name, &fn, cudaEnableDefault, &found);
#endif
  if (e != cudaSuccess || found != cudaDriverEntryPointSuccess) {
    cudaGetLastError();
    return nullptr;
  }
  return fn;
}

}  // namespace

bool primary_context_active(int device) {
  using GetDevice = CUresult (*)(CUdevice*, int);
  using GetState = CUresult (*)(CUdevice, unsigned int*, int*);
  void* get_device = driver_entry("cuDeviceGet");
  void* get_state = driver_entry("cuDevicePrimaryCtxGetState");
  if (get_device == nullptr || get_state == nullptr) return false;
  CUdevice handle{};
  unsigned int flags = 0;
  int active = 0;
  if (reinterpret_cast<GetDevice>(get_device)(&handle, device) != CUDA_SUCCESS) return false;
  if (reinterpret_cast<GetState>(get_state)(handle, &flags, &active) != CUDA_SUCCESS) return false;
  return active != 0;
}

SelectDevice::SelectDevice(int device) : device_(device) {
  if (cudaGetDevice(&previous_) != cudaSuccess) {
    cudaGetLastError();
    previous_ = device;
  }
  REVWAVE_CUDA_CHECK(cudaSetDevice(device));
}

SelectDevice::~SelectDevice() {
  if (previous_ == device_ || !primary_context_active(previous_)) return;
  if (cudaSetDevice(previous_) != cudaSuccess) cudaGetLastError();
}

}  // namespace revwave
