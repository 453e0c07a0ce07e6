#include "revwave/inversion/run_directory.hpp"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <utility>

#include "revwave/core/errors.hpp"
#include "revwave/io/atomic_file.hpp"
#include "revwave/io/npy.hpp"
#include "revwave/io/png_slices.hpp"

namespace revwave {
namespace {

std::string padded_iteration(int k) {
  char text[32];
  std::snprintf(text, sizeof text, "%04d", k);
  return text;
}

}  // namespace

std::string inversion_state_path(const std::string& dir) { return dir + "/state.bin"; }

std::vector<NamedPath> inversion_outputs(const std::string& dir) {
  return {{"--out-dir", dir + "/model.npy"},
          {"--out-dir", inversion_state_path(dir)},
          {"--out-dir", dir + "/start_model.npy"},
          {"--out-dir", dir + "/true_model.npy"}};
}

void check_inversion_directory(const std::string& dir, bool resuming) {
  const std::string state_path = inversion_state_path(dir);
  std::error_code ec;
  if (resuming && !std::filesystem::exists(state_path, ec)) {
    throw InputError("--resume " + dir + ": no inversion state there (" + state_path + " is missing)");
  }
  if (!resuming && std::filesystem::exists(state_path, ec)) {
    throw InputError("--out-dir " + dir + " already holds an inversion (" + state_path + "): --resume " + dir +
                     " continues it, or choose another --out-dir");
  }
  if (std::filesystem::exists(dir, ec) && !std::filesystem::is_directory(dir, ec)) {
    throw InputError("--out-dir " + dir + " exists and is not a directory");
  }
}

std::vector<std::string> read_history(const std::string& dir) {
  std::vector<std::string> lines;
  std::ifstream in(dir + "/history.jsonl");
  for (std::string line; std::getline(in, line);)
    if (!line.empty()) lines.push_back(line);
  return lines;
}

RunDirectory::RunDirectory(std::string dir, const Grid& grid, Precision precision, const std::vector<double>& start, double clip)
    : dir_(std::move(dir)), grid_(grid), precision_(precision), start_(start), clip_(clip) {}

void RunDirectory::write_model(const std::string& path, const std::vector<double>& v) const {
  const std::vector<std::int64_t> shape{grid_.shape[0], grid_.shape[1], grid_.shape[2]};
  if (precision_ == Precision::float32) {
    const std::vector<float> values(v.begin(), v.end());
    write_npy(path, shape, values.data());
  } else {
    write_npy(path, shape, v.data());
  }
}

// Slices through the middle of model - reference (x-z, y-z, x-y) on one colour scale (clip 0: the
// 99th percentile).
std::vector<std::string> RunDirectory::write_update(const std::string& prefix, const std::vector<double>& model,
                                                    const std::vector<double>& reference, double clip) const {
  std::vector<double> update(model.size());
  for (std::size_t i = 0; i < model.size(); ++i) update[i] = model[i] - reference[i];
  return write_central_slices(prefix, grid_.shape, update, clip);
}

std::vector<std::string> RunDirectory::write_start(const std::vector<double>* truth) const {
  OutputTransaction together;
  std::vector<std::string> pictures;
  if (truth != nullptr) {
    write_model(dir_ + "/true_model.npy", *truth);
    pictures = write_update(dir_ + "/true", *truth, start_, clip_);
  }
  write_model(dir_ + "/start_model.npy", start_);
  double mean = 0;
  for (double v : start_) mean += v;
  mean /= static_cast<double>(start_.size());
  write_update(dir_ + "/start", start_, std::vector<double>(start_.size(), mean), 0.0);
  together.commit();
  return pictures;
}

std::vector<std::string> RunDirectory::write_step(const InversionState& s, const std::vector<std::string>& history, bool model) const {
  OutputTransaction together;
  std::vector<std::string> pictures;
  if (model) {
    write_model(dir_ + "/model_" + padded_iteration(s.iteration) + ".npy", s.model);
    write_model(dir_ + "/model.npy", s.model);
    pictures = write_update(dir_ + "/model", s.model, start_, clip_);
  }
  write_file_atomically(dir_ + "/history.jsonl", [&](std::ostream& os) {
    for (const std::string& l : history) os << l << "\n";
  });
  save_inversion_state(inversion_state_path(dir_), s);
  together.commit();
  return pictures;
}

}  // namespace revwave
