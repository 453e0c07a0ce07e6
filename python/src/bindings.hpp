// The extension's parts (internal): the option structs as Python classes, and the runs.
#pragma once
#include <nanobind/nanobind.h>

namespace revwave::python {

void bind_options(nanobind::module_& m);
void bind_runs(nanobind::module_& m);

}  // namespace revwave::python
