#include "revwave/inversion/run_directory.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <utility>

#include "revwave/core/errors.hpp"
#include "revwave/io/atomic_file.hpp"
#include "revwave/io/npy.hpp"
#include "revwave/io/png_slices.hpp"

namespace revwave {
namespace {

namespace fs = std::filesystem;

std::string padded_iteration(int k) {
  char text[32];
  std::snprintf(text, sizeof text, "%04d", k);
  return text;
}

}  // namespace

std::string inversion_state_path(const std::string& dir) { return dir + "/state.bin"; }

std::string inversion_config_path(const std::string& dir) { return dir + "/invert.config.toml"; }

std::string inversion_output_role(const std::string& name) {
  static const std::map<std::string, std::string> fixed = {{"model.npy", "the latest model"},
                                                           {"state.bin", "the optimiser's state"},
                                                           {"state.d", "the optimiser's vector files"},
                                                           {"invert.lock", "the run directory's lock"},
                                                           {"history.jsonl", "the history"},
                                                           {"start_model.npy", "the starting model"},
                                                           {"true_model.npy", "the true model"},
                                                           {"invert.config.toml", "the inversion's configuration"},
                                                           {"wavelet.npy", "the estimated wavelet"}};
  if (const auto f = fixed.find(name); f != fixed.end()) return f->second;
  for (const char* prefix : {"model_", "start_", "true_"}) {
    for (const char* plane : {"xz", "yz", "xy"}) {
      if (name == std::string(prefix) + plane + ".png")
        return "a picture of " + std::string(prefix).substr(0, std::strlen(prefix) - 1);
    }
  }
  // model_NNNN.npy: the model of iteration NNNN (four digits at least, as padded_iteration writes
  // them); model_NNNN_{xz,yz,xy}.png: its pictures.
  for (const char* tail : {".npy", "_xz.png", "_yz.png", "_xy.png"}) {
    const std::size_t t = std::strlen(tail);
    if (name.size() < 10 + t || name.rfind("model_", 0) != 0 || name.compare(name.size() - t, t, tail) != 0) continue;
    const std::string digits = name.substr(6, name.size() - 6 - t);
    const bool numeric =
        !digits.empty() && std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; });
    if (numeric && digits.size() <= 9) {
      const int k = std::stoi(digits);
      if (k >= 1 && padded_iteration(k) == digits) {
        return (t == 4 ? "the model of iteration " : "a picture of the model of iteration ") + std::to_string(k);
      }
    }
  }
  return {};
}

void refuse_inputs_in_run_directory(const std::string& dir, const std::vector<NamedPath>& inputs, bool resuming) {
  std::error_code ec;
  const fs::path where = fs::weakly_canonical(fs::absolute(dir, ec), ec);
  for (const NamedPath& in : inputs) {
    std::error_code e2;
    const fs::path p = fs::weakly_canonical(fs::absolute(in.path, e2), e2);
    if (e2 || p.parent_path() != where) continue;
    const std::string role = inversion_output_role(p.filename().string());
    if (role.empty() || (resuming && p.filename() == "invert.config.toml")) continue;
    throw InputError("--out-dir " + dir + " would overwrite " + in.option + " " + in.path + " with " + role + " (" +
                     (fs::path(dir) / p.filename()).string() +
                     "), an input of this run: choose another --out-dir, or move the input");
  }
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
  // The directory, or the nearest of its parents that exists (the rest are created), must take new
  // files: said now, not after the observed data are modelled.
  fs::path nearest = fs::absolute(dir, ec);
  while (!fs::exists(nearest, ec) && nearest.has_parent_path() && nearest != nearest.parent_path())
    nearest = nearest.parent_path();
  const std::string option = resuming ? "--resume " : "--out-dir ";
  if (!fs::is_directory(nearest, ec)) throw IoError(option + dir + ": " + nearest.string() + " is not a directory");
  if (::access(nearest.c_str(), W_OK | X_OK) != 0) {
    throw IoError(option + dir + ": " + nearest.string() + " takes no new file (" + std::strerror(errno) +
                  "; checked before the run, so that nothing is computed in vain)");
  }
}

RunDirectoryLock::RunDirectoryLock(const std::string& dir) {
  const std::string path = (std::filesystem::path(dir) / "invert.lock").string();
  fd_ = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd_ < 0) throw IoError(path + ": cannot open the run directory's lock (" + std::strerror(errno) + ")");
  if (::flock(fd_, LOCK_EX | LOCK_NB) != 0) {
    const int err = errno;
    ::close(fd_);
    fd_ = -1;
    if (err == EWOULDBLOCK) {
      throw InputError(dir + " is in use by another inversion (a process holds " + path +
                       "): wait for it to end, or choose another --out-dir");
    }
    throw IoError(path + ": cannot lock the run directory (" + std::strerror(err) + ")");
  }
}

RunDirectoryLock::~RunDirectoryLock() {
  if (fd_ >= 0) ::close(fd_);
}

std::vector<std::string> read_history(const std::string& dir) {
  std::vector<std::string> lines;
  std::ifstream in(dir + "/history.jsonl");
  for (std::string line; std::getline(in, line);)
    if (!line.empty()) lines.push_back(line);
  return lines;
}

RunDirectory::RunDirectory(std::string dir, const Grid& grid, Precision precision, const std::vector<double>& start,
                           double clip)
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
                                                    const std::vector<double>& reference, double clip,
                                                    const std::string& what) const {
  std::vector<double> update(model.size());
  for (std::size_t i = 0; i < model.size(); ++i) update[i] = model[i] - reference[i];
  return write_central_slices(prefix, grid_.shape, update, clip, SliceLabels{what, "m/s", grid_.spacing});
}

std::vector<std::string> RunDirectory::write_start(const std::vector<double>* truth,
                                                   const std::function<void()>& also) const {
  OutputTransaction together;
  std::vector<std::string> pictures;
  if (truth != nullptr) {
    write_model(dir_ + "/true_model.npy", *truth);
    pictures = write_update(dir_ + "/true", *truth, start_, clip_, "true model - start model");
  }
  write_model(dir_ + "/start_model.npy", start_);
  double mean = 0;
  for (double v : start_) mean += v;
  mean /= static_cast<double>(start_.size());
  char title[96];
  std::snprintf(title, sizeof title, "start model - its mean (%.6g m/s)", mean);
  write_update(dir_ + "/start", start_, std::vector<double>(start_.size(), mean), 0.0, title);
  if (also) also();
  together.commit();
  return pictures;
}

std::vector<std::string> RunDirectory::write_step(const InversionState& s, const std::vector<std::string>& history,
                                                  bool model) const {
  OutputTransaction together;
  std::vector<std::string> pictures;
  if (model) {
    write_model(dir_ + "/model_" + padded_iteration(s.iteration) + ".npy", s.model);
    write_model(dir_ + "/model.npy", s.model);
    // One picture set per iteration (model_NNNN_*.png, kept, as model_NNNN.npy is), and the latest
    // again as model_*.png: a run's progress can be looked at after it, picture by picture.
    const std::string what = "model - start model, iteration " + std::to_string(s.iteration);
    pictures = write_update(dir_ + "/model_" + padded_iteration(s.iteration), s.model, start_, clip_, what);
    const std::vector<std::string> latest = write_update(dir_ + "/model", s.model, start_, clip_, what);
    pictures.insert(pictures.end(), latest.begin(), latest.end());
  }
  write_file_atomically(dir_ + "/history.jsonl", [&](std::ostream& os) {
    for (const std::string& l : history) os << l << "\n";
  });
  const std::vector<std::string> kept = save_inversion_state(inversion_state_path(dir_), s);
  together.commit();
  remove_unused_state_files(inversion_state_path(dir_), kept);  // earlier saves' pairs and preconditioners
  return pictures;
}

}  // namespace revwave
