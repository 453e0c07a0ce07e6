// An inversion's run directory (--out-dir): the starting (and true) model with their pictures once,
// then after every iteration its model, the latest model, the update's pictures, a line of
// history.jsonl and state.bin, written as one transaction, so that a signal or a kill leaves the
// previous iteration's files whole and --resume goes on from them.
#pragma once
#include <functional>
#include <string>
#include <vector>

#include "revwave/core/choices.hpp"
#include "revwave/inversion/inversion_state.hpp"
#include "revwave/numerics/grid.hpp"
#include "revwave/setup/run_files.hpp"

namespace revwave {

std::string inversion_state_path(const std::string& dir);
// The configuration the CLI writes into the directory: `revwave invert --resume DIR` reads it.
std::string inversion_config_path(const std::string& dir);
// The name of a file the run may write in its directory, whatever the iteration: "the model of
// iteration 3" for model_0003.npy, "the optimiser's state" for state.bin, ...; empty for any other.
std::string inversion_output_role(const std::string& filename);
// InputError naming the input and the output when an input (after symbolic links) is a file the run
// may write in `dir` (every output of every iteration: model_NNNN.npy for any N, model.npy,
// pictures, history, state, configuration), before anything is written. A resumed run keeps the
// configuration it reads there.
void refuse_inputs_in_run_directory(const std::string& dir, const std::vector<NamedPath>& inputs, bool resuming);
// A new run needs a directory without an inversion in it, --resume one with its state (InputError
// naming the option and the fix); either way `dir` must be a directory where it exists, and it (or
// the nearest of its parents that exists) must take new files (IoError naming it).
void check_inversion_directory(const std::string& dir, bool resuming);
// history.jsonl's lines (empty when there is none yet).
std::vector<std::string> read_history(const std::string& dir);

// This process's hold on a run directory for as long as the object lives: an advisory lock (flock)
// on DIR/invert.lock, which the system releases however the process ends. A second inversion on
// the directory (two resumes of one run, two new runs on one --out-dir) is an InputError naming it:
// each would overwrite the other's files and remove the vector files the other's state names.
class RunDirectoryLock {
 public:
  explicit RunDirectoryLock(const std::string& dir);
  ~RunDirectoryLock();
  RunDirectoryLock(const RunDirectoryLock&) = delete;
  RunDirectoryLock& operator=(const RunDirectoryLock&) = delete;

 private:
  int fd_ = -1;
};

// Writes one directory's files in the run's precision; every picture of a model is drawn against
// the starting model on one colour scale (`clip`: the truth's largest change, 0 when unknown).
class RunDirectory {
 public:
  RunDirectory(std::string dir, const Grid& grid, Precision precision, const std::vector<double>& start, double clip);

  // start_model.npy, start_{xz,yz,xy}.png (start - its mean) and, when `truth` is given,
  // true_model.npy and true_*.png (truth - start), and what `also` writes: together. Returns the
  // truth's pictures.
  std::vector<std::string> write_start(const std::vector<double>* truth, const std::function<void()>& also = {}) const;
  // history.jsonl with `history` (every line, this one included) and state.bin; with `model`, also
  // model_NNNN.npy (the state's iteration), model.npy, model_NNNN_*.png and model_*.png (model -
  // start; the iteration's pictures are kept, model_*.png is the latest): together.
  // Returns the pictures written.
  std::vector<std::string> write_step(const InversionState& state, const std::vector<std::string>& history,
                                      bool model) const;

 private:
  void write_model(const std::string& path, const std::vector<double>& velocity) const;
  std::vector<std::string> write_update(const std::string& prefix, const std::vector<double>& model,
                                        const std::vector<double>& reference, double clip,
                                        const std::string& what) const;

  std::string dir_;
  Grid grid_;
  Precision precision_;
  const std::vector<double>& start_;
  double clip_;
};

}  // namespace revwave
