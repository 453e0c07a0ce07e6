// A shot's traces as the misfit sees them: nt samples of nrec receivers (sample-major, C order),
// the n-th at time n dt. A view: the forward sweep or the data file owns the values.
#pragma once
#include "revwave/core/config.hpp"

namespace revwave {

template <class T>
struct Traces {
  index_t nt = 0;
  index_t nrec = 0;
  double dt = 0;  // seconds between samples
  const T* values = nullptr;

  const T* sample(index_t n) const { return values + n * nrec; }
  index_t size() const { return nt * nrec; }
};

}  // namespace revwave
