// The step analysis (step_analysis.h).
#include "sim/app/analysis/step_analysis.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <stdexcept>
#include <utility>

#include <nlohmann/json.hpp>

#include "sim/base/config_reader.h"

namespace trn::app {

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
  std::vector<Interval> both = std::move(a);
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

void set_engine_figures(const std::map<models::Engine, double>& busy, const std::map<models::Engine, int64_t>& count,
                        StepResult& r) {
  auto busy_of = [&](models::Engine e) { return busy.count(e) ? busy.at(e) : 0.0; };
  auto count_of = [&](models::Engine e) { return count.count(e) ? count.at(e) : int64_t{0}; };
  for (auto e : {models::Engine::Tensor, models::Engine::Vector, models::Engine::Scalar, models::Engine::GpSimd})
    r.engines.push_back({models::engine_name(e), busy_of(e)});
  for (auto e : {models::Engine::Tensor, models::Engine::Vector, models::Engine::Scalar, models::Engine::GpSimd,
                 models::Engine::Collective, models::Engine::Host, models::Engine::Dma})
    r.engine_ops.push_back({models::engine_name(e), double(count_of(e))});
}

// The roofline of one logical core against its share of the chip's peaks: the largest groups
// by busy time, the rest as one "other" point.
Roofline build_roofline(const workloads::ScenarioSpec& s, int lnc, std::vector<RooflinePoint> pts) {
  Roofline rl;
  rl.lnc = lnc;
  const double logical_cores = double(s.system.chip.cores.physical) / lnc;
  rl.peak_flop_rate = s.system.chip.peak.bf16.v / logical_cores;
  rl.hbm_bandwidth = s.system.chip.hbm.bandwidth.v / logical_cores;
  std::stable_sort(pts.begin(), pts.end(),
                   [](const RooflinePoint& a, const RooflinePoint& b) { return a.busy_s > b.busy_s; });
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

// Throughput, MFU, memory, verdict and roofline from the simulated quantities.
void finish_result(const workloads::ScenarioSpec& s, StepResult& r) {
  r.tokens_per_s = double(s.batch.tokens()) / r.step_time_s;
  r.model_flops = model_flops_per_step(s);
  r.mfu = r.model_flops / (r.step_time_s * s.system.total_chips() * s.system.chip.peak.bf16.v);
  r.memory = workloads::memory_per_rank(s);
  const StepCategory top = r.breakdown.largest();
  r.verdict = "the step is bound by " + sim::word_of(top) + " (" +
              std::to_string(std::lround(100 * r.breakdown[top] / r.step_time_s)) + "% of the step)";
  const int lnc = s.effective_lnc();
  r.roofline = build_roofline(s, lnc, r.roofline_groups);
}

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

std::vector<std::pair<std::string, double>> StepBreakdown::named() const {
  std::vector<std::pair<std::string, double>> out;
  for (size_t i = 0; i < kStepCategories; ++i) out.emplace_back(sim::word_of(static_cast<StepCategory>(i)), seconds[i]);
  return out;
}

StepBreakdown StepBreakdown::from_named(const std::vector<std::pair<std::string, double>>& named) {
  StepBreakdown b;
  for (const auto& [word, v] : named) {
    const auto c = sim::enum_of_word<StepCategory>(word);
    if (!c) throw std::invalid_argument("'" + word + "' is not a step category");
    b[*c] = v;
  }
  return b;
}

StepCategory StepBreakdown::largest() const {
  return static_cast<StepCategory>(std::max_element(seconds.begin(), seconds.end()) - seconds.begin());
}

StepBreakdown step_breakdown(std::vector<Interval> compute, const std::vector<Interval>& coll,
                             const std::vector<Interval>& pipe, const std::vector<Interval>& host, double memory_bound,
                             double step_time) {
  const double t_compute = union_length(compute);
  const double t_comm = exposed(coll, compute);
  // A host that runs ahead of the device (compiled launches, lazy-tensor tracing) is busy while
  // the device waits for something else; only what is left when nothing else explains the wait
  // is the host's.
  std::vector<Interval> dev = std::move(compute);
  dev.insert(dev.end(), coll.begin(), coll.end());
  const double t_pipe = exposed(pipe, dev);  // waiting for the neighbouring stage
  dev.insert(dev.end(), pipe.begin(), pipe.end());
  const double t_host = exposed(host, dev);
  const double idle = std::max(0.0, step_time - t_compute - t_comm - t_host - t_pipe);
  StepBreakdown b;
  b[StepCategory::Compute] = t_compute - std::min(memory_bound, t_compute);
  b[StepCategory::MemoryBound] = std::min(memory_bound, t_compute);
  b[StepCategory::ExposedCommunication] = t_comm;
  b[StepCategory::HostDispatch] = t_host;
  b[StepCategory::PipelineBubble] = t_pipe;
  b[StepCategory::Idle] = idle;
  return b;
}

namespace {

using Json = nlohmann::json;
using Pairs = std::vector<std::pair<std::string, double>>;

}  // namespace

void to_json(nlohmann::json& j, const StepResult& r) {
  j = Json::object();
  j["step_time_s"] = r.step_time_s;
  j["breakdown"] = r.breakdown.named();
  j["engines"] = r.engines;
  j["engine_ops"] = r.engine_ops;
  j["events"] = r.events;
  j["wall_s"] = r.wall_s;
  j["simulated_ranks"] = r.simulated_ranks;
  j["world"] = r.world;
  j["ops"] = r.ops;
  j["sibling_collectives"] = r.sibling_collectives;
  j["per_orbit"] = r.per_orbit;
  Json g = Json::array();
  for (const auto& p : r.roofline_groups) g.push_back({p.name, p.engine, p.ops, p.flops, p.hbm_bytes, p.busy_s});
  j["roofline_groups"] = g;
  if (!r.stats.empty()) j["stats"] = r.stats;
}

void from_json(const nlohmann::json& j, StepResult& r) {
  r.roofline_groups.clear();
  r.step_time_s = j["step_time_s"];
  r.breakdown = StepBreakdown::from_named(j["breakdown"].get<Pairs>());
  r.engines = j["engines"].get<Pairs>();
  r.engine_ops = j["engine_ops"].get<Pairs>();
  r.events = j["events"];
  r.wall_s = j["wall_s"];
  r.simulated_ranks = j["simulated_ranks"];
  r.world = j["world"];
  r.ops = j["ops"];
  r.simulated_ops = r.ops;
  r.sibling_collectives = j["sibling_collectives"];
  r.per_orbit = j.value("per_orbit", false);
  for (const auto& g : j["roofline_groups"]) {
    RooflinePoint p;
    p.name = g[0];
    p.engine = g[1];
    p.ops = g[2];
    p.flops = g[3];
    p.hbm_bytes = g[4];
    p.busy_s = g[5];
    r.roofline_groups.push_back(p);
  }
  if (j.contains("stats")) r.stats = j["stats"];
}

namespace {

// x(m) on the line through (m2, a) and (m3, b).
double line(double a, double b, int m2, int m3, int m) { return b + (b - a) * double(m - m3) / double(m3 - m2); }

void extrapolate(Pairs& out, const Pairs& a, const Pairs& b, int m2, int m3, int m, bool whole) {
  out = b;
  for (size_t i = 0; i < out.size() && i < a.size(); ++i) {
    double v = line(a[i].second, b[i].second, m2, m3, m);
    out[i].second = whole ? std::round(v) : std::max(0.0, v);
  }
}

}  // namespace

StepResult combine_steady(const StepResult& a, const StepResult& b, int m2, int m3, int m) {
  StepResult r = b;
  r.step_time_s = line(a.step_time_s, b.step_time_s, m2, m3, m);
  for (size_t i = 0; i < kStepCategories; ++i)
    r.breakdown.seconds[i] = std::max(0.0, line(a.breakdown.seconds[i], b.breakdown.seconds[i], m2, m3, m));
  extrapolate(r.engines, a.engines, b.engines, m2, m3, m, false);
  extrapolate(r.engine_ops, a.engine_ops, b.engine_ops, m2, m3, m, true);
  r.ops = static_cast<int64_t>(std::llround(line(double(a.ops), double(b.ops), m2, m3, m)));
  std::map<std::pair<std::string, std::string>, const RooflinePoint*> in_a;
  for (const auto& p : a.roofline_groups) in_a[{p.name, p.engine}] = &p;
  for (auto& p : r.roofline_groups) {
    auto it = in_a.find({p.name, p.engine});
    const RooflinePoint zero;
    const RooflinePoint& q = it == in_a.end() ? zero : *it->second;
    p.ops = std::llround(line(double(q.ops), double(p.ops), m2, m3, m));
    p.flops = std::max(0.0, line(q.flops, p.flops, m2, m3, m));
    p.hbm_bytes = std::max(0.0, line(q.hbm_bytes, p.hbm_bytes, m2, m3, m));
    p.busy_s = std::max(0.0, line(q.busy_s, p.busy_s, m2, m3, m));
  }
  return r;
}

}  // namespace trn::app
