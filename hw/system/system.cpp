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
  cc_res_.assign(static_cast<size_t>(total_ranks()), -1);
}

void System::ensure_resources() {
  if (resources_) return;
  resources_ = true;
  const auto& links = topo_.links();
  link_res_.assign(links.size(), -1);
  for (size_t i = 0; i < links.size(); ++i) {
    if (rep_link(static_cast<int32_t>(i)) != static_cast<int32_t>(i)) continue;
    const auto& l = links[i];
    link_res_[i] = net_.add_resource("link." + topo_.node_name(l.from) + "->" + topo_.node_name(l.to), l.bandwidth);
  }
  const auto& chip = spec_.chip;
  const double stack_bw = chip.hbm.bandwidth.v / chip.hbm.stacks;
  const double core_dma = chip.dma.core_bandwidth();
  hbm_res_.assign(static_cast<size_t>(topo_.num_chips()) * static_cast<size_t>(chip.hbm.stacks), -1);
  core_dma_res_.assign(static_cast<size_t>(topo_.num_chips()) * static_cast<size_t>(chip.cores.physical), -1);
  for (int c = 0; c < topo_.num_chips(); ++c) {
    // A chip of an instance that the symmetry maps elsewhere runs nothing and carries nothing.
    const int first_rank = c * ranks_per_chip();
    if (sym_.size() > 1 && !in_rep_instance(first_rank)) continue;
    for (int s = 0; s < chip.hbm.stacks; ++s)
      hbm_res_[static_cast<size_t>(c) * static_cast<size_t>(chip.hbm.stacks) + static_cast<size_t>(s)] =
          net_.add_resource("chip" + std::to_string(c) + ".hbm" + std::to_string(s), stack_bw);
    for (int k = 0; k < chip.cores.physical; ++k)
      core_dma_res_[static_cast<size_t>(c) * static_cast<size_t>(chip.cores.physical) + static_cast<size_t>(k)] =
          net_.add_resource("chip" + std::to_string(c) + ".nc" + std::to_string(k) + ".dma", core_dma);
  }
}

RankPlacement System::placement(int rank) const {
  if (rank < 0 || rank >= total_ranks()) throw std::out_of_range("rank out of range");
  RankPlacement p;
  p.chip = rank / ranks_per_chip();
  p.first_core = (rank % ranks_per_chip()) * lnc_;
  p.lnc = lnc_;
  return p;
}

void System::set_symmetry(InstanceSymmetry k) {
  if (resources_) throw std::logic_error("symmetry: set after the resources were registered");
  const int n = topo_.num_chips() / topo_.chips_per_instance();
  if (k.shifts > 0) {
    const bool ok = k.span >= 1 && k.block >= k.span && k.block % k.span == 0 && k.used >= 0 && k.used <= n &&
                    k.used % k.block == 0 && k.stride >= 1;
    if (!ok) throw std::logic_error("symmetry: a malformed instance symmetry");
  }
  if (k.to_rep.empty()) k.to_rep.assign(static_cast<size_t>(n), 0);
  if (static_cast<int>(k.to_rep.size()) != n) throw std::logic_error("symmetry: to_rep of the wrong size");
  for (int i = 0; i < n; ++i) {
    const int g = k.to_rep[static_cast<size_t>(i)];
    if (g < 0 || g >= k.size()) throw std::logic_error("symmetry: bad to_rep");
    const int rep = k.image(g, i);
    const int back = k.image(k.to_rep[static_cast<size_t>(rep)], rep);
    if (back != rep) throw std::logic_error("symmetry: a representative is not its own representative");
  }
  const LocalSymmetry& loc = k.local;
  const size_t per = static_cast<size_t>(ranks_per_instance()), g = loc.rank_perms.size();
  if (g > 1) {
    bool ok = loc.link_perms.size() == g && loc.to_rep.size() == per && loc.link_rep.size() == loc.link_weight.size();
    for (size_t e = 0; ok && e < g; ++e) ok = loc.rank_perms[e].size() == per;
    for (size_t r = 0; ok && r < per; ++r)
      ok = loc.to_rep[r] >= 0 && static_cast<size_t>(loc.to_rep[r]) < g &&
           loc.rank_perms[static_cast<size_t>(loc.to_rep[r])][r] <= static_cast<int>(r);
    if (!ok) throw std::logic_error("symmetry: a malformed local symmetry");
  }
  sym_ = std::move(k);
}

int System::rank_image(int g, int rank) const {
  if (sym_.size() <= 1) return rank;
  const int i = instance_of_rank(rank);
  return sym_.image(g, i) * ranks_per_instance() + rank % ranks_per_instance();
}

int System::rep_rank(int rank) const {
  if (!sym_.active()) return rank;
  const int r = rank_image(instance_to_rep(rank), rank);
  if (!sym_.local.active()) return r;
  return local_image(sym_.local.to_rep[static_cast<size_t>(r % ranks_per_instance())], r);
}

int32_t System::rep_link(int32_t l) const {
  if (!sym_.active()) return l;
  const int i = topo_.links()[static_cast<size_t>(l)].instance;
  if (i < 0) return l;
  int rep = i;
  if (sym_.size() > 1) rep = sym_.image(sym_.to_rep[static_cast<size_t>(i)], i);
  if (sym_.local.active())
    return topo_.instance_link(rep, sym_.local.link_rep[static_cast<size_t>(topo_.link_ordinal(l))]);
  return rep == i ? l : topo_.link_in_instance(l, rep);
}

double System::link_weight(int32_t l) const {
  if (!sym_.local.active()) return 1.0;
  const int32_t k = topo_.link_ordinal(l);
  return k < 0 ? static_cast<double>(sym_.local.rank_perms.size()) : sym_.local.link_weight[static_cast<size_t>(k)];
}

int32_t System::hbm_resource(int chip, int stack) {
  ensure_resources();
  return hbm_res_[static_cast<size_t>(chip) * static_cast<size_t>(spec_.chip.hbm.stacks) + static_cast<size_t>(stack)];
}

int32_t System::core_dma_resource(int chip, int core) {
  ensure_resources();
  return core_dma_res_[static_cast<size_t>(chip) * static_cast<size_t>(spec_.chip.cores.physical) +
                       static_cast<size_t>(core)];
}

int32_t System::collective_dma_resource(int rank) {
  ensure_resources();
  auto& r = cc_res_[static_cast<size_t>(rank)];
  if (r < 0) {
    const auto& c = spec_.chip;
    double bw = lnc_ * c.collectives.dma_engines_per_core * c.dma.engine_bandwidth.v;
    r = net_.add_resource("rank" + std::to_string(rank) + ".cc_dma", bw);
  }
  return r;
}

std::vector<ResourceUse> System::dma_path(int chip, int core, int lnc) {
  ensure_resources();
  int stack = core / spec_.chip.cores_per_stack();
  int32_t dma = core_dma_resource(chip, core);
  if (lnc > 1) {
    auto it = lnc_dma_res_.find({chip, core});
    if (it == lnc_dma_res_.end())
      it = lnc_dma_res_
               .emplace(std::make_pair(chip, core),
                        net_.add_resource("chip" + std::to_string(chip) + ".lnc" + std::to_string(core / lnc) + ".dma",
                                          lnc * spec_.chip.dma.core_bandwidth()))
               .first;
    dma = it->second;
  }
  return {{dma, 1.0}, {hbm_resource(chip, stack), 1.0}};
}

NeuronCore& System::add_core(int chip, int core, models::Program program, int lnc) {
  std::vector<ResourceUse> path = dma_path(chip, core, lnc);
  std::string nm = "chip" + std::to_string(chip) + "_nc" + std::to_string(core);
  cores_.push_back(std::make_unique<NeuronCore>(nm.c_str(), spec_.chip, net_, events_, std::move(path)));
  cores_.back()->load(std::move(program));
  return *cores_.back();
}

void System::add_stats(sim::StatGroup& g) const {
  net_.add_stats(g.group("fabric", "the shared-bandwidth network: NeuronLink, switches, EFA, DMA engines, HBM"));
  g.add("queue_events", "events", "timed callbacks of the event queue (op ends, host ops, collective starts)",
        [this] { return static_cast<double>(events_.events()); });
}

}  // namespace trn::hw
