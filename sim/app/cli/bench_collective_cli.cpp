// CLI of `trnsim bench collective`: options in, run_bench_collective, the table on stdout,
// --json and --resolved files (sim/app/commands/bench_collective.h).
#include <cstdio>
#include <memory>

#include "models/collectives/algorithm.h"
#include "sim/app/cli/commands.h"
#include "sim/app/commands/bench_collective.h"

namespace trn::app {

namespace {
struct BenchCollectiveCli {
  CommonOptions common;
  BenchCollectiveOptions bench;
};
}  // namespace

Runner add_bench_collective(CLI::App* bench) {
  auto o = std::make_shared<BenchCollectiveCli>();
  BenchCollectiveOptions& b = o->bench;
  auto* c = bench->add_subcommand("collective", "Simulate a collective over a range of sizes (like nccom-test)");
  c->add_option("--system", b.system, "System name (hw/configs/systems) or YAML path")->capture_default_str();
  c->add_option("--instances", b.instances,
                "Instances joined by EFA (count; 0 = the system file's value, 1 unless set)")
      ->capture_default_str();
  c->add_option("--lnc", b.lnc, "Physical cores per rank (logical NeuronCore size; 0 = chip default)")
      ->capture_default_str();
  c->add_option("--op", b.op, "all-reduce | all-gather | reduce-scatter | all-to-all")->capture_default_str();
  c->add_option("--ranks", b.ranks, "Ranks taking part, placed contiguously from rank 0 (count; 0 = all)")
      ->capture_default_str();
  c->add_flag("--exact", b.exact,
              "Simulate every transfer of every instance (default: when the ranks fill whole instances, only "
              "instance 0's, and on a torus one rank per orbit of the ring's rotations, by symmetry)");
  c->add_option("--sizes", b.sizes, "Comma-separated message sizes with units (bytes, e.g. 1KiB,512MiB)")
      ->capture_default_str();
  c->add_option("--dtype", b.dtype, "Element type: fp32, bf16, fp16, fp8, uint8 (sets the count column)")
      ->capture_default_str();
  c->add_option("--algorithm", b.algorithm, "auto (Neuron runtime choice by size) | " + models::algorithm_names(" | "))
      ->capture_default_str();
  add_common(c, o->common);
  return [o]() -> int {
    BenchCollectiveOptions opt = o->bench;
    opt.sets = o->common.sets;
    parse_bench_collective(opt);  // bad options first, then unwritable outputs
    check_outputs(o->common);
    BenchCollectiveResult r = run_bench_collective(opt);
    write_bench_collective_text(r, summary_stream(o->common));
    write_outputs(o->common, bench_collective_json(r).dump(2) + "\n",
                  models::resolved_yaml(r.spec, "# trnsim resolved configuration (system " + r.spec.name + ")\n"));
    // After the outputs: a failed write then reports its error as the only stderr line.
    write_bench_collective_sim_line(r, stderr);
    return 0;
  };
}

}  // namespace trn::app
