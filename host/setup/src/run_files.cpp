#include "revwave/setup/run_files.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include "revwave/core/errors.hpp"
#include "revwave/io/atomic_file.hpp"
#include "revwave/io/shot_record.hpp"
#include "revwave/setup/gradient_pictures.hpp"

namespace revwave {
namespace {

namespace fs = std::filesystem;

// The directory an output goes into ("." for a bare name); a path ending in / is a directory itself.
fs::path directory_of(const std::string& path) {
  fs::path p(path);
  if (!path.empty() && path.back() == '/') p = fs::path(path.substr(0, path.find_last_not_of('/') + 1));
  const fs::path parent = p.parent_path();
  return parent.empty() ? fs::path(".") : parent;
}

// Empty when `dir` takes new files, else why not (access(2) answers for root too on a read-only
// file system: EROFS).
std::string why_not_writable(const fs::path& dir) {
  std::error_code ec;
  const bool exists = fs::exists(dir, ec);
  // The system's own reason where it could not look (a name too long, a directory it may not search).
  if (ec) return "cannot be reached (" + ec.message() + ")";
  if (!exists) return "does not exist";
  if (!fs::is_directory(dir, ec)) return "is not a directory";
  if (::access(dir.c_str(), W_OK | X_OK) != 0) return std::string("takes no new file (") + std::strerror(errno) + ")";
  return {};
}

}  // namespace

void refuse_overwriting_inputs(const std::vector<NamedPath>& outputs, const std::vector<NamedPath>& inputs) {
  for (const NamedPath& out : outputs)
    for (const NamedPath& in : inputs)
      if (same_file(out.path, in.path)) {
        throw InputError(out.option + " " + out.path + " would overwrite " + in.option + " " + in.path +
                         ", an input of this run: write the outputs elsewhere (--out)");
      }
}

void refuse_clashing_outputs(const std::vector<NamedPath>& outputs) {
  for (std::size_t i = 0; i < outputs.size(); ++i)
    for (std::size_t j = i + 1; j < outputs.size(); ++j)
      if (same_file(outputs[i].path, outputs[j].path)) {
        throw InputError(outputs[j].option + " " + outputs[j].path + " and " + outputs[i].option + " " +
                         outputs[i].path + " are the same file: each output of a run needs a path of its own");
      }
}

void refuse_unwritable_outputs(const std::vector<NamedPath>& outputs) {
  std::vector<fs::path> checked;
  for (const NamedPath& out : outputs) {
    std::error_code ec;
    if (!out.path.empty() && out.path.back() != '/' && fs::is_directory(out.path, ec)) {
      throw IoError(out.option + " " + out.path +
                    ": a directory of that name exists, and a file cannot replace it (checked before the run, so "
                    "that nothing is computed in vain)");
    }
    const fs::path dir = directory_of(out.path);
    bool seen = false;
    for (const fs::path& c : checked) seen = seen || c == dir;
    if (seen) continue;
    checked.push_back(dir);
    const std::string why = why_not_writable(dir);
    if (!why.empty()) {
      throw IoError(out.option + " " + out.path + ": its directory " + dir.string() + " " + why +
                    " (checked before the run, so that nothing is computed in vain)");
    }
  }
}

void check_run_outputs(const std::vector<NamedPath>& outputs, const std::vector<NamedPath>& inputs) {
  refuse_overwriting_inputs(outputs, inputs);
  refuse_clashing_outputs(outputs);
  refuse_unwritable_outputs(outputs);
}

std::vector<NamedPath> problem_inputs(const ProblemOptions& o) {
  std::vector<NamedPath> in;
  if (!o.model_file.empty()) in.push_back({"--model", o.model_file});
  if (!o.density_file.empty()) in.push_back({"--density", o.density_file});
  if (!o.epsilon.file.empty()) in.push_back({"--epsilon", o.epsilon.file});
  if (!o.delta.file.empty()) in.push_back({"--delta", o.delta.file});
  if (!o.q.file.empty()) in.push_back({"--q", o.q.file});
  if (!o.rec_file.empty()) in.push_back({"--rec-file", o.rec_file});
  return in;
}

std::vector<NamedPath> job_inputs(const GradientJobOptions& o) {
  std::vector<NamedPath> in = problem_inputs(o.problem);
  for (const std::string& obs : o.observed) {
    // A directory of records: each record and its sidecar is an input.
    std::vector<std::string> files;
    if (std::filesystem::is_directory(obs)) {
      for (const auto& e : std::filesystem::directory_iterator(obs)) files.push_back(e.path().string());
    } else {
      files.push_back(obs);
    }
    for (const std::string& f : files) {
      in.push_back({"--observed", f});
      if (std::filesystem::path(f).extension() == ".npy") in.push_back({"the sidecar of --observed", sidecar_path(f)});
    }
  }
  if (!o.true_model.empty()) in.push_back({"--true-model", o.true_model});
  return in;
}

std::string config_path_for(const std::string& output_path) {
  fs::path p(output_path);
  p.replace_extension();
  return p.string() + ".config.toml";
}

std::string wavelet_path_for(const std::string& output_path) {
  fs::path p(output_path);
  p.replace_extension();
  return p.string() + ".wavelet.npy";
}

std::vector<NamedPath> gradient_outputs(const std::string& out, const std::string& png, bool wavelet,
                                        const std::string& density_out) {
  std::vector<NamedPath> outputs = {{"--out", out}, {"the configuration written next to --out", config_path_for(out)}};
  if (wavelet) outputs.push_back({"the wavelet written next to --out", wavelet_path_for(out)});
  if (!density_out.empty()) outputs.push_back({"--density-gradient", density_out});
  if (!png.empty()) {
    for (const std::string& p : gradient_picture_paths(png)) outputs.push_back({"--png", p});
  }
  return outputs;
}

}  // namespace revwave
