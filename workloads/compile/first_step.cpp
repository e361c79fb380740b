// First-step assembly (see first_step.h).
#include "workloads/compile/first_step.h"

#include <algorithm>
#include <cmath>

#include "sim/base/config_loader.h"
#include "sim/base/paths.h"
#include "workloads/memory/memory_model.h"

namespace trn::workloads {

FirstStepInputs first_step_inputs(const ScenarioSpec& s, ExecMode mode, double steady_step_s) {
  FirstStepInputs in;
  in.mode = mode;
  in.inventory = build_inventory(s, mode);
  in.steady_s = steady_step_s;
  in.speedup = s.compile.speedup;
  in.budget_s = s.compile.budget.v;
  // Host-bound parts use one host server: its vCPUs and memory (compile workers, contention,
  // host-oom), its compile cache (shared by the ranks on that host) and its weight-loading
  // bandwidth. An UltraServer has several hosts (`system.hosts`), each serving its own chips.
  const int lnc = s.effective_lnc();
  const int ranks_per_host = s.system.chips_per_host() * (s.system.chip.cores.physical / lnc);
  in.host.vcpus = s.system.host.vcpus;
  in.host.memory = s.system.host.memory.v;
  in.host.duplicate = s.compile.shared_cache ? 1 : ranks_per_host;
  const MemoryReport mem = memory_per_rank(s);
  double per_rank = mem.bytes(MemoryKind::Weights);
  if (s.precision.fp32_master_copy())  // the fp32 master copy (4 of 12 B per parameter); m and v start at zero
    per_rank += mem.bytes(MemoryKind::Optimizer) * 4.0 / 12.0;
  // With bf16 master weights the bf16 weights are the master, and an FP32 model's weights (4 B
  // per parameter in `weights`) are its master: nothing more to load.
  in.weight_bytes = per_rank * ranks_per_host;
  in.world = double(s.parallel.world());
  if (s.compile.parallel_compile && in.inventory.kind == InventoryKind::WholeStep)
    in.trial_steps = s.compile.trial_steps;
  return in;
}

namespace {

// The jobs of one host set (all of them when the inventory has no host sets).
std::vector<models::CompileJob> jobs_of(const Inventory& inv, const HostSet* h) {
  if (!h) return inv.jobs;
  std::vector<models::CompileJob> out;
  for (size_t i : h->jobs) out.push_back(inv.jobs[i]);
  return out;
}

}  // namespace

FirstStep first_step(const FirstStepInputs& in, const models::CompileParams& p) {
  FirstStep f;
  f.steady = in.steady_s;
  f.inventory = in.inventory;
  // Every host compiles its ranks' graphs at the same time (a shared cache hands each graph to
  // one of them): the first step waits for the host that finishes last.
  std::vector<const HostSet*> sets;
  for (const auto& h : in.inventory.hosts) sets.push_back(&h);
  if (sets.empty()) sets.push_back(nullptr);
  double capture = 0, load = 0;
  bool first = true;
  for (const HostSet* h : sets) {
    const std::vector<models::CompileJob> jobs = jobs_of(in.inventory, h);
    models::CompilePhase c = models::compile_phase(p, jobs, in.inventory.schedule, in.host, in.speedup, in.budget_s);
    double traced = 0, loaded = 0;
    for (const auto& j : jobs) {
      traced += j.kernel ? 0 : j.traced;
      loaded += p.l0.v + models::instruction_units(p, j) * p.t_load_unit.v;  // each rank loads its own variant
    }
    if (first || c.wall_s > f.compile.wall_s) {
      f.compile = std::move(c);
      capture = traced * p.t_capture_op.v;
      load = loaded;
      first = false;
    }
  }
  const double weight_init = in.weight_bytes / p.weight_bw.v;
  // neuron_parallel_compile runs the training script first: its own start, then trial steps that
  // trace every micro-batch with the execution skipped (docs/startup.md 1.10).
  const double trial = in.trial_steps > 0
                           ? p.t_proc.v + weight_init + in.trial_steps * in.inventory.step_traced_ops * p.t_trace_op.v
                           : 0.0;
  f.parts = {
      {enum_word(StartupPart::ProcessStart), p.t_proc.v},
      {enum_word(StartupPart::WeightInit), weight_init},
      {enum_word(StartupPart::GraphCapture), capture},
      {enum_word(StartupPart::TrialRun), trial},
      {enum_word(StartupPart::Compile), f.compile.wall_s},
      {enum_word(StartupPart::NeffLoad), load},
      {enum_word(StartupPart::CollectiveBootstrap), p.k0_coll.v + p.k1_coll.v * std::log2(std::max(1.0, in.world))},
      {enum_word(StartupPart::FirstExecution), p.k_first * in.steady_s + p.t_first.v}};
  for (const auto& [k, v] : f.parts) f.total += v;
  return f;
}

FirstStep first_step(const ScenarioSpec& s, const models::CompileParams& p, ExecMode mode, double steady_step_s) {
  return first_step(first_step_inputs(s, mode, steady_step_s), p);
}

models::CompileParams load_compile_params(const std::string& path) {
  std::string file = path.empty() ? sim::data_root() + "/workloads/calibration/compile.yaml" : path;
  sim::ConfigNode root = sim::load_config_file(file);
  models::CompileParams p;
  const sim::ConfigNode* n = root.find("compile_params");
  if (!n) throw sim::ConfigError(root.loc, "compile_params", "missing section 'compile_params'");
  sim::read_config(*n, p, "compile_params");
  return p;
}

}  // namespace trn::workloads
