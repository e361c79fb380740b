// ProgramRunner implementation.
#include "hw/system/program_runner.h"

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

NeuronCore& ProgramRunner::add_rank(int rank, models::Program program) {
  RankPlacement p = sys_.placement(rank);
  NeuronCore& core = sys_.add_core(p.chip, p.first_core, std::move(program), p.lnc);
  core.set_collective_hook([this, rank](const models::Op& op, std::function<void()> done) {
    arrive(rank, op, std::move(done));
  });
  cores_[rank] = &core;
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
    throw std::logic_error("simulation deadlock: rank " + std::to_string(rank) + " did not finish its program;" + detail);
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
  PlannedCollective pc = plan_collective(sys_, ready->op, ready->bytes, group);
  std::shared_ptr<Pending> shared(std::move(ready));
  engine_.run(std::move(pc.plan), pc.ranks, 0.0, [this, shared](const CollectiveResult& r) {
    ++stats_.count;
    stats_.busy_s += r.time();
    stats_.bytes += shared->bytes;
    for (auto& w : shared->waiters) w();
  });
}

}  // namespace trn::hw
