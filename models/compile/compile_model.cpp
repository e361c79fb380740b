// Compile-latency model (see compile_model.h).
#include "models/compile/compile_model.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <queue>

namespace trn::models {

double instruction_units(const CompileParams& p, const CompileJob& j) {
  return j.tiles + p.units_per_op * j.ops + p.moe_row_units * j.rows;
}

double compile_seconds(const CompileParams& p, const CompileJob& j) {
  double cold;
  if (j.kernel) {
    cold = p.c0_op.v + p.a_op.v * j.tiles;
  } else {
    const double units = instruction_units(p, j);
    const double per_module = units / std::max(1, j.modules);
    cold = p.c0.v + p.a.v * units + p.b.v * units * std::pow(per_module / p.i_ref, p.alpha - 1.0);
  }
  return (1.0 - j.hit) * cold * j.scale * (j.xla ? p.xla_factor : 1.0);
}

double compile_memory(const CompileParams& p, const CompileJob& j) {
  return p.mu0.v + p.mu1.v * instruction_units(p, j) / std::max(1, j.modules);
}

double lpt_makespan(std::vector<double> jobs, int workers) {
  std::sort(jobs.rbegin(), jobs.rend());
  std::priority_queue<double, std::vector<double>, std::greater<>> w;
  for (int i = 0; i < std::max(1, workers); ++i) w.push(0.0);
  double end = 0;
  for (double t : jobs) {
    double s = w.top();
    w.pop();
    w.push(s + t);
    end = std::max(end, s + t);
  }
  return end;
}

std::vector<std::pair<int, double>> lpt_assign(const std::vector<double>& jobs, int workers) {
  std::vector<size_t> idx(jobs.size());
  for (size_t i = 0; i < idx.size(); ++i) idx[i] = i;
  std::stable_sort(idx.begin(), idx.end(), [&](size_t a, size_t b) { return jobs[a] > jobs[b]; });
  using Slot = std::pair<double, int>;  // (free at, worker)
  std::priority_queue<Slot, std::vector<Slot>, std::greater<>> w;
  for (int i = 0; i < std::max(1, workers); ++i) w.push({0.0, i});
  std::vector<std::pair<int, double>> out(jobs.size());
  for (size_t i : idx) {
    Slot s = w.top();
    w.pop();
    out[i] = {s.second, s.first};
    w.push({s.first + jobs[i], s.second});
  }
  return out;
}

CompilePhase compile_phase(const CompileParams& p, const std::vector<CompileJob>& jobs, Schedule schedule,
                           const HostLimits& host, double speedup, double budget_s) {
  CompilePhase out;
  out.duplicate = std::max(1, host.duplicate);
  double max_mem = 0;
  std::vector<double> secs;
  for (const auto& j : jobs) {
    JobResult r;
    r.name = j.name;
    r.units = instruction_units(p, j);
    r.hit = j.hit;
    // A hit costs the lookup, but never more than compiling (small eager kernels).
    CompileJob cold = j;
    cold.hit = 0;
    const double full = compile_seconds(p, cold) / std::max(1e-9, speedup);
    r.seconds = (1.0 - j.hit) * full + j.hit * std::min(p.t_hit.v, full);
    r.memory = j.hit >= 1 ? 0 : compile_memory(p, j);
    if (j.hit < 1 && !j.kernel) {
      if (r.units / std::max(1, j.modules) > p.i_max)
        r.failure = "instruction-limit";
      else if (r.memory > host.memory)
        r.failure = "host-oom";
      else if (budget_s > 0 && r.seconds > budget_s)
        r.failure = "timeout";
    }
    if (!r.failure.empty()) out.failures.push_back(j.name + ": " + r.failure);
    max_mem = std::max(max_mem, r.memory);
    r.compiles = std::max(1, j.copies) * (j.hit >= 1 ? 1 : out.duplicate);
    for (int d = 0; d < r.compiles; ++d) secs.push_back(r.seconds);
    out.jobs.push_back(std::move(r));
  }
  if (schedule == Schedule::Sequential) {
    // JIT: each rank compiles its graphs in order; the ranks of a host compile their own
    // variants and, without a shared cache, their copies at the same time and share the
    // host's cores.
    out.workers = 1;
    for (const auto& r : out.jobs) {
      const double contention = std::max(1.0, r.compiles * p.cores_per_job / std::max(1, host.vcpus));
      out.wall_s += r.seconds * (r.hit < 1 ? contention : 1.0);
    }
    return out;
  }
  int by_cpu = static_cast<int>(host.vcpus / p.cores_per_job);
  int by_mem = max_mem > 0 ? static_cast<int>(host.memory / max_mem) : by_cpu;
  out.workers = std::max(1, std::min({by_cpu, by_mem, static_cast<int>(secs.size())}));
  out.wall_s = lpt_makespan(secs, out.workers);
  return out;
}

}  // namespace trn::models
