#include "signals.hpp"

#include "revwave/core/cancellation.hpp"

namespace revwave::python {

namespace nb = nanobind;

namespace {
// A strong reference, held without an nb::object so that nothing is released at exit after the
// interpreter has gone; the package clears it after every call.
PyObject* progress_hook = nullptr;
}  // namespace

void set_progress_hook(nb::handle hook) {
  PyObject* next = hook.is_none() ? nullptr : hook.ptr();
  Py_XINCREF(next);
  PyObject* previous = progress_hook;
  progress_hook = next;
  Py_XDECREF(previous);
}

void SignalCheck::check(index_t done, index_t total) {
  last_ = std::chrono::steady_clock::now();
  nb::gil_scoped_acquire held;
  // The handler's exception stays set on this thread's state: the binding raises it once the run has
  // unwound (nb::python_error).
  if (PyErr_CheckSignals() != 0) throw RunCancelled{};
  if (progress_hook != nullptr && total > 0) {
    PyObject* r =
        PyObject_CallFunction(progress_hook, "LL", static_cast<long long>(done), static_cast<long long>(total));
    if (r == nullptr) throw RunCancelled{};  // the hook's exception, set on this thread
    Py_DECREF(r);
  }
}

Progress SignalCheck::progress() {
  return [this](index_t done, index_t total) {
    if (std::chrono::steady_clock::now() - last_ >= std::chrono::milliseconds(50) ||
        (progress_hook != nullptr && done == total)) {
      check(done, total);
    }
  };
}

Progress SignalCheck::signals_only() {
  return [this](index_t, index_t) {
    if (std::chrono::steady_clock::now() - last_ >= std::chrono::milliseconds(50)) check(-1, 0);
  };
}

}  // namespace revwave::python
