// Checkpoint slots in device memory: handles to the pool's fields, never copies. A store shares
// the state's two fields with the slot (the next step writes a free field), a restore shares them
// back (a last use hands them over): nothing is enqueued and nothing waits. The host's memory
// store (revwave/store/memory_store.hpp) over the device's state: the same code, the same rules.
#pragma once
#include "revwave/cuda/store/device_checkpoint_store.hpp"
#include "revwave/store/memory_store.hpp"

namespace revwave {

using DeviceSlots = BasicMemoryStore<DeviceState>;
extern template class BasicMemoryStore<DeviceState>;

}  // namespace revwave
