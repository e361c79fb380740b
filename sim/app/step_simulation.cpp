// Steady-step simulation and its breakdown.
#include "sim/app/step_simulation.h"

#include <algorithm>
#include <chrono>
#include <map>
#include <memory>

#include "hw/system/program_runner.h"
#include "sim/kernel/event_queue.h"
#include "workloads/graph/training_graph.h"
#include "workloads/lowering/lower_program.h"
#include "workloads/parallel/layout.h"
#include "workloads/parallel/parallel_passes.h"

namespace trn::app {
namespace {

using Interval = std::pair<double, double>;

double union_length(std::vector<Interval> v) {
  std::sort(v.begin(), v.end());
  double total = 0, s = -1, e = -1;
  for (auto [a, b] : v) {
    if (a > e) {
      total += e - s;
      s = a;
      e = b;
    } else {
      e = std::max(e, b);
    }
  }
  return total + (e - s);
}

// Length of `a` not covered by `b`.
double exposed(std::vector<Interval> a, const std::vector<Interval>& b) {
  std::vector<Interval> both = a;
  both.insert(both.end(), b.begin(), b.end());
  return union_length(both) - union_length(b);
}

// Name without layer indices: drops '.'-separated segments such as "12", "L12", "layer12".
std::string name_stem(const std::string& name) {
  std::string out;
  size_t start = 0;
  while (start <= name.size()) {
    size_t dot = name.find('.', start);
    std::string seg = name.substr(start, dot == std::string::npos ? std::string::npos : dot - start);
    size_t d = seg.find_first_of("0123456789");
    std::string prefix = d == std::string::npos ? seg : seg.substr(0, d);
    bool digits = d != std::string::npos && seg.find_first_not_of("0123456789", d) == std::string::npos;
    bool layer = digits && (prefix.empty() || prefix == "L" || prefix == "l" || prefix == "layer" ||
                            prefix == "layer_" || prefix == "block" || prefix == "blk");
    if (!layer && !seg.empty()) out += (out.empty() ? "" : ".") + seg;
    if (dot == std::string::npos) break;
    start = dot + 1;
  }
  return out.empty() ? name : out;
}

// Rank 0's compute ops with FLOPs, grouped by name stem and engine, against its share of the
// chip's peaks (the roofline of one logical core).
Roofline build_roofline(const workloads::ScenarioSpec& s, int lnc, const models::Program& prog,
                        const std::vector<Interval>& times) {
  Roofline rl;
  rl.lnc = lnc;
  const double logical_cores = double(s.system.chip.cores.physical) / lnc;
  rl.peak_flop_rate = s.system.chip.peak.bf16.v / logical_cores;
  rl.hbm_bandwidth = s.system.chip.hbm.bandwidth.v / logical_cores;
  std::map<std::pair<std::string, std::string>, RooflinePoint> groups;
  for (size_t i = 0; i < prog.ops.size() && i < times.size(); ++i) {
    const auto& op = prog.ops[i];
    if (static_cast<int>(op.engine) >= models::kComputeEngines || op.flops <= 0) continue;
    RooflinePoint& g = groups[{name_stem(op.name), models::engine_name(op.engine)}];
    g.ops += 1;
    g.flops += op.flops;
    g.hbm_bytes += op.bytes;
    g.busy_s += times[i].second - times[i].first;
  }
  std::vector<RooflinePoint> pts;
  for (auto& [key, g] : groups) {
    g.name = key.first;
    g.engine = key.second;
    pts.push_back(g);
  }
  std::stable_sort(pts.begin(), pts.end(), [](const RooflinePoint& a, const RooflinePoint& b) { return a.busy_s > b.busy_s; });
  if (pts.size() > size_t(kRooflinePoints)) {  // the smallest groups become one "other" point
    RooflinePoint other;
    other.name = "other";
    for (size_t i = kRooflinePoints - 1; i < pts.size(); ++i) {
      other.engine = other.engine.empty() || other.engine == pts[i].engine ? pts[i].engine : "mixed";
      other.ops += pts[i].ops;
      other.flops += pts[i].flops;
      other.hbm_bytes += pts[i].hbm_bytes;
      other.busy_s += pts[i].busy_s;
    }
    pts.resize(kRooflinePoints - 1);
    pts.push_back(other);
  }
  for (auto& p : pts) {
    p.intensity = p.hbm_bytes > 0 ? p.flops / p.hbm_bytes : 0;
    p.flop_rate = p.busy_s > 0 ? p.flops / p.busy_s : 0;
  }
  rl.points = std::move(pts);
  return rl;
}

}  // namespace

double model_flops_per_step(const workloads::ScenarioSpec& s) {
  const auto& m = s.model;
  const double tokens = static_cast<double>(s.batch.tokens());
  double dense = 6.0 * m.active_parameters() * tokens;
  double seq = s.batch.seq_len;
  double attn = 0;
  for (int l = 0; l < m.num_layers; ++l) {
    double s_eff = m.causal ? (seq + 1) / 2 : seq;
    if (m.is_sliding_layer(l)) s_eff = std::min<double>(s_eff, m.sliding_window);
    attn += 3.0 * 4.0 * s_eff * m.head_dim * m.num_heads;  // fwd QK^T and PV, x3 for fwd + bwd
  }
  return dense + attn * tokens;
}

StepResult simulate_step(const workloads::ScenarioSpec& s, const TraceOptions& trace, RankSelection ranks) {
  auto wall0 = std::chrono::steady_clock::now();
  StepResult r;
  workloads::Layout layout(s.parallel);
  r.world = layout.world();
  const int lnc = s.lnc > 0 ? s.lnc : s.system.chip.cores.default_lnc;
  static std::unique_ptr<hw::System> sys;  // one elaboration per process
  static std::unique_ptr<hw::ProgramRunner> runner;
  sys = std::make_unique<hw::System>("system", s.system, lnc);
  runner = std::make_unique<hw::ProgramRunner>("runner", *sys);
  const double seqs_micro = double(s.batch.sequences()) / (double(s.parallel.dp) * s.parallel.fsdp * s.parallel.microbatches);
  const int per_stage = s.model.num_layers / s.parallel.pp;
  std::map<int, workloads::TrainingGraph> graphs;
  const std::vector<int> simulated =
      ranks == RankSelection::All ? layout.all_ranks() : layout.representatives();
  for (int rank : simulated) {
    int p = layout.coord(rank).p;
    if (!graphs.count(p)) {
      graphs[p] = workloads::build_training_graph(s.model, p * per_stage, (p + 1) * per_stage, seqs_micro,
                                                  double(s.batch.seq_len), s.checkpointing);
      workloads::apply_parallel_passes(graphs[p], s, p);
    }
    workloads::LoweringStats st;
    runner->add_rank(rank, workloads::lower_rank(s, layout, graphs[p], rank, &st));
    r.ops += st.ops;
  }
  r.simulated_ranks = static_cast<int>(runner->ranks().size());
  std::unique_ptr<sim::TraceSink> sink;
  if (!trace.path.empty()) {
    sink = std::make_unique<sim::TraceSink>(trace.path, trace.categories, trace.t0, trace.t1);
    std::set<int> chips;
    for (const auto& [rank, core] : runner->ranks()) {
      const hw::RankPlacement p = sys->placement(rank);
      if (chips.insert(p.chip).second) sink->process_name(p.chip, "chip " + std::to_string(p.chip));
      core->set_trace(sink.get(), p.chip, rank * 100, "rank " + std::to_string(rank), p.lnc);
    }
    const int fabric_pid = s.system.total_chips() + 1;
    sink->process_name(fabric_pid, "fabric (links, EFA, DMA, HBM utilisation)");
    sys->net().set_trace(sink.get(), fabric_pid);
    if (sink->wants("links"))  // a busy-span track per NeuronLink, switch port and EFA NIC link
      for (size_t l = 0; l < sys->topology().links().size(); ++l)
        sys->net().trace_busy_spans(sys->link_resource(static_cast<int32_t>(l)));
  }
  sim::run_to_completion();
  runner->check_finished();
  r.step_time_s = runner->finish_time();
  r.tokens_per_s = double(s.batch.tokens()) / r.step_time_s;
  r.model_flops = model_flops_per_step(s);
  r.mfu = r.model_flops / (r.step_time_s * s.system.total_chips() * s.system.chip.peak.bf16.v);
  r.events = sys->net().events() + sys->events().events();

  // Breakdown on rank 0 (a representative of the first stage).
  const hw::NeuronCore& core = *runner->ranks().begin()->second;
  const auto& prog = core.program();
  const auto& times = core.op_times();
  std::vector<Interval> compute, coll, host, pipe;
  double memory_bound = 0;
  std::map<models::Engine, double> busy;
  for (size_t i = 0; i < prog.ops.size(); ++i) {
    const auto& op = prog.ops[i];
    Interval iv = times[i];
    double len = iv.second - iv.first;
    if (op.engine == models::Engine::Collective && op.name.rfind("pp_", 0) == 0) pipe.push_back(iv);
    else if (op.engine == models::Engine::Collective) coll.push_back(iv);
    else if (op.engine == models::Engine::Host) host.push_back(iv);
    else {
      compute.push_back(iv);
      busy[op.engine] += len;
      memory_bound += std::max(0.0, len - op.duration_s);
    }
  }
  const double t_compute = union_length(compute);
  const double t_comm = exposed(coll, compute);
  std::vector<Interval> dev = compute;
  dev.insert(dev.end(), coll.begin(), coll.end());
  const double t_host = exposed(host, dev);
  dev.insert(dev.end(), host.begin(), host.end());
  const double t_pipe = exposed(pipe, dev);  // waiting for the neighbouring stage
  const double idle = std::max(0.0, r.step_time_s - t_compute - t_comm - t_host - t_pipe);
  r.breakdown = {{"compute", t_compute - std::min(memory_bound, t_compute)},
                 {"memory_bound", std::min(memory_bound, t_compute)},
                 {"exposed_communication", t_comm},
                 {"host_dispatch", t_host},
                 {"pipeline_bubble", t_pipe},
                 {"idle", idle}};
  for (auto e : {models::Engine::Tensor, models::Engine::Vector, models::Engine::Scalar, models::Engine::GpSimd})
    r.engines.push_back({models::engine_name(e), busy[e]});
  r.memory = workloads::memory_per_rank(s);
  // Verdict: the largest category.
  auto top = std::max_element(r.breakdown.begin(), r.breakdown.end(),
                              [](const auto& a, const auto& b) { return a.second < b.second; });
  r.verdict = "the step is bound by " + top->first + " (" +
              std::to_string(static_cast<int>(100 * top->second / r.step_time_s + 0.5)) + "% of the step)";
  r.roofline = build_roofline(s, lnc, prog, times);
  if (sink) {
    sys->net().flush_trace(sim::now_s());
    sink->finish();
  }
  r.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();
  return r;
}

}  // namespace trn::app
