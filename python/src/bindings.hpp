// The extension's parts (internal): the option structs as Python classes, and the runs.
#pragma once
#include <nanobind/nanobind.h>

#include <cstdint>

namespace revwave::python {

void bind_options(nanobind::module_& m);
// The address of the array the last ProblemOptions.set_model read (tests: a model crosses in place).
std::uintptr_t last_model_address();
void bind_runs(nanobind::module_& m);

}  // namespace revwave::python
