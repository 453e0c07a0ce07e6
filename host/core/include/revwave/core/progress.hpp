// A progress callback: (work done, work total), called from the time loops.
#pragma once
#include <functional>

#include "revwave/core/config.hpp"

namespace revwave {
using Progress = std::function<void(index_t done, index_t total)>;
}
