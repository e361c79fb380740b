// The first training step of a scenario: graph inventory per execution mode, derived from
// the lowered workload, and the parts of the first step (docs/startup.md section 1):
//   eager               : one kernel per unique op signature (kind, shapes), compiled once
//                         when first reached and reused by every layer that repeats it;
//   compiled (torchneuron): regional torch.compile: a forward and a backward graph per
//                         unique block signature, plus an eager remainder (embedding, head,
//                         loss, optimizer, FSDP/DP collectives);
//   compiled (xla)      : lazy-tensor step graphs with every layer unrolled: first step,
//                         steady (or micro-step and update-step variants with gradient
//                         accumulation) and an initialisation graph; sequential JIT or
//                         parallel ahead of time (neuron_parallel_compile).
// Instruction units per op: tiles on the 128-partition / 512-free array (matmul
// ceil(M/128) ceil(N/512) ceil(K/128) per expert; attention per sequence and head;
// elementwise ceil(tokens/128) ceil(width/512)) times instructions per tile.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "models/compile/compile_model.h"
#include "workloads/graph/training_graph.h"
#include "workloads/scenario/scenario_spec.h"

namespace trn::workloads {

/// Instruction units of one graph op (MoE dispatch/combine add moe_row_units per routed row;
/// `element_bytes`, PrecisionSpec::element_bytes, turns their bytes into rows).
double op_units(const GraphOp& op, const models::CompileParams& p, double optimizer_passes = 12,
                double element_bytes = 2);

/// What a first step compiles: one kernel per distinct op (eager), one graph per distinct layer
/// region (regional torch.compile), or whole-step graphs (the xla frontend).
enum class InventoryKind { EagerKernels, Regional, WholeStep };

struct Inventory {
  InventoryKind kind = InventoryKind::EagerKernels;
  std::vector<models::CompileJob> jobs;
  models::Schedule schedule = models::Schedule::Sequential;
  double traced_ops = 0;  // ops captured into graphs
};

/// `g`: a stage graph after the parallel passes.
Inventory build_inventory(const ScenarioSpec& s, const TrainingGraph& g, ExecMode mode, const models::CompileParams& p);

/// The parts of a first step, in the order they run (docs/startup.md section 1).
enum class StartupPart {
  ProcessStart,
  WeightInit,
  GraphCapture,
  Compile,
  NeffLoad,
  CollectiveBootstrap,
  FirstExecution
};
inline const std::vector<std::string>& enum_words(StartupPart) {
  static const std::vector<std::string> w{"process_start", "weight_init",          "graph_capture",  "compile",
                                          "neff_load",     "collective_bootstrap", "first_execution"};
  return w;
}

struct FirstStep {
  std::vector<std::pair<std::string, double>> parts;  // seconds, one per StartupPart in its order, named by its word
  double total = 0, steady = 0;
  models::CompilePhase compile;
  Inventory inventory;

  double& part(StartupPart p) { return parts[static_cast<size_t>(p)].second; }
  double part(StartupPart p) const { return parts[static_cast<size_t>(p)].second; }
};

/// First step of `mode` given its simulated steady step time (for the first execution).
FirstStep first_step(const ScenarioSpec& s, const models::CompileParams& p, ExecMode mode, double steady_step_s);

/// The compile parameters shipped in workloads/calibration/compile.yaml.
models::CompileParams load_compile_params(const std::string& path = "");

}  // namespace trn::workloads
