// The typed side of the fork helper: sealed bodies, run_children and rethrow
// (sim/base/fork_pool.h holds the envelope and the forking).
#include "sim/app/simulation/fork_eval.h"

#include "sim/app/simulation/step_simulation.h"

namespace trn::app {

sim::ChildResult error_result(const std::exception& e) {
  if (const auto* c = dynamic_cast<const sim::ConfigError*>(&e))
    return sim::ChildResult::error(2, e.what(), "", c->kind());
  if (dynamic_cast<const MemoryGuardError*>(&e)) return sim::ChildResult::error(2, e.what(), "", "host-memory");
  return sim::ChildResult::error(3, e.what());
}

std::string sealed(const std::function<nlohmann::json()>& body) {
  try {
    return sim::ChildResult::of(body()).seal();
  } catch (const std::exception& e) {
    return error_result(e).seal();
  }
}

std::vector<sim::ChildResult> run_children(const std::vector<std::function<nlohmann::json()>>& bodies,
                                           const std::string& what, int jobs) {
  std::vector<sim::ChildResult> out(bodies.size());
  sim::run_forked(
      bodies.size(), [&](size_t i) { return sealed(bodies[i]); }, jobs,
      [&](size_t i, sim::ChildOutcome&& c) { out[i] = sim::ChildResult::open(c); }, what);
  return out;
}

void rethrow(const sim::ChildResult& r, const std::string& what) {
  if (r.status == 2 && r.kind == "host-memory") throw MemoryGuardError(r.message);
  if (r.status == 2) throw sim::ConfigError(r.message);
  throw std::runtime_error(what + " failed: " + r.message);
}

std::vector<double> run_in_child(const std::function<std::vector<double>()>& body, const std::string& what) {
  return run_in_children<std::vector<double>>({body}, what, 1)[0];
}

}  // namespace trn::app
