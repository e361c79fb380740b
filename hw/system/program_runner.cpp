// ProgramRunner implementation.
#include "hw/system/program_runner.h"

#include <algorithm>
#include <set>
#include <unordered_map>
#include <stdexcept>

#include "hw/collectives/collective_planner.h"

namespace trn::hw {

struct ProgramRunner::Pending {
  int expected = 0;
  std::vector<std::function<void()>> waiters;
  models::CollectiveOp op = models::CollectiveOp::AllReduce;
  double bytes = 0;
};

ProgramRunner::ProgramRunner(sc_core::sc_module_name name, System& sys)
    : sc_core::sc_module(name), sys_(sys), engine_("collectives", sys) {}

ProgramRunner::~ProgramRunner() = default;

NeuronCore& ProgramRunner::add_rank(int rank, models::Program program, const std::vector<int>& mirrors) {
  RankPlacement p = sys_.placement(rank);
  NeuronCore& core = sys_.add_core(p.chip, p.first_core, std::move(program), p.lnc);
  for (int m : mirrors) {
    RankPlacement q = sys_.placement(m);
    core.add_mirror(sys_.dma_path(q.chip, q.first_core, q.lnc));
  }
  core.set_collective_hook(
      [this, rank](const models::Op& op, std::function<void()> done) { arrive(rank, op, std::move(done)); });
  cores_[rank] = &core;
  return core;
}

NeuronCore& ProgramRunner::add_rank(int rank, std::unique_ptr<models::ProgramSource> source,
                                    const std::vector<int>& mirrors) {
  NeuronCore& core = add_rank(rank, models::Program{}, mirrors);
  core.load(std::move(source));
  return core;
}

double ProgramRunner::finish_time() const {
  double t = 0;
  for (const auto& kv : cores_) t = std::max(t, kv.second->finish_time());
  return t;
}

void ProgramRunner::check_finished() const {
  for (const auto& [rank, core] : cores_) {
    if (core->done()) continue;
    std::string detail;
    for (const auto& [group, slots] : pending_)
      for (const auto& [seq, p] : slots) {
        detail += " group {";
        for (size_t i = 0; i < group.size() && i < 8; ++i) detail += (i ? "," : "") + std::to_string(group[i]);
        detail += group.size() > 8 ? ",...}" : "}";
        detail += " #" + std::to_string(seq) + " has " + std::to_string(p->waiters.size()) + "/" +
                  std::to_string(p->expected) + " members;";
      }
    throw std::logic_error("simulation deadlock: rank " + std::to_string(rank) + " did not finish its program;" +
                           detail);
  }
}

const std::vector<std::vector<int>>& ProgramRunner::siblings_of(int rank, int32_t group) {
  auto hit = siblings_.find({rank, group});
  if (hit != siblings_.end()) return hit->second;
  const auto& prog = cores_.at(rank)->program();
  std::vector<std::vector<int>> keep;
  if (static_cast<size_t>(group) < prog.siblings.size()) {
    // A group's image in the representative instances (the symmetry element that moves its
    // first member there) and, under the local symmetry, the least of that image's images:
    // siblings with the image of a group already started are skipped.
    auto canon = [this](const std::vector<int>& m) {
      const int g = sys_.instance_to_rep(m[0]);
      std::vector<int> out;
      for (int r : m) out.push_back(sys_.rank_image(g, r));
      std::sort(out.begin(), out.end());
      const std::vector<int> base = out;
      std::vector<int> img;
      for (size_t e = 1; e < sys_.symmetry().local.rank_perms.size(); ++e) {
        img.clear();
        for (int r : base) img.push_back(sys_.local_image(static_cast<int>(e), r));
        std::sort(img.begin(), img.end());
        if (img < out) out.swap(img);
      }
      return out;
    };
    std::set<std::vector<int>> seen = {canon(prog.groups.at(static_cast<size_t>(group)))};
    for (const auto& sib : prog.siblings[static_cast<size_t>(group)])
      if (seen.insert(canon(sib)).second) keep.push_back(sib);
  }
  return siblings_.emplace(std::make_pair(rank, group), std::move(keep)).first->second;
}

std::shared_ptr<const PreparedPlan> ProgramRunner::plan_for(models::CollectiveOp op, double bytes,
                                                            const std::vector<int>& group) {
  auto key = std::make_tuple(static_cast<int>(op), bytes, group);
  auto it = plans_.find(key);
  if (it != plans_.end()) return it->second;
  PlannedCollective pc = plan_collective_quotient(sys_, op, bytes, group);
  std::shared_ptr<const PreparedPlan> p = engine_.prepare(std::move(pc.plan), std::move(pc.ranks));
  if (plans_transfers_ + p->plan.transfers.size() > kPlanCacheTransfers) {  // runs in flight keep theirs
    plans_.clear();
    plans_transfers_ = 0;
  }
  plans_transfers_ += p->plan.transfers.size();
  plans_.emplace(std::move(key), p);
  return p;
}

// A sibling collective changes the simulated ranks' timing only through the flows it shares a
// resource with (a link, or a rank's collective DMA engines): max-min rates decompose over
// the connected components of flows and resources. With leave_apart_, siblings are joined when
// their plans' footprints share a resource, and started when joined to the simulated group's
// own plan or to a resource that carries a flow now (the simulated ranks' other collectives,
// the siblings started with them). The rest run, at this moment, on resources nothing else
// uses, and are left out. What this misses: such a sibling still running when a later
// collective reaches its resources (the step differs from the one with every sibling by
// +0.05 % on qwen3-32b-trn2; test/cli/reductions.sh checks the switched fabrics' cases, where
// it is on, against --exact).
void ProgramRunner::start_siblings(models::CollectiveOp op, double bytes, const std::vector<std::vector<int>>& sibs,
                                   const PreparedPlan& own) {
  auto start = [this](std::shared_ptr<const PreparedPlan> p) {
    engine_.run(std::move(p), 0.0, [this](const CollectiveResult&) { ++stats_.siblings; });
  };
  if (!leave_apart_) {
    for (const auto& sib : sibs) start(plan_for(op, bytes, sib));
    return;
  }
  if (sibs.empty()) return;
  std::vector<std::shared_ptr<const PreparedPlan>> plans;
  for (const auto& sib : sibs) plans.push_back(plan_for(op, bytes, sib));
  std::vector<size_t> parent(plans.size() + 1);  // 0: the simulated group and the busy resources
  for (size_t i = 0; i < parent.size(); ++i) parent[i] = i;
  auto find = [&](size_t i) {
    while (parent[i] != i) i = parent[i] = parent[parent[i]];
    return i;
  };
  auto unite = [&](size_t a, size_t b) { parent[find(a)] = find(b); };
  std::unordered_map<int64_t, size_t> owner;
  for (size_t i = 0; i < parent.size(); ++i) {
    const PreparedPlan& p = i == 0 ? own : *plans[i - 1];
    for (int64_t k : p.footprint) {
      auto [it, fresh] = owner.emplace(k, i);
      if (!fresh) unite(i, it->second);
    }
    if (i > 0 && engine_.footprint_active(p)) unite(i, 0);
  }
  for (size_t i = 1; i < parent.size(); ++i) {
    if (find(i) != find(0)) {
      ++stats_.apart;
      continue;
    }
    start(plans[i - 1]);
  }
}

void ProgramRunner::arrive(int rank, const models::Op& op, std::function<void()> done) {
  const auto& prog = cores_.at(rank)->program();
  const std::vector<int>& group = prog.groups.at(static_cast<size_t>(op.group));
  if (group.size() <= 1) {
    sys_.events().at(0.0, std::move(done));
    return;
  }
  int64_t seq = seq_[{rank, group}]++;
  auto& slot = pending_[group][seq];
  if (!slot) {
    slot = std::make_unique<Pending>();
    for (int r : group) slot->expected += cores_.count(r) ? 1 : 0;
    slot->op = op.coll;
    slot->bytes = op.bytes;
  }
  slot->waiters.push_back(std::move(done));
  if (static_cast<int>(slot->waiters.size()) < slot->expected) return;
  auto ready = std::move(slot);
  pending_[group].erase(seq);
  std::shared_ptr<const PreparedPlan> plan = plan_for(ready->op, ready->bytes, group);
  // The same collective on the sibling groups (identical ranks that are not simulated): their
  // traffic loads the links and DMA engines it shares with this one; nothing waits for them.
  start_siblings(ready->op, ready->bytes, siblings_of(rank, op.group), *plan);
  std::shared_ptr<Pending> shared(std::move(ready));
  engine_.run(std::move(plan), 0.0, [this, shared](const CollectiveResult& r) {
    ++stats_.count;
    stats_.busy_s += r.time();
    stats_.bytes += shared->bytes;
    for (auto& w : shared->waiters) w();
  });
}

void ProgramRunner::add_stats(sim::StatGroup& g) const {
  sim::StatGroup& c = g.group("collectives", "collectives run by the simulated ranks' groups");
  c.add("count", "collectives", "collectives of the simulated ranks' groups", [this] { return double(stats_.count); });
  c.add("siblings", "collectives", "collectives of sibling groups started alongside (nobody waits for them)",
        [this] { return double(stats_.siblings); });
  c.add("siblings_apart", "collectives",
        "sibling collectives not started: no resource in common with the simulated ranks' traffic, directly or "
        "through other siblings",
        [this] { return double(stats_.apart); });
  c.add("replayed", "collectives",
        "collectives not simulated but replayed from an identical earlier run that met no other traffic",
        [this] { return double(engine_.replayed()); });
  c.add("replay_overlaps", "collectives",
        "runs launched on a resource of a replay under way (they did not see its traffic)",
        [this] { return double(engine_.replay_overlaps()); });
  c.add("busy", "s", "summed collective durations, launch to end", [this] { return stats_.busy_s; });
  c.add("bytes", "B", "summed collective payloads", [this] { return stats_.bytes; });
  for (const auto& [rank, core] : cores_)
    core->add_stats(g.group("rank" + std::to_string(rank), "the NeuronCore of simulated rank " + std::to_string(rank)));
}

}  // namespace trn::hw
