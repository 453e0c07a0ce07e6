// One shot record from a run's options (`revwave forward`, `revwave.forward`): the problem, the
// backend, the memory check, the time loop and the fields of its JSON summary, shared by the
// command line and the Python package so that both give the same record and the same refusals.
#pragma once
#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "revwave/core/progress.hpp"
#include "revwave/core/run_clock.hpp"
#include "revwave/driver/forward_modelling.hpp"
#include "revwave/io/shot_record.hpp"
#include "revwave/setup/problem_setup.hpp"

namespace revwave {

template <class T>
struct ForwardRun {
  BackendChoice backend;
  ProblemSetup setup;
  TimeAxis time;
  ShotData<T> shot;                   // checked finite
  std::vector<std::string> warnings;  // revwave/setup/plausibility.hpp
  RunClock clock;                     // the run's phases (the caller's clock, marked on)
};

// Resolves the backend, calls `before_inputs` (the CLI refuses outputs that would overwrite inputs
// there), sets the problem up, checks its memory and models the record. `clock` goes on marking
// the caller's phases (a command's starts at the process's start).
template <class T>
ForwardRun<T> run_forward_job(const ProblemOptions& o, const std::function<void()>& before_inputs,
                              const Progress& progress = {}, RunClock clock = {});

// The sidecar of a record modelled with `acquisition` on `time`, in `precision`.
ShotRecordMeta record_meta(const Acquisition& acquisition, const TimeAxis& time, Precision precision);

// The fields of `revwave forward --json` that describe the run (not its files, nor the total time).
template <class T>
nlohmann::json forward_summary(const ForwardRun<T>& r, Precision precision);

}  // namespace revwave
