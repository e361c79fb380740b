// The compile-latency fit's data (workloads/calibration/compile_observations.yaml, docs/startup.md
// section 3): every public start-up figure the model can simulate, each turned into a function
// of the compile parameters. Kinds:
//   first_step         the whole first step of a training scenario in a mode (its steady step simulated);
//   compile            the compile phase of a training scenario;
//   inference_compile  an NxD Inference model's `model.compile()`: HLO tracing, the token-
//                      generation graph, the context-encoding graph and the weight-layout graph,
//                      one after another (docs/startup.md 3.1);
//   weight_load        loading `bytes` of pre-sharded weights onto one host's devices;
//   cache_hit          `hits` graphs found in the persistent cache;
//   graphs             the number of graphs a training job compiles (a count, checked, not fitted).
// An inference_compile row may give `tkg_read`, the HBM bytes its token-generation NEFF reads per
// step (neuron-profile): checked against the graph's weights and KV cache, not fitted.
// Observations marked `held_out` are chosen before fitting and never fitted (their error is
// reported apart).
#pragma once

#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "models/compile/compile_model.h"
#include "sim/base/config_reader.h"
#include "workloads/compile/flex_suite.h"

namespace trn::app {

/// Collects pointers to every numeric parameter of a visited struct (CompileParams), by name.
struct ParamRefs {
  std::vector<std::pair<std::string, double*>> refs;
  template <sim::Dim D>
  void field(const char* k, sim::Quantity<D>& q, const sim::FieldSpec&) {
    refs.push_back({k, &q.v});
  }
  void field(const char* k, double& x, const sim::FieldSpec&) { refs.push_back({k, &x}); }
};

enum class ObservationKind { FirstStep, Compile, Precompile, InferenceCompile, WeightLoad, CacheHit, Graphs };
const std::vector<std::string>& enum_words(ObservationKind);

/// One timed observation, ready to evaluate at any parameters.
struct TimedObservation {
  std::string name, source;
  ObservationKind kind = ObservationKind::Compile;
  double value_s = 0, log_sigma = 0.1;
  bool held_out = false;
  std::function<double(const models::CompileParams&)> predict;
  std::string chip, frontend, mode;  // what the observation covers (empty: no such axis)
};

/// A graph count: what AWS printed against the inventory's count.
struct CountObservation {
  std::string name, source;
  int published = 0, modelled = 0;
};

/// A token-generation graph's HBM traffic: what neuron-profile measured on the compiled NEFF
/// against the bytes the graph the model builds reads (a check of its architecture, not fitted).
struct TrafficObservation {
  std::string name, source;
  double measured_bytes = 0, modelled_bytes = 0;
  bool moe = false;  // the model reads every expert; NxD Inference's decoding loads the chosen ones
};

struct FlexObservations {
  double budget_s = 600, softness = 0.05;
  std::string source;
  std::vector<workloads::FlexCase> cases;
};

struct ObservationSet {
  std::vector<TimedObservation> timed;
  std::vector<CountObservation> counts;
  std::vector<TrafficObservation> traffic;
  FlexObservations flex;
  models::CompileParams prior;
  std::vector<std::string> fitted;      // parameters the fit moves
  std::vector<double> prior_log_sigma;  // their priors' widths
};

/// Reads and checks the whole file (and the model file it names), builds every inventory and
/// simulates the steady steps the first_step observations need (forked children). Throws
/// ConfigError with file:line:col and the key path.
ObservationSet load_observation_set(const std::string& path);

}  // namespace trn::app
