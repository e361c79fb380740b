// `trnsim run --workload-et DIR --system NAME`: per-rank Chakra execution traces (docs/interop.md)
// simulated on Trainium hardware. Collectives and pipeline transfers run on the fabric model,
// memory nodes on the DMA engines and HBM; a compute node that names an operator trnsim knows
// with its shapes is timed by the NeuronCore model (chakra_operators.h), another by a roofline on
// its FLOPs (the chip's published dense BF16 peak per logical core), with its bytes streamed
// through HBM under contention, or replays its recorded duration when it has neither (or with
// --et-durations); CPU nodes replay their duration on the host. The choice per node is counted in
// the output.
#pragma once

#include <cstdint>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "models/spec/system_spec.h"
#include "sim/app/simulation/program_simulation.h"

namespace trn::app {

struct ChakraImportOptions {
  std::string dir;         // the traces: DIR/<name>.<rank>.et, optionally DIR/<name>.comm_groups.json
  std::string system;      // a system (hw/configs/systems) or its YAML path
  int chips = 0;           // chips of the system, whole instances; 0: the fewest instances holding the ranks
  bool durations = false;  // replay every compute node's recorded duration instead of costing it
};

struct ChakraImportResult {
  std::string name;  // the traces' <name>
  int ranks = 0;
  int64_t nodes = 0;
  std::map<std::string, int64_t>
      costed;  // how nodes were timed: an operator family, roofline, duration, host, memory, collective, transfer
  models::SystemSpec system;
  double recorded_step_s = -1;  // the step the producer recorded (trnsim's trn_step_time_s), -1: none
  bool durations = false;       // --et-durations
  std::string inputs_hash;      // of the traces' bytes, the resolved system and the options
  ProgramRunResult run;
};

/// Reads the traces, builds every rank's program and simulates them. Throws ConfigError for a
/// missing or malformed trace (file and byte offset), a dependency on an unknown node, a
/// collective kind trnsim does not model, more ranks than the system holds, or a deadlock.
ChakraImportResult run_import_chakra(const ChakraImportOptions& o);
void write_import_text(const ChakraImportResult& r, FILE* out);
/// The run's document (docs/schema/run-trace.schema.json).
nlohmann::ordered_json import_json(const ChakraImportResult& r);

}  // namespace trn::app
