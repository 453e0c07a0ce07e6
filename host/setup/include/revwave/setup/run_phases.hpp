// The phases a run's report names (revwave/core/run_clock.hpp), and their JSON: an object of
// seconds by phase beside the wall time they add up to.
#pragma once
#include <nlohmann/json.hpp>

#include "revwave/core/run_clock.hpp"

namespace revwave::phase {

inline const char* const start_up = "start_up";           // loading the program, reading its command line
inline const char* const backend = "backend";             // choosing the backend (a GPU's start-up)
inline const char* const model = "model";                 // reading inputs, building the model, checks
inline const char* const observed = "observed_data";      // modelling the observed data
inline const char* const problem = "problem";             // the operator's coefficients, points, wavelet
inline const char* const wavelet = "wavelet_estimation";  // the source signature's least squares
inline const char* const fields = "fields";  // allocating and freeing the fields, their tables (a gradient: folding it)
inline const char* const time_loop = "time_loop";  // a forward run's time steps
inline const char* const forward = "forward";      // a gradient's forward time steps
inline const char* const reverse = "reverse";      // a gradient's reverse time steps
inline const char* const outputs = "outputs";      // writing the files
inline const char* const pictures = "pictures";    // the PNGs
// Surveys and inversions:
inline const char* const mpi_start = "mpi_start";              // MPI's start-up (under mpirun)
inline const char* const shots = "shots";                      // the shots, where they overlap
inline const char* const shot_setup = "shot_setup";            // one process's shots, one at a time:
inline const char* const shot_upload = "shot_upload";          //   the parts they timed, summed,
inline const char* const shot_accumulate = "shot_accumulate";  //   beside their time loops,
inline const char* const shots_other = "shots_other";          //   and the rest of their time
inline const char* const inversion_other = "inversion_other";  // an inversion beside its time loops

}  // namespace revwave::phase

namespace revwave {

// {"start_up": s, ...}: seconds by phase (the text report keeps their order).
inline nlohmann::json phases_json(const RunClock& clock) {
  nlohmann::json j = nlohmann::json::object();
  for (const auto& [name, seconds] : clock.phases()) j[name] = seconds;
  return j;
}

}  // namespace revwave
