// Shot record I/O: the .npy traces and the sidecar JSON that carries their time axis and geometry.
#include "revwave/io/shot_record.hpp"

#include <cmath>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <set>
#include <string>
#include <vector>

#include "revwave/core/checks.hpp"
#include "revwave/core/errors.hpp"
#include "revwave/io/atomic_file.hpp"
#include "revwave/io/npy.hpp"

namespace revwave {

namespace {

using json = nlohmann::json;

bool is_float32_name(const std::string& p) { return p == "float32"; }
bool is_valid_precision(const std::string& p) { return p == "float32" || p == "float64"; }

// Collects the first rule a meta breaks; empty when it keeps them all.
std::string meta_violation(const ShotRecordMeta& m) {
  if (!(std::isfinite(m.dt) && m.dt > 0)) return "field 'dt' must be a finite number > 0";
  if (m.nt < 1) return "field 'nt' must be an integer >= 1";
  if (!(std::isfinite(m.f0) && m.f0 > 0)) return "field 'f0' must be a finite number > 0";
  if (!std::isfinite(m.t0)) return "field 't0' must be a finite number";
  if (m.sources.empty()) return "field 'sources' must hold at least one [x, y, z]";
  if (m.receivers.empty()) return "field 'receivers' must hold at least one [x, y, z]";
  for (const auto* list : {&m.sources, &m.receivers}) {
    const char* name = list == &m.sources ? "sources" : "receivers";
    for (std::size_t i = 0; i < list->size(); ++i) {
      for (double c : (*list)[i]) {
        if (!std::isfinite(c))
          return std::string("field '") + name + "[" + std::to_string(i) + "]' must hold finite coordinates";
      }
    }
  }
  if (!is_valid_precision(m.precision))
    return "field 'precision' must be \"float32\" or \"float64\", not \"" + m.precision + "\"";
  return {};
}

json points_to_json(const std::vector<std::array<double, 3>>& pts) {
  json a = json::array();
  for (const auto& p : pts) a.push_back({p[0], p[1], p[2]});
  return a;
}

json meta_to_json(const ShotRecordMeta& m) {
  return json{{"dt", m.dt},
              {"nt", m.nt},
              {"f0", m.f0},
              {"t0", m.t0},
              {"precision", m.precision},
              {"sources", points_to_json(m.sources)},
              {"receivers", points_to_json(m.receivers)}};
}

// Reads the sidecar's fields one by one so each error names its field and rule.
class SidecarReader {
 public:
  SidecarReader(std::string path, const json& j) : path_(std::move(path)), j_(j) {}

  const json& field(const char* name) const {
    const auto it = j_.find(name);
    if (it == j_.end()) fail(name, "is missing");
    return *it;
  }
  double number(const char* name, const json& v) const {
    if (!v.is_number()) fail(name, "must be a number");
    const double d = v.get<double>();
    if (!std::isfinite(d)) fail(name, "must be finite");
    return d;
  }
  double number(const char* name) const { return number(name, field(name)); }
  std::int64_t integer(const char* name) const {
    const json& v = field(name);
    if (!v.is_number_integer()) fail(name, "must be an integer");
    if (v.is_number_unsigned() && v.get<std::uint64_t>() > static_cast<std::uint64_t>(INT64_MAX))
      fail(name, "is too large");
    return v.get<std::int64_t>();
  }
  std::string string(const char* name) const {
    const json& v = field(name);
    if (!v.is_string()) fail(name, "must be a string");
    return v.get<std::string>();
  }
  std::vector<std::array<double, 3>> points(const char* name) const {
    const json& v = field(name);
    if (!v.is_array() || v.empty()) fail(name, "must be a non-empty array of [x, y, z]");
    std::vector<std::array<double, 3>> pts;
    for (std::size_t i = 0; i < v.size(); ++i) {
      const std::string item = std::string(name) + "[" + std::to_string(i) + "]";
      if (!v[i].is_array() || v[i].size() != 3) fail(item, "must be an array of 3 coordinates [x, y, z]");
      std::array<double, 3> p{};
      for (int k = 0; k < 3; ++k) {
        if (!v[i][k].is_number() || !std::isfinite(v[i][k].get<double>())) fail(item, "must hold finite numbers");
        p[k] = v[i][k].get<double>();
      }
      pts.push_back(p);
    }
    return pts;
  }
  // A number that keeps `rule`, else IoError "PATH: field 'NAME' VALUE is invalid: it must be RULE".
  double number(const char* name, const Range& rule) const {
    return check_number<IoError>(path_ + ": field '" + name + "'", number(name), rule);
  }
  std::int64_t integer(const char* name, const IntRange& rule) const {
    return check_integer<IoError>(path_ + ": field '" + name + "'", integer(name), rule);
  }
  [[noreturn]] void fail(const std::string& name, const std::string& rule) const {
    throw IoError(path_ + ": field '" + name + "' " + rule);
  }

 private:
  std::string path_;
  const json& j_;
};

ShotRecordMeta read_sidecar(const std::string& npy_path) {
  const std::string path = sidecar_path(npy_path);
  require_regular_file(path, npy_path + ": the sidecar " + path);
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    throw IoError(npy_path + ": the sidecar " + path +
                  " is required (dt, nt, f0, t0, sources, receivers, precision) but cannot be opened");
  }
  const std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  if (in.bad()) throw IoError(path + ": read failed");
  return parse_sidecar(text, path);
}

template <class T>
void write_impl(const std::string& npy_path, const ShotRecordMeta& meta, const std::vector<T>& traces) {
  const std::string bad = meta_violation(meta);
  if (!bad.empty()) throw InputError(npy_path + ": shot record " + bad);
  const auto nrec = static_cast<std::int64_t>(meta.receivers.size());
  if (static_cast<std::int64_t>(traces.size()) / meta.nt != nrec ||
      static_cast<std::int64_t>(traces.size()) % meta.nt != 0) {
    throw InputError(npy_path + ": shot record has " + std::to_string(traces.size()) +
                     " samples, expected nt * nrec = " + std::to_string(meta.nt) + " * " + std::to_string(nrec));
  }
  const std::vector<std::int64_t> shape{meta.nt, nrec};
  OutputTransaction both;  // a record without its sidecar is unreadable: the two appear together
  if (is_float32_name(meta.precision)) {
    const std::vector<float> f(traces.begin(), traces.end());
    write_npy(npy_path, shape, f.data());
  } else {
    const std::vector<double> d(traces.begin(), traces.end());
    write_npy(npy_path, shape, d.data());
  }
  write_json_atomically(sidecar_path(npy_path), meta_to_json(meta));
  both.commit();
}

}  // namespace

ShotRecordMeta parse_sidecar(const std::string& text, const std::string& path) {
  json j;
  // A key given twice in one object: JSON leaves it to the reader, and nlohmann keeps the last one,
  // so `"dt": 0.002, "dt": 0.001` would run the record at the second dt without a word.
  std::vector<std::set<std::string>> keys;
  std::string repeated;
  const json::parser_callback_t once = [&](int, json::parse_event_t event, json& parsed) {
    if (event == json::parse_event_t::object_start) keys.emplace_back();
    if (event == json::parse_event_t::object_end && !keys.empty()) keys.pop_back();
    if (event == json::parse_event_t::key && !keys.empty() && !keys.back().insert(parsed.get<std::string>()).second &&
        repeated.empty())
      repeated = parsed.get<std::string>();
    return true;
  };
  try {
    j = json::parse(text, once);
  } catch (const json::exception& e) {  // a syntax error, or a number beyond a double (1e6588)
    throw IoError(path + ": not valid JSON (" + e.what() + ")");
  }
  if (!repeated.empty()) throw IoError(path + ": key '" + repeated + "' is given twice: give each field once");
  if (!j.is_object()) throw IoError(path + ": the sidecar must be a JSON object");

  SidecarReader r(path, j);
  ShotRecordMeta m;
  m.dt = r.number("dt", positive());
  m.nt = r.integer("nt", int_within(1, max_trace_samples));
  m.f0 = r.number("f0", positive());
  m.t0 = r.number("t0", finite());
  m.precision = r.string("precision");
  if (!is_valid_precision(m.precision)) r.fail("precision", "must be \"float32\" or \"float64\"");
  m.sources = r.points("sources");
  m.receivers = r.points("receivers");
  return m;
}

std::string sidecar_path(const std::string& npy_path) {
  const std::string ext = ".npy";
  if (npy_path.size() > ext.size() && npy_path.compare(npy_path.size() - ext.size(), ext.size(), ext) == 0) {
    return npy_path.substr(0, npy_path.size() - ext.size()) + ".json";
  }
  return npy_path + ".json";
}

void write_shot_record(const std::string& npy_path, const ShotRecordMeta& meta, const std::vector<float>& traces) {
  write_impl(npy_path, meta, traces);
}

void write_shot_record(const std::string& npy_path, const ShotRecordMeta& meta, const std::vector<double>& traces) {
  write_impl(npy_path, meta, traces);
}

ShotRecord read_shot_record(const std::string& npy_path) {
  ShotRecord rec;
  rec.meta = read_sidecar(npy_path);
  NpyArray arr = read_npy(npy_path);
  const auto nrec = static_cast<std::int64_t>(rec.meta.receivers.size());
  auto shape_str = [](const std::vector<std::int64_t>& s) {
    std::string t = "(";
    for (std::size_t i = 0; i < s.size(); ++i) t += (i ? ", " : "") + std::to_string(s[i]);
    return t + ")";
  };
  if (arr.shape.size() != 2 || arr.shape[0] != rec.meta.nt || arr.shape[1] != nrec) {
    throw IoError(npy_path + ": shape " + shape_str(arr.shape) + " does not match the sidecar " +
                  sidecar_path(npy_path) + " (nt, number of receivers) = " + shape_str({rec.meta.nt, nrec}));
  }
  const bool sidecar_f32 = is_float32_name(rec.meta.precision);
  if (arr.is_float32 != sidecar_f32) {
    throw IoError(npy_path + ": dtype " + (arr.is_float32 ? "float32" : "float64") +
                  " does not match field 'precision' \"" + rec.meta.precision + "\" of the sidecar " +
                  sidecar_path(npy_path));
  }
  rec.traces = std::move(arr.data);
  for (std::size_t i = 0; i < rec.traces.size(); ++i) {
    if (!std::isfinite(rec.traces[i])) {
      const auto it = static_cast<std::int64_t>(i) / nrec, ir = static_cast<std::int64_t>(i) % nrec;
      throw IoError(npy_path + ": sample " + std::to_string(it) + " of receiver " + std::to_string(ir) + " is " +
                    number_text(rec.traces[i]) + ": every sample of a shot record must be finite");
    }
  }
  return rec;
}

void check_shot_record(const ShotRecord& record, const std::string& name) {
  const std::string violation = meta_violation(record.meta);
  if (!violation.empty()) throw InputError(name + ": " + violation);
  const auto nrec = static_cast<std::int64_t>(record.meta.receivers.size());
  if (static_cast<std::int64_t>(record.traces.size()) != record.meta.nt * nrec) {
    throw InputError(name + ": " + std::to_string(record.traces.size()) +
                     " samples do not match (nt, number of receivers) = (" + std::to_string(record.meta.nt) + ", " +
                     std::to_string(nrec) + ")");
  }
  for (std::size_t i = 0; i < record.traces.size(); ++i) {
    if (!std::isfinite(record.traces[i])) {
      const auto it = static_cast<std::int64_t>(i) / nrec, ir = static_cast<std::int64_t>(i) % nrec;
      throw InputError(name + ": sample " + std::to_string(it) + " of receiver " + std::to_string(ir) + " is " +
                       number_text(record.traces[i]) + ": every sample of a shot record must be finite");
    }
  }
}

std::string dump_json(const nlohmann::json& j, int indent) { return j.dump(indent) + "\n"; }

void write_json_atomically(const std::string& path, const nlohmann::json& j) {
  const std::string text = dump_json(j);
  write_file_atomically(path,
                        [&](std::ostream& out) { out.write(text.data(), static_cast<std::streamsize>(text.size())); });
}

}  // namespace revwave
