// ProgramRunner: runs per-rank programs on a System. Each simulated rank gets a NeuronCore
// (a logical core: its first physical core's DMA and HBM stack, with LNC x the DMA
// bandwidth); collective ops rendezvous by (group, sequence number): when every simulated
// member of the group has reached its k-th collective on that group, the collective is
// planned over the whole group (simulated or not: unsimulated members are identical ranks
// assumed to arrive at the same time) and run on the fabric; all members resume at its end.
#pragma once

#include <systemc>

#include <map>
#include <memory>
#include <tuple>
#include <vector>

#include "hw/collectives/collective_engine.h"
#include "hw/system/system.h"

namespace trn::hw {

struct CollectiveStats {
  uint64_t count = 0;
  uint64_t siblings = 0;  // collectives of sibling groups started alongside (nobody waits)
  uint64_t apart = 0;     // sibling collectives not started: no resource in common (start_siblings)
  double busy_s = 0;      // summed collective durations (launch to end)
  double bytes = 0;
};

class ProgramRunner : public sc_core::sc_module {
 public:
  ProgramRunner(sc_core::sc_module_name name, System& sys);
  ~ProgramRunner() override;
  /// Adds a simulated rank with its program. Elaboration time only. `mirrors`: ranks that are
  /// not simulated and run the same program; their DMA and HBM traffic is mirrored (see
  /// NeuronCore::add_mirror).
  NeuronCore& add_rank(int rank, models::Program program, const std::vector<int>& mirrors = {});
  /// The same with the program lowered on demand (NeuronCore::load(ProgramSource)).
  NeuronCore& add_rank(int rank, std::unique_ptr<models::ProgramSource> source, const std::vector<int>& mirrors = {});
  const std::map<int, NeuronCore*>& ranks() const { return cores_; }
  const CollectiveStats& collective_stats() const { return stats_; }
  /// Leaves out the sibling collectives whose traffic, when they start, shares no resource with
  /// the simulated ranks' (start_siblings in program_runner.cpp). Off: every sibling runs.
  void leave_apart_siblings(bool on) { leave_apart_ = on; }
  /// Replays collectives that run alone (CollectiveEngine::replay_isolated). Off: every run is
  /// simulated.
  void replay_isolated(bool on) { engine_.replay_isolated(on); }
  /// Registers the runner's collective counters into `g` and each simulated rank's core into
  /// the group "rank<N>" (sim/base/stats.h). After the ranks are added.
  void add_stats(sim::StatGroup& g) const;
  /// Latest finish time over the simulated ranks.
  double finish_time() const;
  /// After the run: throws std::logic_error naming the first rank that did not finish
  /// (a deadlock: a collective whose members never all arrived).
  void check_finished() const;

 private:
  struct Pending;
  void arrive(int rank, const models::Op& op, std::function<void()> done);

  System& sys_;
  CollectiveEngine engine_;
  std::map<int, NeuronCore*> cores_;
  std::map<std::vector<int>, std::map<int64_t, std::unique_ptr<Pending>>> pending_;
  std::map<std::pair<int, std::vector<int>>, int64_t> seq_;  // (rank, group) -> next sequence
  // Per (rank, group id): the sibling groups to start, less the images of simulated groups
  // under the instance symmetry.
  std::map<std::pair<int, int32_t>, std::vector<std::vector<int>>> siblings_;
  const std::vector<std::vector<int>>& siblings_of(int rank, int32_t group);
  // Starts the siblings of a collective whose own plan is `own`: those whose traffic can meet
  // the simulated ranks', directly or through other siblings (see the definition).
  void start_siblings(models::CollectiveOp op, double bytes, const std::vector<std::vector<int>>& sibs,
                      const PreparedPlan& own);
  bool leave_apart_ = false;
  CollectiveStats stats_;
  // Prepared plans by (op, bytes, group): a step repeats the same collectives every layer and
  // micro-batch. Bounded: cleared when it holds more than kPlanCacheTransfers transfers.
  std::shared_ptr<const PreparedPlan> plan_for(models::CollectiveOp op, double bytes, const std::vector<int>& group);
  std::map<std::tuple<int, double, std::vector<int>>, std::shared_ptr<const PreparedPlan>> plans_;
  size_t plans_transfers_ = 0;
  static constexpr size_t kPlanCacheTransfers = size_t{1} << 19;  // about 35 MB
};

}  // namespace trn::hw
