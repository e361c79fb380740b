// The options of `trnsim plan` as given (text, as on the command line or from Python's
// trnsim.plan) and their check and conversion to PlanOptions (sim/app/plan/plan.h). Shared by
// the CLI (plan_cli.cpp) and the Python module, so that both refuse the same bad input in the
// same words.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sim/app/plan/plan.h"

namespace trn::app {

struct PlanCli {
  std::string model, tokens, systems, deadline, max_cost, budget,
      hbm_headroom = "5%", cache = "cold", global_batch, tokens_per_step, db, json, rank_by = "time", rate, write_bw,
      read_bw, interval, tp, pp, microbatch_sequences, checkpointing, batch_tolerance = "15%", counts = "pow2",
      max_memory;
  int max_fsdp = 64;
  std::vector<std::string> prices, sets;  // SYSTEM=USD; KEY=VALUE
  int min_chips = 1, max_chips = 1024, jobs = 1;
  int64_t seq_len = 4096;
  bool exhaustive = false, no_intervals = false;
};

/// Checks `cli` and converts it; throws sim::ConfigError naming the option on bad input.
PlanOptions plan_options(const PlanCli& cli);

}  // namespace trn::app
