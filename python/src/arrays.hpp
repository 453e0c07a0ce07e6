// Between numpy and revwave (internal to the extension): arrays read in place or copied to double,
// results handed over as arrays that own their memory, JSON as Python objects, records checked.
#pragma once
#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "revwave/io/npy.hpp"
#include "revwave/io/shot_record.hpp"
#include "revwave/numerics/model.hpp"
#include "revwave/numerics/problem.hpp"

namespace revwave::python {

namespace nb = nanobind;

// A C-contiguous float32 or float64 array on the host, read in place (the Python half converts
// other layouts and dtypes before they get here).
using InArray = nb::ndarray<nb::ro, nb::c_contig, nb::device::cpu>;

std::vector<double> values_of(const InArray& a, const std::string& name);
std::shared_ptr<const VelocityModel> model_of(const InArray& a, const std::string& name);
std::vector<Vec3> points_of(const InArray& a, const std::string& name);
// The array with its shape, as read_npy gives a file (for masks).
std::shared_ptr<const NpyArray> npy_of(const InArray& a, const std::string& name);
// A record from its arrays, checked as a file's would be (check_shot_record).
ShotRecord record_of(const InArray& data, double dt, double f0, double t0, const InArray& src, const InArray& rec,
                     const std::string& name);
// A record from a dict with keys data, dt, f0, t0, src, rec.
ShotRecord record_of(const nb::dict& d, const std::string& name);

// A numpy array that owns its memory: the vector moves into a capsule.
template <class T>
nb::ndarray<nb::numpy, T> owned(std::vector<T>&& values, std::vector<std::size_t> shape) {
  auto* held = new std::vector<T>(std::move(values));
  nb::capsule owner(held, [](void* p) noexcept { delete static_cast<std::vector<T>*>(p); });
  return nb::ndarray<nb::numpy, T>(held->data(), shape.size(), shape.data(), owner);
}

// `values` as a numpy array of `shape` in the run's precision T.
template <class T>
nb::object owned_as(const std::vector<double>& values, std::vector<std::size_t> shape) {
  return nb::cast(owned(std::vector<T>(values.begin(), values.end()), std::move(shape)));
}

nb::object to_python(const nlohmann::json& j);
nb::list points_to_python(const std::vector<Vec3>& pts);
// A record as the dict ShotRecord._from takes: data (nt, nrec) in T (moved into the array), dt, f0,
// t0, src, rec.
template <class T>
nb::dict record_dict(std::vector<T>&& data, const Acquisition& a, const TimeAxis& time) {
  nb::dict d;
  d["data"] = owned(std::move(data), {static_cast<std::size_t>(time.nt()), a.receivers.size()});
  d["dt"] = time.dt;
  d["f0"] = a.f0;
  d["t0"] = a.t0;
  d["src"] = points_to_python(a.sources);
  d["rec"] = points_to_python(a.receivers);
  return d;
}

}  // namespace revwave::python
