// System: a Trainium instance, UltraServer or cluster assembled from its SystemSpec.
// It owns the shared FlowNetwork and EventQueue and registers the bandwidth resources on first
// use (ensure_resources): one per directed link of the topology (NeuronLink, switch port, EFA),
// one per HBM stack, one per physical core's DMA engines, and one per rank's collective DMA
// engines; under an instance symmetry only those of the representative instances.
// NeuronCores are created on demand for the cores that run programs.
#pragma once

#include <systemc>

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "hw/core/neuron_core.h"
#include "hw/fabric/flow_network.h"
#include "models/spec/system_spec.h"
#include "models/topology/topology.h"
#include "sim/kernel/event_queue.h"

namespace trn::hw {

struct RankPlacement {
  int chip = 0;        // global chip index (instance-major)
  int first_core = 0;  // first physical core of the logical core
  int lnc = 1;         // physical cores per rank
};

/// Instance symmetry (docs/workloads.md 1.6): permutations of identical instances under which
/// the simulated job is invariant (every instance of an orbit runs the same programs at the
/// same moments). With one set, traffic is simulated only where it starts in an orbit's
/// representative instance: every flow's resources fold onto the representative instances,
/// collective transfers starting elsewhere are represented by their images, and sibling groups
/// that are images of a simulated group are not started. Exact for a symmetric job: max-min
/// fair sharing of a symmetric network has a symmetric solution, so each folded resource
/// carries exactly the load of its image in the full system.
///
/// The local part (docs/workloads.md 1.6.1): permutations of the ranks of an instance, applied
/// alike in every instance, that the topology maps onto itself (Topology::local_automorphism)
/// and under which the job is invariant: on a switched fabric, ranks of a chip and blocks of
/// chips. The group acts freely on ranks; representatives are the least rank of each orbit.
/// A folded link carries the load of its orbit's flows: a kept flow weighs on it as many times
/// as elements of the group fix the link (the ranks of a chip share its links).
struct LocalSymmetry {
  std::vector<std::vector<int>> rank_perms;      // [g][local rank]: its image (rank_perms[0]: identity)
  std::vector<std::vector<int32_t>> link_perms;  // [g][link position in an instance]: its image
  std::vector<int> to_rep;                       // per local rank: the g that maps it to its representative
  std::vector<int32_t> link_rep;                 // per link position: its orbit's representative
  std::vector<double> link_weight;               // per link position: elements that fix it
  bool active() const { return rank_perms.size() > 1; }
};

/// The instance symmetry, in compact form (O(1) memory however many instances): instances
/// [0, used) lie in blocks of `block` (one per pipeline stage), each a cycle of block / span
/// groups of `span` instances; element g = a * span + b (a < shifts, b < span) takes instance
/// B * block + m * span + u to B * block + ((m + a * stride) mod (block / span)) * span +
/// (u + b) mod span, and leaves the instances from `used` on in place. shifts = 0: the identity
/// only.
struct InstanceSymmetry {
  int shifts = 0, span = 1, stride = 1, block = 0, used = 0;
  std::vector<int> to_rep;  // per instance: the g that maps it to its orbit's representative
  LocalSymmetry local;      // inside the instances (none: identity only)
  /// The cyclic shifts i -> (i + a) mod used of the first `used` of `instances` instances,
  /// instance 0 the representative (`bench collective`'s ranks that fill whole instances).
  static InstanceSymmetry cyclic(int used, int instances) {
    InstanceSymmetry k;
    k.shifts = k.block = k.used = used;
    k.to_rep.assign(static_cast<size_t>(instances), 0);
    for (int i = 1; i < used; ++i) k.to_rep[static_cast<size_t>(i)] = used - i;
    return k;
  }
  /// The number of instance elements (the identity counts).
  int size() const { return shifts > 0 ? shifts * span : 1; }
  /// The image of instance i under element g.
  int image(int g, int i) const {
    if (shifts == 0 || i >= used) return i;
    const int cycle = block / span, a = g / span, b = g % span;
    const int base = i - i % block, m = (i % block) / span, u = i % span;
    return base + static_cast<int>((static_cast<int64_t>(m) + static_cast<int64_t>(a) * stride) % cycle) * span +
           (u + b) % span;
  }
  bool active() const { return size() > 1 || local.active(); }
};

class System : public sc_core::sc_module {
 public:
  /// `lnc`: physical cores per rank (logical NeuronCore size); 0 = the chip's default.
  System(sc_core::sc_module_name name, const models::SystemSpec& spec, int lnc = 0);

  const models::SystemSpec& spec() const { return spec_; }
  const models::Topology& topology() const { return topo_; }
  FlowNetwork& net() { return net_; }
  const FlowNetwork& net() const { return net_; }
  sim::EventQueue& events() { return events_; }
  /// Registers the system's counters into `g`: the fabric (group "fabric", FlowNetwork) and
  /// the event queue's events (sim/base/stats.h).
  void add_stats(sim::StatGroup& g) const;
  int lnc() const { return lnc_; }
  int ranks_per_chip() const { return spec_.chip.cores.physical / lnc_; }
  int total_ranks() const { return ranks_per_chip() * topo_.num_chips(); }

  /// Rank r lives on chip r / ranks_per_chip (chips in index order).
  RankPlacement placement(int rank) const;
  int ranks_per_instance() const { return ranks_per_chip() * topo_.chips_per_instance(); }
  int instance_of_rank(int rank) const { return rank / ranks_per_instance(); }

  /// Sets the instance symmetry (elaboration time; checked: each element is a permutation and
  /// representatives map to themselves; the caller guarantees that the job is invariant).
  void set_symmetry(InstanceSymmetry k);
  const InstanceSymmetry& symmetry() const { return sym_; }
  /// The image of `rank` under instance-symmetry element g (the instance part).
  int rank_image(int g, int rank) const;
  /// The image of `rank` under local-symmetry element g (inside its instance).
  int local_image(int g, int rank) const {
    const int per = ranks_per_instance();
    return rank - rank % per + sym_.local.rank_perms[static_cast<size_t>(g)][static_cast<size_t>(rank % per)];
  }
  /// The rank that stands for `rank` (its image in the representative instance, and under the
  /// local symmetry its orbit's representative there).
  int rep_rank(int rank) const;
  bool in_rep_instance(int rank) const { return rank_image(instance_to_rep(rank), rank) == rank; }
  int instance_to_rep(int rank) const {
    return sym_.size() > 1 ? sym_.to_rep[static_cast<size_t>(instance_of_rank(rank))] : 0;
  }
  /// The link that stands for topology link `l` (its image in the representative instance, and
  /// under the local symmetry its orbit's representative there).
  int32_t rep_link(int32_t l) const;
  /// How many times a kept flow loads folded link `l` (LocalSymmetry::link_weight; 1 without).
  double link_weight(int32_t l) const;
  /// The bandwidth resource of topology link `link`; -1 for a link that the symmetry folds onto
  /// another (no flow uses it, so it has none). Registers the resources on first use.
  int32_t link_resource(int32_t link) {
    ensure_resources();
    return link_res_[static_cast<size_t>(link)];
  }
  int32_t hbm_resource(int chip, int stack);
  int32_t core_dma_resource(int chip, int core);
  /// Registers the links', HBM stacks' and DMA engines' resources, in that order, once: with an
  /// instance symmetry only those of representative links and of chips of representative
  /// instances (every flow folds onto them), so that memory follows the instances simulated, not
  /// the cluster. Called by the first use of a resource; the symmetry cannot change after it.
  void ensure_resources();
  /// DMA engines that collectives of `rank` drive (created on first use).
  int32_t collective_dma_resource(int rank);
  /// The same when already created, else -1 (creates nothing).
  int32_t registered_collective_dma(int rank) const { return cc_res_[static_cast<size_t>(rank)]; }
  /// Resources a DMA transfer of the logical core starting at (chip, core) crosses: its DMA
  /// engines (the `lnc` physical cores' together, created on first use) and its HBM stack.
  std::vector<ResourceUse> dma_path(int chip, int core, int lnc);
  /// Creates a NeuronCore for (chip, core) running `program`; with `lnc` > 1 it is a logical
  /// core spanning `lnc` physical cores (their DMA engines together). Elaboration time only.
  NeuronCore& add_core(int chip, int core, models::Program program, int lnc = 1);
  const std::vector<std::unique_ptr<NeuronCore>>& cores() const { return cores_; }

 private:
  models::SystemSpec spec_;
  models::Topology topo_;
  int lnc_;
  sim::EventQueue events_;
  FlowNetwork net_;
  std::vector<int32_t> link_res_, hbm_res_, core_dma_res_, cc_res_;
  std::map<std::pair<int, int>, int32_t> lnc_dma_res_;  // (chip, first core) -> logical core's DMA
  std::vector<std::unique_ptr<NeuronCore>> cores_;
  InstanceSymmetry sym_;
  bool resources_ = false;  // ensure_resources() has run
};

}  // namespace trn::hw
