// The device a propagator or a shot engine works on, made current for its lifetime, and the caller's
// current device given back when it ends: a library call leaves the calling thread's device as it
// found it. Given back only where the caller had a context on it (its primary context is active):
// since CUDA 12, cudaSetDevice makes a context, and a rank that ran on device 2 must not leave one
// on device 0, which the runtime names current before any call.
#pragma once

namespace revwave {

class SelectDevice {
 public:
  explicit SelectDevice(int device);  // CudaError where the device cannot be made current
  ~SelectDevice();
  SelectDevice(const SelectDevice&) = delete;
  SelectDevice& operator=(const SelectDevice&) = delete;

 private:
  int device_ = 0;
  int previous_ = 0;
};

// Whether `device` has an active primary context (the driver's cuDevicePrimaryCtxGetState, reached
// through the runtime so that a binary needs no libcuda to load): false where it cannot be asked.
bool primary_context_active(int device);

}  // namespace revwave
