// Compile-latency model: how long the first training step takes before steady state.
// (docs/startup.md section 1.) Pure C++; the parameters live in
// workloads/calibration/compile.yaml, fitted by `trnsim calibrate`.
//
// A job compiles a set of graphs (eager kernels, regional forward/backward graphs, whole
// step graphs, or inference graphs). Graph g holds ops; its instruction units are
//   I_g = tiles_g + units_per_op * ops_g + moe_row_units * rows_g
// (tiles: the tensor-engine instructions of its matmuls, 128 x 128 stationary by 512 moving,
// and the other engines' tiles; a fixed number of instructions per op: its DMA descriptors,
// loop set-up and synchronisation; an indirect-DMA descriptor per routed token row). Its
// single-job compile time is
//   C_g = m_rel * [c0 + a * I_g + b * I_g * (I_g / (M_g * I_ref))^(alpha - 1)]   (graphs)
//   C_k = m_rel * [c0_op + a_op * tiles_k]                                         (eager kernels)
// where M_g is the number of modules the compiler's modular flow splits the graph into (one
// per layer when it is on, 1 otherwise: the super-linear passes then see one module at a time)
// and m_rel the compiler release's documented change (compiler_release.h), times the
// frontend's factor, divided by `speedup`. Graphs compile sequentially (JIT) or on P parallel
// workers (AOT), P = min(jobs, vCPUs / cores_per_job, host memory / max_g M_g),
// M_g = mu0 + mu1 * I_g; the makespan is LPT list scheduling. Warm-cache hits cost t_hit
// instead. The first step adds process start, capture, weight initialisation, NEFF load,
// collective bootstrap and the first execution (k_first x steady step + t_first). Failures (time over
// budget, host memory, instruction limit) are reported per graph.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "sim/base/config_reader.h"

namespace trn::models {

using sim::F;

struct CompileParams {
  sim::Time c0{9};                  // fixed per graph compile
  sim::Time a{5e-4};                // per instruction unit (linear)
  sim::Time b{5e-4};                // per unit of the super-linear term at I = i_ref
  double alpha = 1.3;               // super-linearity exponent
  double i_ref = 1e6;               // units, reference size of the super-linear term
  sim::Time c0_op{0.3};             // per eager kernel
  sim::Time a_op{1e-4};             // per unit of an eager kernel
  sim::Time t_hit{1};               // per graph or kernel found in the cache
  double cores_per_job = 4;         // host cores one neuronx-cc job keeps busy (C21)
  sim::Bytes mu0{2e9};              // host memory per compile job
  sim::Bytes mu1{2e4};              // host memory per instruction unit
  double i_max = 1e7;               // units, compiler instruction limit
  sim::Time t_proc{30};             // process, runtime and framework start
  sim::Bandwidth weight_bw{2.9e9};  // weight initialisation per host server
  sim::Time t_capture_op{5e-3};     // per op traced into a graph
  sim::Time t_trace_op{7e-5};       // per op traced again into a graph the framework has seen (trial-run steps)
  sim::Time l0{0.5};                // per NEFF load
  sim::Time t_load_unit{1e-5};      // per instruction unit loaded
  sim::Time k0_coll{10};            // collective bootstrap
  sim::Time k1_coll{1};             // per doubling of ranks
  double k_first = 1.5;             // first execution / steady step
  sim::Time t_first{0};             // the first execution's warm-up beyond k_first steady steps
  double moe_row_units = 1;         // units per routed token row in MoE dispatch/combine (indirect DMA)
  double units_per_op = 100;        // instruction units of each op besides its tiles
  double xla_factor = 1;            // compile-time multiplier of graphs traced by torch-xla (HLO)
  template <class V>
  void visit(V& v) {
    v.field("c0", c0, F("fixed time per graph compile").ge(0));
    v.field("a", a, F("time per instruction unit, linear part").ge(0));
    v.field("b", b, F("time per instruction unit, super-linear part at I = i_ref").ge(0));
    v.field("alpha", alpha, F("super-linearity exponent").ge(1).le(3));
    v.field("i_ref", i_ref, F("reference size of the super-linear term, units").gt(0));
    v.field("c0_op", c0_op, F("fixed time per eager kernel compile").ge(0));
    v.field("a_op", a_op, F("time per unit of an eager kernel").ge(0));
    v.field("t_hit", t_hit, F("time per cache hit (lookup and fetch)").ge(0));
    v.field("cores_per_job", cores_per_job, F("host cores one compile job uses").ge(1));
    v.field("mu0", mu0, F("host memory per compile job").ge(0));
    v.field("mu1", mu1, F("host memory per instruction unit").ge(0));
    v.field("i_max", i_max, F("compiler instruction limit, units").gt(0));
    v.field("t_proc", t_proc, F("process, runtime and framework start").ge(0));
    v.field("weight_bw", weight_bw, F("weight initialisation bandwidth per host server").gt(0));
    v.field("t_capture_op", t_capture_op, F("time per op traced into a graph").ge(0));
    v.field("t_trace_op", t_trace_op,
            F("time per op traced again into a graph already extracted (neuron_parallel_compile's trial steps)")
                .ge(0)
                .optional());
    v.field("l0", l0, F("time per NEFF load").ge(0));
    v.field("t_load_unit", t_load_unit, F("load time per instruction unit").ge(0));
    v.field("k0_coll", k0_coll, F("collective bootstrap").ge(0));
    v.field("k1_coll", k1_coll, F("collective bootstrap per doubling of ranks").ge(0));
    v.field("k_first", k_first, F("first execution time / steady step").ge(1));
    v.field("t_first", t_first, F("first execution's warm-up beyond k_first steady steps").ge(0).optional());
    v.field("moe_row_units", moe_row_units, F("instruction units per routed token row (MoE dispatch)").ge(0));
    v.field("units_per_op", units_per_op,
            F("instruction units of each op besides its tiles (DMA descriptors, loop set-up, synchronisation)")
                .ge(0)
                .optional());
    v.field("xla_factor", xla_factor,
            F("compile-time multiplier of graphs traced by torch-xla (HLO) against torch.compile's").gt(0));
  }
};

/// One unit of compilation: a graph or an eager kernel. Its size is given by what it holds
/// (instruction_units() combines them with the fitted per-op and per-row weights).
struct CompileJob {
  std::string name;
  double tiles = 0;     // tensor-engine and vector/scalar tiles of its ops
  double ops = 0;       // ops compiled into it (an eager kernel: 1)
  double rows = 0;      // MoE token rows routed by indirect DMA (dispatch and combine)
  double traced = 0;    // ops traced into it by the framework (capture cost)
  int modules = 1;      // parts the compiler's modular flow compiles apart (1: the whole graph)
  bool kernel = false;  // eager kernel (c0_op, a_op) or graph (c0, a, b, alpha)
  double hit = 0;       // probability of a persistent-cache hit (0 cold, 1 warm)
  double scale = 1;     // compile-time multiplier: the compiler release's (compiler_release.h)
  bool xla = false;     // traced by torch-xla (HLO), not torch.compile: times xla_factor
  int copies = 1;       // identical-size variants compiled (e.g. one per TP rank class)
};

/// I = tiles + units_per_op x ops + moe_row_units x rows.
double instruction_units(const CompileParams& p, const CompileJob& j);

enum class Schedule { Sequential, Parallel };

struct HostLimits {
  int vcpus = 1;      // of one host server
  double memory = 0;  // bytes
  int duplicate = 1;  // identical compiles per host (no shared cache lock)
};

struct JobResult {
  std::string name;
  double units = 0, seconds = 0, memory = 0;  // seconds: one compile of one copy
  double hit = 0;
  int compiles = 1;     // compiles of this size on the host: its copies (x ranks without a shared cache)
  std::string failure;  // "", "timeout", "host-oom", "instruction-limit"
};

struct CompilePhase {
  std::vector<JobResult> jobs;
  double wall_s = 0;  // makespan (or sum when sequential)
  int workers = 1;
  int duplicate = 1;  // identical compiles of each graph (no shared cache lock)
  std::vector<std::string> failures;
};

double compile_seconds(const CompileParams& p, const CompileJob& j);
double compile_memory(const CompileParams& p, const CompileJob& j);
/// LPT makespan of `jobs` seconds on `workers` identical workers.
double lpt_makespan(std::vector<double> jobs, int workers);
/// The LPT schedule itself: (worker, start time) of each job, in the jobs' order.
std::vector<std::pair<int, double>> lpt_assign(const std::vector<double>& jobs, int workers);
/// Compiles `jobs` under `schedule` on the host; `speedup` divides every compile time;
/// `budget_s` (0 = none) marks graphs that exceed it.
CompilePhase compile_phase(const CompileParams& p, const std::vector<CompileJob>& jobs, Schedule schedule,
                           const HostLimits& host, double speedup, double budget_s);

}  // namespace trn::models
