// `trnsim bench collective`: an nccom-test-style collective sweep on a simulated system.
// Options in, run_bench_collective, result out; the text and JSON writers are separate.
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "models/collectives/collective_plan.h"
#include "models/cost/dtype.h"
#include "models/spec/system_spec.h"

namespace trn::app {

struct BenchCollectiveOptions {
  std::vector<std::string> sets;  // --set key=value
  std::string system = "trn2.48xlarge", op = "all-reduce", sizes = "1KiB,1MiB,64MiB,512MiB", dtype = "fp32",
              algorithm = "auto";
  int instances = 0, ranks = 0, lnc = 0;
  bool exact = false;  // no instance symmetry
};

/// The options checked and parsed (no configuration loaded yet).
struct BenchCollectiveRequest {
  models::CollectiveOp op{};
  models::DType dtype{};
  bool force = false;  // an algorithm other than auto
  models::Algorithm forced{};
  std::vector<double> sizes;  // bytes
};
/// Throws ConfigError naming the option that is wrong.
BenchCollectiveRequest parse_bench_collective(const BenchCollectiveOptions& o);

struct BenchCollectiveRow {
  double size = 0, time_s = 0;
  std::string algorithm;
  size_t transfers = 0;
};

struct BenchCollectiveResult {
  models::SystemSpec spec;
  models::CollectiveOp op{};
  models::DType dtype{};
  int ranks = 0, lnc = 0, ranks_per_chip = 0, chips_used = 0;
  std::vector<BenchCollectiveRow> rows;
  uint64_t flow_events = 0, queue_events = 0;
  uint64_t flows = 0;       // flows the fabric ran: fewer than the transfers under a symmetry
  double wall_s = 0;        // CPU time of the symmetry check and the simulation
  std::string inputs_hash;  // of the resolved system and the options (documents.h)
};

/// Simulates the sizes back to back in one simulation (call once per process).
BenchCollectiveResult run_bench_collective(const BenchCollectiveOptions& o);
void write_bench_collective_text(const BenchCollectiveResult& r, FILE* out);
/// The simulator's own figures (events, wall time), one line.
void write_bench_collective_sim_line(const BenchCollectiveResult& r, FILE* out);
/// The --json document (docs/schema/bench-collective.schema.json): the run's setting and one row per size.
nlohmann::ordered_json bench_collective_json(const BenchCollectiveResult& r);

}  // namespace trn::app
