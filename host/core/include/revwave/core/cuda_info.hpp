// What this build knows about CUDA: whether the backend is compiled in, and the devices found.
// Plain C++: implemented in cuda/ when the backend is built, by a stub otherwise.
#pragma once
#include <cstddef>
#include <string>
#include <vector>

namespace revwave {

struct CudaDeviceInfo {
  int ordinal = 0;
  std::string name;
  std::size_t total_memory = 0;
  std::size_t free_memory = 0;
  int cc_major = 0, cc_minor = 0;
};

bool cuda_compiled();
// The devices a run may use; 0 when the backend is not compiled, no driver is loaded, or no device
// exists. Creates no CUDA context: a run makes one only on the device it uses.
int cuda_device_count();
// Every device with its free memory (for `revwave info`). Empty where cuda_device_count() is 0.
// Reading free memory creates a context on each device; the current device is left as it was.
std::vector<CudaDeviceInfo> cuda_devices();
// Why there is no usable device (driver missing, no device, not compiled), for messages.
std::string cuda_unavailable_reason();

}  // namespace revwave
