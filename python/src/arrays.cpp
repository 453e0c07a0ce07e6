#include "arrays.hpp"

#include <nanobind/stl/string.h>

#include <cstring>

#include "revwave/core/errors.hpp"

namespace revwave::python {
namespace {

bool is_f32(const InArray& a) { return a.dtype() == nb::dtype<float>(); }
bool is_f64(const InArray& a) { return a.dtype() == nb::dtype<double>(); }

}  // namespace

std::vector<double> values_of(const InArray& a, const std::string& name) {
  if (!is_f32(a) && !is_f64(a)) throw nb::type_error((name + " must be float32 or float64 here").c_str());
  std::vector<double> v(a.size());
  if (is_f32(a)) {
    const float* p = static_cast<const float*>(a.data());
    for (std::size_t i = 0; i < v.size(); ++i) v[i] = p[i];
  } else {
    std::memcpy(v.data(), a.data(), v.size() * sizeof(double));
  }
  return v;
}

std::shared_ptr<const VelocityModel> model_of(const InArray& a, const std::string& name) {
  if (a.ndim() != 3) {
    throw InputError(name + ": a velocity model must be 3D (nx, ny, nz), this one has " + std::to_string(a.ndim()) +
                     " dimensions");
  }
  auto m = std::make_shared<VelocityModel>();
  m->shape = {static_cast<index_t>(a.shape(0)), static_cast<index_t>(a.shape(1)), static_cast<index_t>(a.shape(2))};
  m->velocity = values_of(a, name);
  return m;
}

std::vector<Vec3> points_of(const InArray& a, const std::string& name) {
  if (a.ndim() != 2 || a.shape(1) != 3 || a.shape(0) < 1) {
    throw InputError(name + ": points must have shape (n, 3) with n >= 1");
  }
  const std::vector<double> v = values_of(a, name);
  std::vector<Vec3> out(a.shape(0));
  for (std::size_t i = 0; i < out.size(); ++i) out[i] = {v[3 * i], v[3 * i + 1], v[3 * i + 2]};
  return out;
}

std::shared_ptr<const NpyArray> npy_of(const InArray& a, const std::string& name) {
  auto n = std::make_shared<NpyArray>();
  for (std::size_t i = 0; i < a.ndim(); ++i) n->shape.push_back(static_cast<std::int64_t>(a.shape(i)));
  n->data = values_of(a, name);
  n->is_float32 = is_f32(a);
  return n;
}

ShotRecord record_of(const InArray& data, double dt, double f0, double t0, const InArray& src, const InArray& rec,
                     const std::string& name) {
  if (data.ndim() != 2) {
    throw InputError(name + ": a shot record must be 2D (nt, nrec), this one has " + std::to_string(data.ndim()) +
                     " dimensions");
  }
  ShotRecord r;
  r.meta.dt = dt;
  r.meta.nt = static_cast<std::int64_t>(data.shape(0));
  r.meta.f0 = f0;
  r.meta.t0 = t0;
  r.meta.sources = points_of(src, name + " src");
  r.meta.receivers = points_of(rec, name + " rec");
  r.meta.precision = is_f32(data) ? "float32" : "float64";
  if (data.shape(1) != r.meta.receivers.size()) {
    throw InputError(name + ": data have " + std::to_string(data.shape(1)) + " traces, rec has " +
                     std::to_string(r.meta.receivers.size()) + " receivers");
  }
  r.traces = values_of(data, name + " data");
  check_shot_record(r, name);
  return r;
}

ShotRecord record_of(const nb::dict& d, const std::string& name) {
  return record_of(nb::cast<InArray>(d["data"]), nb::cast<double>(d["dt"]), nb::cast<double>(d["f0"]),
                   nb::cast<double>(d["t0"]), nb::cast<InArray>(d["src"]), nb::cast<InArray>(d["rec"]), name);
}

nb::object to_python(const nlohmann::json& j) {
  switch (j.type()) {
    case nlohmann::json::value_t::null: return nb::none();
    case nlohmann::json::value_t::boolean: return nb::bool_(j.get<bool>());
    case nlohmann::json::value_t::number_integer: return nb::int_(j.get<std::int64_t>());
    case nlohmann::json::value_t::number_unsigned: return nb::int_(j.get<std::uint64_t>());
    case nlohmann::json::value_t::number_float: return nb::float_(j.get<double>());
    case nlohmann::json::value_t::string: return nb::str(j.get<std::string>().c_str());
    case nlohmann::json::value_t::array: {
      nb::list l;
      for (const auto& e : j) l.append(to_python(e));
      return l;
    }
    case nlohmann::json::value_t::object: {
      nb::dict d;
      for (auto it = j.begin(); it != j.end(); ++it) d[nb::str(it.key().c_str())] = to_python(it.value());
      return d;
    }
    default: return nb::none();
  }
}

nb::list points_to_python(const std::vector<Vec3>& pts) {
  nb::list l;
  for (const Vec3& p : pts) l.append(nb::make_tuple(p[0], p[1], p[2]));
  return l;
}

}  // namespace revwave::python
