// `trnsim export chakra SCENARIO --out DIR`: a training step as Chakra execution traces
// (docs/interop.md), the format ASTRA-sim, SimAI and the MLCommons tools exchange workloads in.
//
// The step is simulated once (one rank per pipeline stage, every micro-batch; the ranks of a
// stage run the same program, docs/workloads.md 1.6.1). Every rank's program is then lowered and
// written as DIR/<name>.<rank>.et: one node per op, with the start and duration its stage's
// simulated rank had, its FLOPs and bytes, its collective's kind, size and group, and its
// dependencies (data: the op's inputs; control: the op before it on the same engine queue,
// which trnsim runs in order). DIR/<name>.comm_groups.json lists the communicator groups.
#pragma once

#include <cstdint>
#include <cstdio>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "sim/app/commands/run.h"

namespace trn::app {

struct ChakraExportOptions {
  RunOptions job;   // scenario, --set, --mode, --model as `trnsim run` reads them
  std::string out;  // the directory the traces go to (created when missing)
};

struct ChakraExportResult {
  workloads::ScenarioSpec scenario;
  double step_time_s = 0;                                  // the simulated step
  int ranks = 0;                                           // files written, one per rank
  int64_t nodes = 0;                                       // over every rank
  std::map<std::string, int64_t> rank0_node_types;         // Chakra node type -> nodes of rank 0
  int groups = 0;                                          // communicator groups (collectives)
  std::vector<std::pair<std::string, std::string>> files;  // (path, bytes), written all or nothing
};

/// Simulates the step and builds every file. Throws ConfigError for bad input or a job that
/// does not fit in HBM.
ChakraExportResult run_export_chakra(const ChakraExportOptions& o);
/// What was written, on `out`.
void write_export_text(const ChakraExportResult& r, FILE* out);

}  // namespace trn::app
