// The host instantiation of the tiered store (the CUDA backend instantiates its own in cuda/store).
#include "revwave/store/tiered_store.hpp"

namespace revwave {

template class BasicTieredStore<HostState>;

}  // namespace revwave
