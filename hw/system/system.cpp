// System assembly.
#include "hw/system/system.h"

#include <stdexcept>

namespace trn::hw {

System::System(sc_core::sc_module_name name, const models::SystemSpec& spec, int lnc)
    : sc_core::sc_module(name),
      spec_(spec),
      topo_(models::build_topology(spec)),
      lnc_(lnc > 0 ? lnc : spec.chip.cores.default_lnc),
      events_("events"),
      net_("fabric") {
  const auto& chip = spec_.chip;
  for (size_t i = 0; i < topo_.links().size(); ++i) {
    const auto& l = topo_.links()[i];
    link_res_.push_back(net_.add_resource(
        "link." + topo_.node_name(l.from) + "->" + topo_.node_name(l.to), l.bandwidth));
  }
  const double stack_bw = chip.hbm.bandwidth.v / chip.hbm.stacks;
  const double core_dma = chip.dma.core_bandwidth();
  for (int c = 0; c < topo_.num_chips(); ++c) {
    for (int s = 0; s < chip.hbm.stacks; ++s)
      hbm_res_.push_back(net_.add_resource("chip" + std::to_string(c) + ".hbm" + std::to_string(s), stack_bw));
    for (int k = 0; k < chip.cores.physical; ++k)
      core_dma_res_.push_back(
          net_.add_resource("chip" + std::to_string(c) + ".nc" + std::to_string(k) + ".dma", core_dma));
  }
  cc_res_.assign(static_cast<size_t>(total_ranks()), -1);
}

RankPlacement System::placement(int rank) const {
  if (rank < 0 || rank >= total_ranks()) throw std::out_of_range("rank out of range");
  RankPlacement p;
  p.chip = rank / ranks_per_chip();
  p.first_core = (rank % ranks_per_chip()) * lnc_;
  p.lnc = lnc_;
  return p;
}

int32_t System::hbm_resource(int chip, int stack) const {
  return hbm_res_[static_cast<size_t>(chip * spec_.chip.hbm.stacks + stack)];
}

int32_t System::core_dma_resource(int chip, int core) const {
  return core_dma_res_[static_cast<size_t>(chip * spec_.chip.cores.physical + core)];
}

int32_t System::collective_dma_resource(int rank) {
  auto& r = cc_res_[static_cast<size_t>(rank)];
  if (r < 0) {
    const auto& c = spec_.chip;
    double bw = lnc_ * c.collectives.dma_engines_per_core * c.dma.engine_bandwidth.v;
    r = net_.add_resource("rank" + std::to_string(rank) + ".cc_dma", bw);
  }
  return r;
}

NeuronCore& System::add_core(int chip, int core, models::Program program, int lnc) {
  int stack = core / spec_.chip.cores_per_stack();
  int32_t dma = core_dma_resource(chip, core);
  if (lnc > 1)
    dma = net_.add_resource("chip" + std::to_string(chip) + ".lnc" + std::to_string(core / lnc) + ".dma",
                            lnc * spec_.chip.dma.core_bandwidth());
  std::vector<ResourceUse> path = {{dma, 1.0}, {hbm_resource(chip, stack), 1.0}};
  std::string nm = "chip" + std::to_string(chip) + "_nc" + std::to_string(core);
  cores_.push_back(std::make_unique<NeuronCore>(nm.c_str(), spec_.chip, net_, events_, std::move(path)));
  cores_.back()->load(std::move(program));
  return *cores_.back();
}

}  // namespace trn::hw
