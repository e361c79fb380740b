// CLI of `trnsim sweep` and `trnsim merge`: options in, run_sweep / run_merge, text out
// (sim/app/commands/sweep.h).
#include <cstdio>
#include <memory>

#include "sim/app/cli/commands.h"
#include "sim/app/commands/sweep.h"

namespace trn::app {

Runner add_sweep(CLI::App* app) {
  auto o = std::make_shared<SweepOptions>();
  auto* c = app->add_subcommand("sweep", "Run the product of a sweep's axes, one SQLite row per point (resumable)");
  c->add_option("sweep", o->file, "Sweep YAML (e.g. workloads/sweeps/*.yaml)")->required();
  c->add_option("--db", o->db, "SQLite database for the results (created or resumed)")->required();
  c->add_option("-j,--jobs", o->jobs, "Worker processes (count)")->capture_default_str();
  c->add_option("--shard", o->shard, "Run only share K of N (K/N, 1-based; default: all)");
  return [o]() -> int {
    SweepResult r = run_sweep(*o, [](const SweepProgress& p) { write_sweep_progress(p, stderr); });
    write_sweep_text(r, stdout);
    return 0;
  };
}

Runner add_merge(CLI::App* app) {
  auto o = std::make_shared<MergeOptions>();
  auto* c = app->add_subcommand("merge", "Join sweep databases (e.g. shards) into one");
  c->add_option("out", o->out, "Database to create or extend")->required();
  c->add_option("inputs", o->inputs, "Shard databases")->required();
  return [o]() -> int {
    write_merge_text(run_merge(*o), stdout);
    return 0;
  };
}

}  // namespace trn::app
