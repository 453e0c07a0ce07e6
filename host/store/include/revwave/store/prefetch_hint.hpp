// What a checkpoint store may ask about the restores to come, so that it can read a slot from a
// slow medium (disk, pinned host memory) ahead of its turn. The store knows no schedule: the
// gradient driver answers from its lookahead into the one it runs.
#pragma once
#include <cstddef>
#include <cstdint>

namespace revwave {

class PrefetchHint {
 public:
  virtual ~PrefetchHint() = default;
  // The slot (in the schedule's numbering) of the next restore among slots [first, first + count)
  // within the next `window` actions, or -1 when there is none or when that slot is stored again
  // before it: then its content is not final yet, and the store asks again later.
  virtual std::int64_t next_restore(std::int64_t first, std::int64_t count, std::size_t window) = 0;
};

}  // namespace revwave
