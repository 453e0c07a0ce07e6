// A user's misfit from Python (internal to the extension): revwave.gradient(misfit=fn) with
// fn(synthetic, observed) -> (J, adjoint_source), numpy arrays of shape (nt, nrec) in the run's
// dtype, called once per shot between the forward and the reverse sweep with the GIL held.
#pragma once
#include <nanobind/nanobind.h>

#include <memory>

#include "revwave/misfit/misfit_choice.hpp"

namespace revwave::python {

// The callable as a MisfitChoice in both precisions. An exception raised in fn reaches the caller of
// revwave.gradient as it was raised (nanobind carries it through the library unchanged); a result
// that is not (J, array of shape (nt, nrec) and the run's dtype), or a J that is not finite, is an
// InputError of one line.
MisfitChoice python_misfit(nanobind::object fn);

}  // namespace revwave::python
