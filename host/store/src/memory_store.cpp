// The host instantiation of the memory store (the CUDA backend instantiates its device slots in cuda/store).
#include "revwave/store/memory_store.hpp"

namespace revwave {

template class BasicMemoryStore<HostState>;

}  // namespace revwave
