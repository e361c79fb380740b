// Per-rank programs from outside the workload frontend (Chakra execution traces: `trnsim run
// --workload-et`, docs/interop.md), run on a system's SystemC model: every rank simulated, no
// reductions. SystemC elaborates once per process: call once per process.
#pragma once

#include <cstdint>
#include <vector>

#include "models/ir/program.h"
#include "models/spec/system_spec.h"

namespace trn::app {

struct ProgramRunResult {
  double finish_s = 0;              // the latest rank's end
  std::vector<double> rank_finish;  // per rank
  uint64_t events = 0;              // fabric events and event-queue callbacks
  double wall_s = 0;
};

/// Runs `programs[r]` on rank r of `system` (its chips' default logical-core size). Throws
/// sim::ConfigError when there are more programs than ranks, or when the programs deadlock (a
/// collective or transfer whose members never all arrive), naming the rank and the group.
ProgramRunResult simulate_programs(const models::SystemSpec& system, std::vector<models::Program> programs);

}  // namespace trn::app
