// A scoped NVTX range, so an nsys timeline reads like the schedule (forward, reverse, store, ...).
#pragma once
#include <nvtx3/nvToolsExt.h>

namespace revwave {

class NvtxRange {
 public:
  explicit NvtxRange(const char* name) noexcept { nvtxRangePushA(name); }
  NvtxRange(const NvtxRange&) = delete;
  NvtxRange& operator=(const NvtxRange&) = delete;
  ~NvtxRange() { nvtxRangePop(); }
};

}  // namespace revwave
