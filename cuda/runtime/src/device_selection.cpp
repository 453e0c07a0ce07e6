#include "revwave/cuda/runtime/device_selection.hpp"

#include <cuda.h>
#include <cuda_runtime_api.h>

#include "revwave/cuda/runtime/cuda_error.hpp"

namespace revwave {

bool primary_context_active(int device) {
  using GetDevice = CUresult (*)(CUdevice*, int);
  using GetState = CUresult (*)(CUdevice, unsigned int*, int*);
  void* get_device = nullptr;
  void* get_state = nullptr;
  cudaDriverEntryPointQueryResult found{};
  if (cudaGetDriverEntryPointByVersion("cuDeviceGet", &get_device, 12000, cudaEnableDefault, &found) != cudaSuccess ||
      found != cudaDriverEntryPointSuccess ||
      cudaGetDriverEntryPointByVersion("cuDevicePrimaryCtxGetState", &get_state, 12000, cudaEnableDefault, &found) !=
          cudaSuccess ||
      found != cudaDriverEntryPointSuccess) {
    cudaGetLastError();
    return false;
  }
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
