// A shot record on disk: FILE.npy (nt x nrec traces) plus the required sidecar FILE.json.
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace revwave {

struct ShotRecordMeta {
  double dt = 0.0;                               // s, > 0
  std::int64_t nt = 0;                           // samples per trace, >= 1
  double f0 = 0.0;                               // Ricker peak frequency, Hz, > 0
  double t0 = 0.0;                               // wavelet delay, s, finite
  std::vector<std::array<double, 3>> sources;    // m, at least one
  std::vector<std::array<double, 3>> receivers;  // m, at least one
  std::string precision = "float32";             // of the .npy: "float32" or "float64"
};

struct ShotRecord {
  ShotRecordMeta meta;
  std::vector<double> traces;  // C order (nt, nrec): traces[it * nrec + ir]
};

// FILE.npy -> FILE.json; a path without the .npy suffix gets ".json" appended.
std::string sidecar_path(const std::string& npy_path);

// Writes npy_path (shape (nt, nrec), dtype per meta.precision) and its sidecar as one
// OutputTransaction: both appear, or neither changes. The traces are converted to
// meta.precision. A meta that breaks a rule, or traces.size() != nt * nrec, is an
// InputError; nothing is written then.
void write_shot_record(const std::string& npy_path, const ShotRecordMeta& meta, const std::vector<float>& traces);
void write_shot_record(const std::string& npy_path, const ShotRecordMeta& meta, const std::vector<double>& traces);

// Reads and checks both files: the sidecar must exist and carry every field with the
// right type and range; the .npy must be 2-D with shape (nt, number of receivers), its
// dtype must match the sidecar's precision, and every sample must be finite. Each
// violation is an IoError naming the file, the field (or sample) and the rule.
ShotRecord read_shot_record(const std::string& npy_path);

// The rules of a record held in memory (the bindings' ShotRecord), `name` naming it: the
// sidecar's rules on its meta, traces.size() == nt x nrec and every sample finite. InputError otherwise.
void check_shot_record(const ShotRecord& record, const std::string& name);

// The most samples per trace a sidecar may declare (2^40): beyond any record that fits a disk.
inline constexpr std::int64_t max_trace_samples = std::int64_t(1) << 40;

// The sidecar's rules applied to its text (`path` names it in messages): dt finite and > 0,
// nt an integer in [1, max_trace_samples], f0 finite and > 0, t0 finite, at least one source
// and one receiver with finite coordinates, precision "float32" or "float64". IoError otherwise.
ShotRecordMeta parse_sidecar(const std::string& text, const std::string& path);

// JSON text with numbers at full precision (doubles round-trip), ending in a newline.
std::string dump_json(const nlohmann::json& j, int indent = 2);
// dump_json(j) written through write_file_atomically.
void write_json_atomically(const std::string& path, const nlohmann::json& j);

}  // namespace revwave
