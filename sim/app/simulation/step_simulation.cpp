// Steady-step simulation and its breakdown.
#include "sim/app/simulation/step_simulation.h"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <numeric>
#include <functional>
#include <map>
#include <memory>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "hw/system/program_runner.h"
#include "hw/trace/core_trace.h"
#include "hw/trace/fabric_trace.h"
#include "sim/app/simulation/fork_eval.h"
#include "sim/app/simulation/local_symmetry.h"
#include "sim/app/trace/perfetto_sink.h"
#include "sim/base/units.h"
#include "sim/base/warnings.h"
#include "sim/kernel/event_queue.h"
#include "workloads/graph/training_graph.h"
#include "workloads/lowering/lower_program.h"
#include "workloads/parallel/layout.h"
#include "workloads/parallel/parallel_passes.h"

namespace trn::app {
namespace {

// The step analysis of one core, accumulated op by op in program order as its ops retire
// (NeuronCore::RetireHook), so that no op is kept until the end of the run: the busy-interval
// sets of the breakdown, the engines' busy time and op counts, the time compute ops spent
// beyond their compute (memory_bound), and the roofline groups: rank 0's compute ops with
// FLOPs, grouped by name stem and engine (every group). Sums are taken in program order, as
// they were over the whole program.
struct StepAnalysis {
  std::vector<Interval> compute, coll, host, pipe;
  double memory_bound = 0;
  std::map<models::Engine, double> busy;
  std::map<models::Engine, int64_t> count;
  std::map<std::pair<std::string, std::string>, RooflinePoint> groups;
  void add(const models::Op& op, double start, double end) {
    count[op.engine] += 1;
    Interval iv{start, end};
    double len = iv.second - iv.first;
    if (op.engine == models::Engine::Collective && workloads::is_pipeline_stream(op.queue))
      pipe.push_back(iv);
    else if (op.engine == models::Engine::Collective)
      coll.push_back(iv);
    else if (op.engine == models::Engine::Host)
      host.push_back(iv);
    else {
      compute.push_back(iv);
      busy[op.engine] += len;
      memory_bound += std::max(0.0, len - op.duration_s);
    }
    if (static_cast<int>(op.engine) >= models::kComputeEngines || op.flops <= 0) return;
    RooflinePoint& g = groups[{name_stem(op.name), models::engine_name(op.engine)}];
    g.ops += 1;
    g.flops += op.flops;
    g.hbm_bytes += op.bytes;
    g.busy_s += end - start;
  }
  std::vector<RooflinePoint> roofline() const {
    std::vector<RooflinePoint> pts;
    for (const auto& [key, g0] : groups) {
      RooflinePoint g = g0;
      g.name = key.first;
      g.engine = key.second;
      pts.push_back(g);
    }
    return pts;
  }
};

// The graph of pipeline stage `p` after the parallel passes (the same for every rank of it).
workloads::TrainingGraph stage_graph(const workloads::ScenarioSpec& s, int p) {
  return workloads::stage_training_graph(s, p);
}

// Whether the scenario is one where one rank per orbit may replace one per stage (a switched
// fabric over several instances; orbit_representatives also needs the instance symmetry).
bool orbits_may_apply(const workloads::ScenarioSpec& s) {
  return s.system.topology.impl == "switched" && s.system.instances > 1;
}

// One rank per orbit of the job's symmetry (docs/workloads.md 1.6.1, "Orbits on switched
// fabrics"): on a switched fabric whose job spans instances that the instance symmetry folds,
// the ranks of a stage are not alike (the DP groups' rings cross the racks' direct links and
// switch ports in different places), so one rank per stage does not stand for them all. The
// representative of every orbit of the instance and local symmetries (System::rep_rank) is
// simulated instead: every group then holds a simulated rank and no sibling is started, and the
// other ranks of an orbit are its images. Empty when the rule does not apply.
std::vector<int> orbit_representatives(const workloads::ScenarioSpec& s, const hw::System& sys,
                                       const workloads::Layout& layout) {
  if (!orbits_may_apply(s) || sys.symmetry().size() < 2) return {};
  std::vector<int> reps;
  for (int r = 0; r < layout.world(); ++r)
    if (sys.rep_rank(r) == r) reps.push_back(r);
  return reps;
}

// Unsimulated ranks of `rank`'s stage whose DMA path shares a resource (an HBM stack) with
// `rank`'s: the chip-mates on the same stack (Trn2/Trn3 at LNC=1 put two cores on a stack).
std::vector<int> mirrored_ranks(const hw::System& sys, const workloads::Layout& layout, const std::vector<char>& mask,
                                int rank) {
  std::vector<int> out;
  const hw::RankPlacement me = sys.placement(rank);
  const int per_stack = sys.spec().chip.cores_per_stack();
  const int first = me.chip * sys.ranks_per_chip();
  for (int r = first; r < first + sys.ranks_per_chip() && r < layout.world(); ++r) {
    if (mask[static_cast<size_t>(r)] || layout.coord(r).p != layout.coord(rank).p) continue;
    if (sys.placement(r).first_core / per_stack == me.first_core / per_stack) out.push_back(r);
  }
  return out;
}

// Checks the compact form of a job's instance symmetry against its definition on the layout
// (element a * span + b shifts d by a * step and rotates the span by b), where that costs under
// a million look-ups: every run of a small system checks it (std::logic_error otherwise).
void check_compact(const hw::InstanceSymmetry& k, const workloads::Layout& layout, const workloads::ParallelSpec& par,
                   int per_instance, int instances) {
  if (static_cast<int64_t>(k.size()) * instances > (int64_t{1} << 20)) return;
  const int step = par.dp / k.shifts;
  for (int g = 0; g < k.size(); ++g)
    for (int i = 0; i < instances; ++i) {
      int want = i;
      if (i * per_instance < layout.world()) {
        workloads::Coord c = layout.coord(i * per_instance);
        c.d = (c.d + g / k.span * step) % par.dp;
        const int j = layout.rank(c) / per_instance;
        want = j - j % k.span + (j % k.span + g % k.span) % k.span;
      }
      if (k.image(g, i) != want) throw std::logic_error("symmetry: the compact instance symmetry is not the job's");
    }
}

// The instance symmetry of a job (docs/workloads.md 1.6.1): shifting the data-parallel index d
// by `step` moves whole instances onto each other when a replica (tp x fsdp ranks) fills whole
// instances (step 1) or an instance holds whole replicas (step = replicas per instance);
// instances are identical and EFA treats them alike, so each such shift is a symmetry of the
// system and of the job. With expert parallelism across replicas the step is also a multiple
// of an EP group's replicas. A replica that spans `span` > 1 instances (no expert parallelism)
// is also shifted onto itself by whole instances, cyclically: an FSDP group then spans those
// instances in the same order from each, and TP and DP groups go to groups of their kind. None
// (identity only) otherwise, or with one instance.
hw::InstanceSymmetry job_symmetry(const hw::System& sys, const workloads::Layout& layout,
                                  const workloads::ParallelSpec& par) {
  hw::InstanceSymmetry k;
  const int per_instance = sys.ranks_per_instance();
  const int instances = sys.topology().num_chips() / sys.topology().chips_per_instance();
  const int block = par.tp * par.fsdp;
  int step = 0, span = 1;
  if (block % per_instance == 0) {
    step = 1;
    span = par.ep == 1 ? block / per_instance : 1;
  } else if (per_instance % block == 0) {
    step = per_instance / block;
  }
  if (par.ep > par.fsdp && step > 0) step = std::lcm(step, par.ep / par.fsdp);
  if (instances < 2 || step == 0 || par.dp % step != 0 || (par.dp / step < 2 && span < 2)) return k;
  // Shifting d by a * step moves an instance by a * step * block / per_instance instances
  // inside its pipeline stage's instances (the stages are the slowest coordinate), cyclically;
  // the span rotates inside a replica's instances. Held in compact form (InstanceSymmetry).
  k.shifts = par.dp / step;
  k.span = span;
  k.stride = step * block / per_instance / span;
  k.block = block * par.dp / per_instance;
  k.used = layout.world() / per_instance;
  check_compact(k, layout, par, per_instance, instances);
  k.to_rep.assign(static_cast<size_t>(instances), 0);
  for (int i = 0; i < instances; ++i) {
    const int r = i * per_instance;
    if (r >= layout.world()) continue;
    const int d = layout.coord(r).d;
    const int back = (par.dp - (d - d % step)) % par.dp;  // the shift that brings d to d mod step
    k.to_rep[static_cast<size_t>(i)] = back / step * span + (span - i % span) % span;
  }
  return k;
}

// Progress of a run on stderr (a terminal): one line, rewritten at most every half second
// once the run has taken kProgressAfter seconds, cleared at the end.
class Progress {
 public:
  Progress(std::string label, int64_t ops, std::chrono::steady_clock::time_point t0)
      : label_(std::move(label)), ops_(std::max<int64_t>(1, ops)), t0_(t0) {
    // TRNSIM_PROGRESS_AFTER (seconds) overrides kProgressAfter, for tests.
    if (const char* e = std::getenv("TRNSIM_PROGRESS_AFTER")) after_ = std::atof(e);
  }
  void update(const hw::ProgramRunner& runner) {
    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0_).count();
    if (wall < after_ || (shown_ && wall - last_ < 0.5)) return;
    last_ = wall;
    int64_t done = 0;
    for (const auto& [rank, core] : runner.ranks()) done += static_cast<int64_t>(core->executed());
    const double f = std::min(1.0, double(done) / double(ops_));
    const double eta = f > 0 ? wall * (1 - f) / f : 0;
    std::fprintf(stderr, "\r%s: simulated %.3f s, %.1f%% of %lld ops, %.0f s elapsed, ETA %.0f s   ", label_.c_str(),
                 sim::now_s(), 100 * f, static_cast<long long>(ops_), wall, eta);
    std::fflush(stderr);
    shown_ = true;
  }
  void clear() {
    if (shown_) std::fprintf(stderr, "\r%*s\r", 100, "");
  }

 private:
  std::string label_;
  int64_t ops_;
  std::chrono::steady_clock::time_point t0_;
  double last_ = 0, after_ = kProgressAfter;
  bool shown_ = false;
};

}  // namespace

namespace {

// The timeline of a simulation (--trace): the sink and its writers, observers of the cores
// and the fabric (hw/trace): every simulated core's ops and SBUF counter, the fabric's
// utilisation counters and a busy-span track per link.
struct Timeline {
  std::unique_ptr<sim::TraceSink> sink;
  std::vector<std::unique_ptr<hw::CoreTraceWriter>> cores;
  std::unique_ptr<hw::FabricTraceWriter> fabric;
  void finish(double now) {
    fabric->flush(now);
    sink->finish();
  }
};

std::unique_ptr<Timeline> attach_trace(const TraceOptions& trace, const workloads::ScenarioSpec& s, hw::System* sys,
                                       const hw::ProgramRunner* runner) {
  auto t = std::make_unique<Timeline>();
  t->sink = make_trace_sink(trace.format, trace.path, trace.categories, trace.t0, trace.t1);
  std::set<int> chips;
  for (const auto& [rank, core] : runner->ranks()) {
    const hw::RankPlacement p = sys->placement(rank);
    if (chips.insert(p.chip).second) t->sink->process_name(p.chip, "chip " + std::to_string(p.chip));
    t->cores.push_back(std::make_unique<hw::CoreTraceWriter>(*core, *t->sink, p.chip, rank * 100,
                                                             "rank " + std::to_string(rank),
                                                             sys->spec().chip.sbuf.total_bytes() * std::max(1, p.lnc)));
  }
  const int fabric_pid = s.system.total_chips() + 1;
  t->sink->process_name(fabric_pid, "fabric (links, EFA, DMA, HBM utilisation)");
  t->fabric = std::make_unique<hw::FabricTraceWriter>(sys->net(), *t->sink, fabric_pid);
  if (t->sink->wants("links"))  // a busy-span track per NeuronLink, switch port and EFA NIC link
    for (size_t l = 0; l < sys->topology().links().size(); ++l)
      if (const int32_t r = sys->link_resource(static_cast<int32_t>(l)); r >= 0) t->fabric->trace_busy_spans(r);
  return t;
}

}  // namespace

namespace {

// The job's symmetry (instance and local parts) and the siblings left out, for the stage
// reduction.
void set_reductions(const workloads::ScenarioSpec& s, const workloads::Layout& layout, hw::System& sys,
                    hw::ProgramRunner& runner) {
  hw::InstanceSymmetry k = job_symmetry(sys, layout, s.parallel);
  sys.set_symmetry(k);  // the instance part: local_job_symmetry checks the plans' quotients
  k.local = local_job_symmetry(sys, layout, s.parallel);
  sys.set_symmetry(std::move(k));
  // Siblings apart from the simulated ranks' traffic are left out on switched fabrics (Trn3),
  // where most siblings are (docs/workloads.md 1.6; docs/adr/0005). Tori keep them all: the
  // runtime calibration was fitted with every sibling, and the shortcut moves those steps by
  // up to 0.05 %.
  runner.leave_apart_siblings(s.system.topology.impl == "switched");
  // A collective that runs alone is simulated once and replayed (docs/workloads.md 1.6.6).
  runner.replay_isolated(true);
}

// The ops held at once by a simulation of `s` (its whole step: `largest` micro-batches) with
// per_stage_sim[p] simulated ranks in stage p (RunEstimate).
int64_t held_ops(const workloads::ScenarioSpec& s, const workloads::Layout& layout, int largest,
                 const std::vector<int64_t>& per_stage_sim) {
  int64_t total = 0;
  // Ops of one rank per stage at 1 and 2 micro-batches give the ops per micro-batch.
  for (int p = 0; p < s.parallel.pp; ++p) {
    const workloads::TrainingGraph g = stage_graph(s, p);
    int64_t ops[2] = {0, 0};
    for (int k = 1; k <= 2; ++k) {
      workloads::LoweringStats st;
      workloads::lower_rank(with_microbatches(s, k), layout, g, layout.rank({0, 0, 0, p}), &st);
      ops[k - 1] = st.ops;
    }
    // Ops are lowered a segment at a time as the run needs them and released as they retire
    // (NeuronCore::load(ProgramSource)): a rank holds the micro-batches in flight in its 1F1B
    // schedule (at most pp) and the next ones being lowered, about pp + 2. Compiled FSDP
    // gathers have no inputs and run ahead across micro-batches without bound, so with FSDP in
    // compiled mode the whole step's ops may be held at once.
    const bool runs_ahead = s.mode == workloads::ExecMode::Compiled && s.parallel.fsdp > 1;
    const int held = runs_ahead ? largest : std::min(largest, s.parallel.pp + 2);
    total += (ops[0] + int64_t(held - 1) * (ops[1] - ops[0])) * per_stage_sim[static_cast<size_t>(p)];
  }
  return total;
}

// The memory of `concurrent` simulations holding `ops` ops at once each (RunEstimate).
double run_bytes(int64_t ops, int concurrent) { return concurrent * (kBaseBytes + kBytesPerOp * double(ops)); }

[[noreturn]] void memory_guard_error(const std::string& name, double bytes, int64_t ops, int concurrent,
                                     double max_memory) {
  char buf[512];
  // Sizes in the unit that suits each (1 MiB prints as 1.049 MB, not 0.00 GiB).
  std::snprintf(buf, sizeof buf,
                "%s: the run is estimated at %s (%lld ops held at once in its largest simulation%s), over "
                "--max-memory %s; use the default reductions (no --exact, --all-ranks or --all-microbatches), "
                "fewer micro-batches or layers, or a larger --max-memory",
                name.c_str(), sim::format_quantity(bytes, sim::Dim::Bytes).c_str(), static_cast<long long>(ops),
                concurrent > 1 ? ", two at once" : "", sim::format_quantity(max_memory, sim::Dim::Bytes).c_str());
  throw MemoryGuardError(buf);
}

// The memory guard again in the simulation's process, once its simulated ranks are known (one
// per orbit): their ops held at once, with `concurrent` simulations at a time.
void check_simulated_memory(const workloads::ScenarioSpec& s, const workloads::Layout& layout,
                            const std::vector<int>& simulated, double max_memory, int concurrent) {
  std::vector<int64_t> per_stage(static_cast<size_t>(s.parallel.pp), 0);
  for (int rank : simulated) ++per_stage[static_cast<size_t>(layout.coord(rank).p)];
  const int64_t ops = held_ops(s, layout, s.parallel.microbatches, per_stage);
  const double bytes = run_bytes(ops, concurrent);
  if (bytes > max_memory) memory_guard_error(s.name, bytes, ops, concurrent, max_memory);
}

}  // namespace

StepResult simulate_step(const workloads::ScenarioSpec& s, const TraceOptions& trace, RankSelection ranks,
                         const std::string& progress, double max_memory, int concurrent) {
  auto wall0 = std::chrono::steady_clock::now();
  StepResult r;
  workloads::Layout layout(s.parallel);
  r.world = layout.world();
  const int lnc = s.effective_lnc();
  static std::unique_ptr<hw::System> sys;  // one elaboration per process
  static std::unique_ptr<hw::ProgramRunner> runner;
  sys = std::make_unique<hw::System>("system", s.system, lnc);
  runner = std::make_unique<hw::ProgramRunner>("runner", *sys);
  if (ranks == RankSelection::Stages) set_reductions(s, layout, *sys, *runner);
  std::map<int, workloads::TrainingGraph> graphs;
  std::vector<int> simulated = ranks == RankSelection::All ? layout.all_ranks() : layout.stage_representatives();
  std::vector<char> mask;     // per rank: simulated (only with the stage reduction: sibling groups)
  std::vector<char> covered;  // per rank: stood for by a simulated rank (the lowering's siblings skip them)
  if (ranks == RankSelection::Stages) {
    std::vector<int> reps = orbit_representatives(s, *sys, layout);
    r.per_orbit = !reps.empty();
    if (r.per_orbit) simulated = std::move(reps);
    mask.assign(static_cast<size_t>(r.world), 0);
    for (int rank : simulated) mask[static_cast<size_t>(rank)] = 1;
    covered = r.per_orbit ? std::vector<char>(static_cast<size_t>(r.world), 1) : mask;
    if (r.per_orbit && max_memory > 0) check_simulated_memory(s, layout, simulated, max_memory, concurrent);
  }
  std::map<int, std::shared_ptr<workloads::OpTemplates>> templates;  // per stage: shared by its ranks
  for (int rank : simulated) {
    int p = layout.coord(rank).p;
    if (!graphs.count(p)) graphs[p] = stage_graph(s, p);
    if (!templates.count(p)) templates[p] = workloads::make_op_templates();
    int64_t ops = 0;  // lowered on demand as the run goes (NeuronCore::load(ProgramSource))
    runner->add_rank(rank, workloads::stream_rank(s, layout, graphs[p], rank, &ops, covered, templates[p]),
                     mask.empty() ? std::vector<int>{} : mirrored_ranks(*sys, layout, mask, rank));
    r.ops += ops;
  }
  r.simulated_ranks = static_cast<int>(runner->ranks().size());
  sim::StatGroup stats("one simulation of " + s.name);
  sys->add_stats(stats.group("system", "the hardware: fabric and event queue"));
  runner->add_stats(stats.group("runner", "the program runner: collectives and the simulated ranks' cores"));
  StepAnalysis analysis;
  const int analysed = runner->ranks().begin()->first;  // rank 0's breakdown
  for (const auto& [rank, core] : runner->ranks()) {
    if (rank != analysed && !trace.on_retire) continue;
    core->set_retire_hook([&analysis, &trace, rank = rank, analysed](const models::Op& op, double a, double b) {
      if (rank == analysed) analysis.add(op, a, b);
      if (trace.on_retire) trace.on_retire(rank, op, a, b);
    });
  }
  std::unique_ptr<Timeline> timeline = trace.path.empty() ? nullptr : attach_trace(trace, s, sys.get(), runner.get());
  std::unique_ptr<Progress> meter;
  if (!progress.empty() && sim::progress_on_stderr()) {
    meter = std::make_unique<Progress>(progress, r.ops, wall0);
    // Both kinds of events: a collective's transfers run on the fabric's alone.
    sys->events().set_progress([&] { meter->update(*runner); }, 1u << 12);
    sys->net().set_progress([&] { meter->update(*runner); }, 1u << 12);
  }
  sim::run_to_completion();
  if (meter) meter->clear();
  runner->check_finished();
  r.step_time_s = runner->finish_time();
  r.events = static_cast<uint64_t>(stats.value("system.fabric.events") + stats.value("system.queue_events"));
  r.simulated_ops = r.ops;
  r.sibling_collectives = static_cast<uint64_t>(stats.value("runner.collectives.siblings"));
  if (trace.stats) r.stats.push_back({{"microbatches", s.parallel.microbatches}, {"tree", stats.snapshot()}});
  r.steady.microbatches = {s.parallel.microbatches};
  r.steady.target = s.parallel.microbatches;

  // Breakdown on rank 0 (a representative of the first stage), accumulated as its ops retired.
  r.breakdown = step_breakdown(std::move(analysis.compute), analysis.coll, analysis.pipe, analysis.host,
                               analysis.memory_bound, r.step_time_s);
  set_engine_figures(analysis.busy, analysis.count, r);
  r.roofline_groups = analysis.roofline();
  finish_result(s, r);
  if (timeline) timeline->finish(sim::now_s());
  r.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();
  return r;
}

workloads::ScenarioSpec with_microbatches(const workloads::ScenarioSpec& s, int m) {
  workloads::ScenarioSpec out = s;
  const int64_t per_micro = s.batch.sequences() / s.parallel.microbatches;  // per pipeline replica
  out.parallel.microbatches = m;
  out.batch.global_batch = per_micro * m;
  out.batch.tokens_per_step = 0;
  return out;
}

std::vector<int> steady_state_points(int m, int pp, int k) {
  // Warm-up: the 1F1B pipeline fills pp - 1 stages; two more, and at least 8 micro-batches,
  // for the overlap of collectives with compute to settle (docs/workloads.md 1.6.2).
  const int w = std::max(8, pp + 2);
  if (k <= 0) k = w / 2;
  if (3 * w + 3 * k >= m) return {m};  // no cheaper than the step itself
  return {w, w + k, w + 2 * k};
}

RunEstimate estimate_run(const workloads::ScenarioSpec& full, const StepOptions& opt) {
  RunEstimate e;
  // With the layers' reduction the largest simulation has the largest count's layers.
  const std::vector<int> layers = layer_points(full, opt);
  const workloads::ScenarioSpec s = layers.size() > 1 ? with_layers(full, layers.back()) : full;
  const int m = s.parallel.microbatches;
  std::vector<int> pts = opt.all_microbatches ? std::vector<int>{m} : steady_state_points(m, s.parallel.pp);
  e.concurrent = pts.size() > 1 || layers.size() > 1 ? 2 : 1;
  workloads::Layout layout(s.parallel);
  // Simulated ranks per stage: every rank, or one. With one per orbit (switched fabrics over
  // instances) the count is known only once the job's symmetry is found, in the simulation's
  // own process: this estimate counts one per stage, and each simulation checks again with its
  // count before it lowers anything (check_simulated_memory).
  const int64_t per_stage_sim = opt.ranks == RankSelection::All ? layout.per_stage() : 1;
  e.ops = held_ops(s, layout, pts.back(), std::vector<int64_t>(static_cast<size_t>(s.parallel.pp), per_stage_sim));
  e.bytes = run_bytes(e.ops, e.concurrent);
  return e;
}

void check_memory_guard(const workloads::ScenarioSpec& s, const StepOptions& opt) {
  if (opt.max_memory <= 0) return;
  const RunEstimate e = estimate_run(s, opt);
  if (e.bytes > opt.max_memory) memory_guard_error(s.name, e.bytes, e.ops, e.concurrent, opt.max_memory);
}

namespace {

// One axis of the steady-state reduction: micro-batches or layers (docs/workloads.md 1.6.2, 1.6.5).
struct SteadyAxis {
  int target = 0;                                      // the step's count
  std::function<std::vector<int>(int)> points;         // counts for span k ({target}: none)
  std::function<workloads::ScenarioSpec(int)> scaled;  // the step at a count
  std::string unit;                                    // "micro-batches", "layers"
};

// The runs of one extrapolation so far: by count (a run is a pure function of its count), and
// what they add up to.
struct SteadyRuns {
  std::map<int, StepResult> done;
  uint64_t events = 0;
  int64_t simulated_ops = 0;
  nlohmann::json stats = nlohmann::json::array();  // every simulation's, in the order run
};

// Simulates the counts of `pts` not run yet, forked, two at a time, in the order smallest,
// largest, middle: the largest overlaps the other two (on two cores the wall is
// max(M3, M1 + M2), not M1 + M3 with the largest started last). The largest writes the trace.
void run_counts(const workloads::ScenarioSpec& s, const StepOptions& opt, const SteadyAxis& axis,
                const std::vector<int>& pts, SteadyRuns& runs) {
  std::vector<size_t> order(pts.size());
  std::iota(order.begin(), order.end(), size_t{0});
  if (order.size() == 3) order = {0, 2, 1};
  std::vector<std::function<StepResult()>> bodies;
  std::vector<int> fresh;
  for (size_t i : order) {
    const int mi = pts[i];
    if (runs.done.count(mi)) continue;
    TraceOptions t = i + 1 == pts.size() ? opt.trace : TraceOptions{};
    t.stats = opt.trace.stats;
    std::string label = opt.progress && i + 1 == pts.size() ? s.name + " (" + std::to_string(mi) + " of " +
                                                                  std::to_string(axis.target) + " " + axis.unit + ")"
                                                            : "";
    workloads::ScenarioSpec si = axis.scaled(mi);
    bodies.push_back([si, t, &opt, label] { return simulate_step(si, t, opt.ranks, label, opt.max_memory, 2); });
    fresh.push_back(mi);
  }
  std::vector<StepResult> started = run_in_children(bodies, "steady-state run", 2);
  for (size_t j = 0; j < fresh.size(); ++j) {
    StepResult& x = started[j];
    runs.events += x.events;
    runs.simulated_ops += x.ops;
    for (auto& e : x.stats) runs.stats.push_back(std::move(e));
    runs.done.emplace(fresh[j], std::move(x));
  }
}

// The step at counts M1 < M2 < M3 of `axis` (run_counts), extended along the line through M1 and
// M3 to the step's count once the periods over the two halves agree (else a longer span); the
// step itself when the runs would cost as much. `wall0`: when `simulate` started.
StepResult extrapolate(const workloads::ScenarioSpec& s, const StepOptions& opt, const SteadyAxis& axis,
                       std::chrono::steady_clock::time_point wall0, bool layers) {
  const int m = axis.target;
  SteadyRuns runs;
  for (int k = 0;;) {
    std::vector<int> pts = axis.points(k);
    if (pts.size() == 1) {
      StepResult r = simulate_step(s, opt.trace, opt.ranks, opt.progress ? s.name : "", opt.max_memory, 1);
      r.events += runs.events;
      r.simulated_ops += runs.simulated_ops;
      for (auto& e : r.stats) runs.stats.push_back(std::move(e));
      r.stats = std::move(runs.stats);
      r.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();
      return r;
    }
    run_counts(s, opt, axis, pts, runs);
    std::vector<StepResult> rs;
    for (int mi : pts) rs.push_back(runs.done.at(mi));
    // The period over each half and over the whole span; the halves' disagreement, carried
    // over the counts not simulated, bounds the error of the extrapolated step (the steady state
    // repeats in the mean, with bounded jitter from contention, docs/workloads.md 1.6.2).
    // Layers: the line through the later half, whose period is nearer the limit a layer's period
    // still grows towards, and twice the bound, the whole change of the period over a half-span
    // carried over every layer not simulated, within kLayerTolerance (docs/workloads.md 1.6.5).
    const int gap = pts[1] - pts[0];
    const double p1 = (rs[1].step_time_s - rs[0].step_time_s) / gap;
    const double p2 = (rs[2].step_time_s - rs[1].step_time_s) / gap;
    const size_t from = layers ? 1 : 0;  // the run the line starts from
    const double period = (rs[2].step_time_s - rs[from].step_time_s) / (pts[2] - pts[from]);
    const double t_m = rs[2].step_time_s + (m - pts[2]) * period;
    const double error = (m - pts[2]) * std::fabs(p1 - p2) / (layers ? 1 : 2);
    if (period <= 0 || error > (layers ? kLayerTolerance : kSteadyTolerance) * t_m) {  // a longer span
      k = 2 * gap;
      continue;
    }
    StepResult r = combine_steady(rs[from], rs[2], pts[from], pts[2], m);
    r.events = runs.events;
    r.simulated_ops = runs.simulated_ops;
    r.stats = std::move(runs.stats);
    r.steady.microbatches = {s.parallel.microbatches};
    r.steady.target = s.parallel.microbatches;
    if (layers) {
      r.steady.layers = pts;
      r.steady.layer_target = m;
    } else {
      r.steady.microbatches = pts;
      r.steady.target = m;
    }
    r.steady.period_s = period;
    r.steady.drift = error / t_m;
    finish_result(s, r);
    r.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();
    return r;
  }
}

}  // namespace

std::vector<int> layer_points(const workloads::ScenarioSpec& s, const StepOptions& opt, int k) {
  const int layers = s.model.num_layers;
  // Each layer alike in one pass: one pipeline stage (stages split the layers) and one
  // micro-batch (with several, compiled FSDP's gathers run ahead across the micro-batches and the
  // period of a layer had not settled at 24 layers, docs/workloads.md 1.6.5); a full trace and
  // every op's times when asked for.
  if (opt.all_layers || s.parallel.pp != 1 || s.parallel.microbatches != 1 || !opt.trace.path.empty() ||
      opt.trace.on_retire)
    return {layers};
  // The micro-batches' rule in layers with warm-up w = 8 and span k = 8 (8, 16, 24 layers): FSDP's
  // gathers and reduce-scatters take a few layers to settle, and the periods over 8 layers
  // average their jitter. No wider span: when the bound is not met the step is simulated whole,
  // since a second set of runs would cost about as much. Every count is even, so an alternating
  // sliding-window pattern keeps its proportions.
  if (k > 0) return {layers};
  std::vector<int> pts = steady_state_points(layers, 1, 8);
  for (int p : pts)
    if (p % 2 != 0 && p != layers) return {layers};
  return pts;
}

workloads::ScenarioSpec with_layers(const workloads::ScenarioSpec& s, int layers) {
  workloads::ScenarioSpec out = s;
  out.model.num_layers = layers;
  return out;
}

StepResult simulate(const workloads::ScenarioSpec& s, const StepOptions& opt) {
  const auto wall0 = std::chrono::steady_clock::now();
  check_memory_guard(s, opt);
  SteadyAxis axis;
  const bool layers = layer_points(s, opt).size() > 1;
  if (layers) {
    axis.target = s.model.num_layers;
    axis.points = [&](int k) { return layer_points(s, opt, k); };
    axis.scaled = [&](int n) { return with_layers(s, n); };
    axis.unit = "layers";
  } else {
    axis.target = s.parallel.microbatches;
    axis.points = [&](int k) {
      return opt.all_microbatches ? std::vector<int>{axis.target} : steady_state_points(axis.target, s.parallel.pp, k);
    };
    axis.scaled = [&](int n) { return with_microbatches(s, n); };
    axis.unit = "micro-batches";
  }
  return extrapolate(s, opt, axis, wall0, layers);
}

}  // namespace trn::app
