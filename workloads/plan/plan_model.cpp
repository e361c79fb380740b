// The pure parts of `trnsim plan`: search space, bounds, checkpoint size, restart model.
#include "workloads/plan/plan_model.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace trn::workloads::plan {

std::string PlanLayout::text(bool with_checkpointing) const {
  std::string s = "tp" + std::to_string(tp) + " pp" + std::to_string(pp) + " mb" + std::to_string(microbatches) +
                  " fsdp" + std::to_string(fsdp) + " dp" + std::to_string(dp) + " zero" + std::to_string(zero) + " ep" +
                  std::to_string(ep) + " ckpt=" + (with_checkpointing ? enum_word(checkpointing) : "") + " lnc" +
                  std::to_string(lnc);
  return s;
}

std::vector<std::string> PlanPoint::sets() const {
  const PlanLayout& l = layout;
  return {"system=" + system,
          "system.instances=" + std::to_string(instances),
          "lnc=" + std::to_string(l.lnc),
          "parallel.tp=" + std::to_string(l.tp),
          "parallel.pp=" + std::to_string(l.pp),
          "parallel.microbatches=" + std::to_string(l.microbatches),
          "parallel.dp=" + std::to_string(l.dp),
          "parallel.fsdp=" + std::to_string(l.fsdp),
          "parallel.zero=" + std::to_string(l.zero),
          "parallel.ep=" + std::to_string(l.ep),
          "checkpointing=" + enum_word(l.checkpointing),
          "batch.global_batch=" + std::to_string(global_batch),
          "batch.seq_len=" + std::to_string(seq_len)};
}

std::vector<int> instance_counts(int chips_per_instance, int min_chips, int max_chips, bool powers_of_two) {
  std::vector<int> out;
  for (int n = 1; int64_t{n} * chips_per_instance <= max_chips; n = powers_of_two ? 2 * n : n + 1)
    if (int64_t{n} * chips_per_instance >= min_chips) out.push_back(n);
  return out;
}

std::vector<PlanLayout> enumerate_layouts(const ModelSpec& m, const SearchSpace& space, int ranks,
                                          int ranks_per_instance, int64_t sequences, int lnc) {
  std::vector<PlanLayout> out;
  for (int tp : space.tp) {
    if (tp > ranks_per_instance || ranks % tp != 0) continue;
    if (m.num_heads % tp != 0) continue;
    if (m.num_kv_heads % tp != 0 && tp % m.num_kv_heads != 0) continue;
    for (int pp : space.pp) {
      if (m.num_layers % pp != 0 || (ranks / tp) % pp != 0) continue;
      const int rest = ranks / tp / pp;
      for (int fsdp = 1; fsdp <= std::min(rest, space.max_fsdp); fsdp *= 2) {
        if (rest % fsdp != 0) continue;
        const int dp = rest / fsdp;
        const int64_t replicas = int64_t{dp} * fsdp;
        if (sequences % replicas != 0) continue;
        const int64_t per_replica = sequences / replicas;
        std::vector<int> mbs;
        for (int mbsz : space.microbatch_sequences) {
          if (per_replica % mbsz != 0) continue;
          const int64_t micro = per_replica / mbsz;
          if (pp > 1 && micro < pp) continue;
          if (micro > 65536) continue;
          if (std::find(mbs.begin(), mbs.end(), int(micro)) == mbs.end()) mbs.push_back(int(micro));
        }
        int ep = 1;
        if (m.is_moe())
          while (m.num_experts % (ep * 2) == 0 && replicas % (ep * 2) == 0) ep *= 2;
        for (int micro : mbs)
          for (int zero : dp > 1 ? std::vector<int>{0, 1} : std::vector<int>{0})
            for (const auto& ck : space.checkpointing) {
              PlanLayout l;
              l.tp = tp;
              l.pp = pp;
              l.microbatches = micro;
              l.dp = dp;
              l.fsdp = fsdp;
              l.zero = zero;
              l.ep = ep;
              l.lnc = lnc;
              l.checkpointing = ck;
              out.push_back(l);
            }
      }
    }
  }
  return out;
}

int64_t next_batch_with_layouts(const ModelSpec& m, const SearchSpace& space, int ranks, int ranks_per_instance,
                                int64_t sequences, int lnc) {
  for (int64_t g = sequences + 1; g <= 4 * sequences; ++g)
    if (!enumerate_layouts(m, space, ranks, ranks_per_instance, g, lnc).empty()) return g;
  return -1;
}

int64_t nearest_batch_with_layouts(const ModelSpec& m, const SearchSpace& space, int ranks, int ranks_per_instance,
                                   int64_t sequences, int lnc, double tolerance) {
  const auto most = static_cast<int64_t>(std::floor(tolerance * double(sequences)));
  for (int64_t d = 0; d <= most; ++d)
    for (const int64_t g : {sequences - d, sequences + d})
      if (g >= 1 && !enumerate_layouts(m, space, ranks, ranks_per_instance, g, lnc).empty()) return g;
  return -1;
}

double step_time_lower_bound(const ScenarioSpec& s, double model_flops) {
  const double recompute = s.checkpointing == Checkpointing::Full ? 4.0 / 3.0 : 1.0;  // the forward (1/3 of 6N) again
  const double eff = s.runtime.efficiency(s.mode, s.compile.frontend);
  const double rate = double(s.system.total_chips()) * s.system.chip.peak.bf16.v * std::min(1.0, eff);
  const double m = s.parallel.microbatches, pp = s.parallel.pp;
  const double bubble = (m + pp - 1) / m;
  return kBoundSlack * model_flops * recompute / rate * bubble;
}

double checkpoint_bytes(const ScenarioSpec& s) {
  const double master = s.precision.fp32_master_copy() ? 4.0 : 0.0;
  return s.model.parameters() * (s.precision.element_bytes() + master + 8.0);
}

double young_daly_interval(double write_s, double mtbf_s) { return std::sqrt(2.0 * write_s * mtbf_s); }

RestartResult restart_model(const RestartInput& in, const RestartParams& p) {
  RestartResult r;
  const double inf = std::numeric_limits<double>::infinity();
  const double rate = p.interruptions_per_chip_hour * in.chips / 3600.0;  // per second, whole job
  r.mtbf_s = rate > 0 ? 1.0 / rate : inf;
  const double hosts = std::max(1, in.hosts);
  r.write_s = in.checkpoint_bytes / (hosts * p.write_bandwidth);
  r.read_s = in.checkpoint_bytes / (hosts * p.read_bandwidth);
  r.restart_s = in.restart_startup_s + r.read_s;
  if (rate <= 0) {  // no interruptions: no checkpoints needed for restarts
    r.interval_s = p.interval_s > 0 ? p.interval_s : inf;
    r.checkpoints = std::isfinite(r.interval_s) ? std::floor(in.work_s / r.interval_s) : 0;
    r.checkpoint_s = r.checkpoints * r.write_s;
    r.total_s = in.work_s + r.checkpoint_s;
    r.goodput = r.total_s > 0 ? in.work_s / r.total_s : 1;
    return r;
  }
  r.interval_s = p.interval_s > 0 ? p.interval_s : young_daly_interval(r.write_s, r.mtbf_s);
  const double seg = r.interval_s + r.write_s;
  const double u = r.interval_s / seg * (1.0 - (r.restart_s + seg / 2) / r.mtbf_s);
  if (!(u > 0)) {
    r.finishes = false;
    r.total_s = inf;
    r.goodput = 0;
    return r;
  }
  r.total_s = in.work_s / u;
  r.checkpoints = in.work_s / r.interval_s;
  r.checkpoint_s = r.checkpoints * r.write_s;
  r.failures = r.total_s / r.mtbf_s;
  r.restarts_s = r.failures * r.restart_s;
  r.lost_s = r.failures * seg / 2;
  r.goodput = in.work_s / r.total_s;
  return r;
}

std::vector<size_t> pareto_front(const std::vector<std::pair<double, double>>& tc) {
  std::vector<size_t> idx(tc.size());
  for (size_t i = 0; i < idx.size(); ++i) idx[i] = i;
  std::stable_sort(idx.begin(), idx.end(), [&](size_t a, size_t b) {
    return tc[a].first != tc[b].first ? tc[a].first < tc[b].first : tc[a].second < tc[b].second;
  });
  std::vector<size_t> out;
  double best_cost = std::numeric_limits<double>::infinity();
  for (size_t i : idx)
    if (tc[i].second < best_cost) {
      out.push_back(i);
      best_cost = tc[i].second;
    }
  return out;
}

}  // namespace trn::workloads::plan
