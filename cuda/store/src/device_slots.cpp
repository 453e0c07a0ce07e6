// The device instantiation of the memory store.
#include "revwave/cuda/store/device_slots.hpp"

namespace revwave {

template class BasicMemoryStore<DeviceState>;

}  // namespace revwave
