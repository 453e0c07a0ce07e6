// What a run asks of a propagator, so that each propagator can state the host-memory working set
// it holds while doing it (Propagator::working_fields), before anything is allocated.
#pragma once

namespace revwave {

enum class Workload {
  forward,           // forward modelling: the shot record
  gradient,          // J and dJ/dm, any strategy
  dot_product_test,  // the modelling operator and its adjoint
};

}  // namespace revwave
