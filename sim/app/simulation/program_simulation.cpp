// Per-rank programs on a system's model (program_simulation.h).
#include "sim/app/simulation/program_simulation.h"

#include <chrono>
#include <memory>
#include <stdexcept>
#include <string>

#include "hw/system/program_runner.h"
#include "hw/system/system.h"
#include "sim/base/config_node.h"
#include "sim/kernel/event_queue.h"

namespace trn::app {

ProgramRunResult simulate_programs(const models::SystemSpec& system, std::vector<models::Program> programs) {
  const auto wall0 = std::chrono::steady_clock::now();
  const int lnc = system.chip.cores.default_lnc;
  static std::unique_ptr<hw::System> sys;  // one elaboration per process
  static std::unique_ptr<hw::ProgramRunner> runner;
  sys = std::make_unique<hw::System>("system", system, lnc);
  if (static_cast<int>(programs.size()) > sys->total_ranks())
    throw sim::ConfigError(std::to_string(programs.size()) + " ranks do not fit on " +
                           std::to_string(system.instances) + " x " + system.name + " (" +
                           std::to_string(sys->total_ranks()) + " ranks at LNC " + std::to_string(lnc) + ")");
  runner = std::make_unique<hw::ProgramRunner>("runner", *sys);
  const size_t n = programs.size();
  for (size_t r = 0; r < n; ++r) runner->add_rank(static_cast<int>(r), std::move(programs[r]));
  sim::run_to_completion();
  try {
    runner->check_finished();
  } catch (const std::logic_error& e) {
    throw sim::ConfigError(std::string("the trace does not run to its end: ") + e.what());
  }
  ProgramRunResult res;
  res.finish_s = runner->finish_time();
  for (const auto& [rank, core] : runner->ranks()) res.rank_finish.push_back(core->finish_time());
  res.events = sys->events().events() + sys->net().events();
  res.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();
  return res;
}

}  // namespace trn::app
