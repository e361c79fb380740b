// System: a Trainium instance, UltraServer or cluster assembled from its SystemSpec.
// It owns the shared FlowNetwork and EventQueue and registers every bandwidth resource:
// one per directed link of the topology (NeuronLink, switch port, EFA), one per HBM stack,
// one per physical core's DMA engines, and one per rank's collective DMA engines.
// NeuronCores are created on demand for the cores that run programs.
#pragma once

#include <systemc>

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

class System : public sc_core::sc_module {
 public:
  /// `lnc`: physical cores per rank (logical NeuronCore size); 0 = the chip's default.
  System(sc_core::sc_module_name name, const models::SystemSpec& spec, int lnc = 0);

  const models::SystemSpec& spec() const { return spec_; }
  const models::Topology& topology() const { return topo_; }
  FlowNetwork& net() { return net_; }
  sim::EventQueue& events() { return events_; }
  int lnc() const { return lnc_; }
  int ranks_per_chip() const { return spec_.chip.cores.physical / lnc_; }
  int total_ranks() const { return ranks_per_chip() * topo_.num_chips(); }

  /// Rank r lives on chip r / ranks_per_chip (chips in index order).
  RankPlacement placement(int rank) const;
  int32_t link_resource(int32_t link) const { return link_res_[static_cast<size_t>(link)]; }
  int32_t hbm_resource(int chip, int stack) const;
  int32_t core_dma_resource(int chip, int core) const;
  /// DMA engines that collectives of `rank` drive (created on first use).
  int32_t collective_dma_resource(int rank);
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
  std::vector<std::unique_ptr<NeuronCore>> cores_;
};

}  // namespace trn::hw
