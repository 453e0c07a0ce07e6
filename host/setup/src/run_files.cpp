#include "revwave/setup/run_files.hpp"

#include <filesystem>

#include "revwave/core/errors.hpp"
#include "revwave/io/atomic_file.hpp"
#include "revwave/io/shot_record.hpp"

namespace revwave {

void refuse_overwriting_inputs(const std::vector<NamedPath>& outputs, const std::vector<NamedPath>& inputs) {
  for (const NamedPath& out : outputs)
    for (const NamedPath& in : inputs)
      if (same_file(out.path, in.path)) {
        throw InputError(out.option + " " + out.path + " would overwrite " + in.option + " " + in.path +
                         ", an input of this run: write the outputs elsewhere (--out)");
      }
}

std::vector<NamedPath> problem_inputs(const ProblemOptions& o) {
  std::vector<NamedPath> in;
  if (!o.model_file.empty()) in.push_back({"--model", o.model_file});
  if (!o.density_file.empty()) in.push_back({"--density", o.density_file});
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

}  // namespace revwave
